// Runs first in every visualization frame. It reports to the card the first
// uncaught script error (the frame stays as it is) and the content height,
// through postMessage only: the frame has an opaque origin and no other
// channel out.
(function () {
  "use strict";
  var post = window.parent && window.parent !== window ? window.parent.postMessage.bind(window.parent) : null;
  var reported = false;
  function report(message) {
    if (reported || !post) return;
    reported = true;
    try {
      post({ type: "pi-viz-error", message: String(message).slice(0, 500) }, "*");
    } catch (e) {}
  }
  window.addEventListener("error", function (e) {
    if (e.target !== window && e.target && e.target.tagName) return; // a blocked resource, not a script error
    // A line of the page inside the fragment is reported as the fragment's line.
    var offset = Number(document.documentElement.getAttribute("data-fragment-line")) || 0;
    var where = e.lineno > offset ? " (line " + (e.lineno - offset) + ")" : "";
    report((e.message || (e.error && String(e.error)) || "Script error") + where);
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    report("Unhandled promise rejection: " + (r && r.message ? r.message : String(r)));
  });
  var last = 0;
  // The content's own height: the root's scrollHeight is never less than the frame, so
  // a card could grow with its content but never shrink to it.
  function contentHeight() {
    var root = document.documentElement, body = document.body;
    if (!body) return Math.ceil(root.scrollHeight);
    return Math.ceil(Math.max(root.getBoundingClientRect().height, body.scrollHeight));
  }
  function size() {
    var h = contentHeight();
    if (h !== last && post) {
      last = h;
      try { post({ type: "pi-viz-size", height: h }, "*"); } catch (e) {}
    }
  }
  window.addEventListener("load", size);
  if (typeof ResizeObserver === "function") {
    document.addEventListener("DOMContentLoaded", function () {
      new ResizeObserver(size).observe(document.documentElement);
    });
  }
})();
