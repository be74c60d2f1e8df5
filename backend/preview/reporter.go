package preview

// reporterScript is injected first into every HTML page the server serves
// (never the app's: it is served by this server, on the preview origin).
// It collects uncaught errors, unhandled rejections, resources that failed
// to load and fetches that failed, and posts them with the page's title to
// the report endpoint under the same token 300 ms after load (errors thrown
// by load handlers included). It keeps the first 10 of each and cuts each
// line; the server bounds and cleans them again.
const reporterScript = `(function () {
  "use strict";
  var me = document.currentScript && document.currentScript.src;
  if (!me) return;
  var endpoint = me.replace(/reporter\.js(\?.*)?$/, "report");
  var origFetch = window.fetch && window.fetch.bind(window);
  var errors = [], failed = [], MAX = 10;
  var push = function (list, s) {
    s = String(s).slice(0, 500);
    if (list.length < MAX && list.indexOf(s) < 0) list.push(s);
  };
  var where = function (f, l, c) {
    if (!f) return "";
    return " (" + String(f).replace(location.origin, "") + ":" + (l || 0) + ":" + (c || 0) + ")";
  };
  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && t.tagName) {
      push(failed, t.tagName.toLowerCase() + " " + String(t.src || t.href || "").replace(location.origin, ""));
      return;
    }
    var msg = e.error && e.error.name ? e.error.name + ": " + e.error.message : e.message || "error";
    push(errors, msg + where(e.filename, e.lineno, e.colno));
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    push(errors, "Unhandled rejection: " + (r && r.message ? (r.name ? r.name + ": " : "") + r.message : String(r)));
  });
  if (origFetch) {
    window.fetch = function (input, init) {
      var name = String(input && input.url ? input.url : input).replace(location.origin, "");
      return origFetch(input, init).then(function (res) {
        if (!res.ok) push(failed, "fetch " + name + " (" + res.status + ")");
        return res;
      }, function (err) {
        push(failed, "fetch " + name + " (" + (err && err.message ? err.message : err) + ")");
        throw err;
      });
    };
  }
  var send = function () {
    if (!origFetch) return;
    origFetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: location.pathname, title: document.title, errors: errors, failed: failed }),
      keepalive: true
    }).catch(function () {});
  };
  window.addEventListener("load", function () { setTimeout(send, 300); });
})();
`
