// Small chart helpers preloaded after D3. Each takes the id of an element in
// the fragment and draws into it (replacing its content); a missing element
// throws, so the card shows which id is wrong.
//   viz.bar(id, data, opts)      bars; opts.x (category), opts.y (value)
//   viz.line(id, data, opts)     lines; opts.x, opts.y, opts.series (one line per value)
//   viz.scatter(id, data, opts)  points; opts.x, opts.y, opts.color, opts.r
//   viz.chart(id, {type: "bar"|"line"|"scatter", data, ...opts})
//   viz.render(id, fn)           fn(d3 selection of the element, {width, height})
// Common opts: width, height, title, xLabel, yLabel, margin, color.
// Keys default to x/label/name and y/value/count when the data has them.
(function () {
  "use strict";
  var d3 = window.d3;
  var palette = d3.schemeTableau10;

  function element(id) {
    var el = typeof id === "string" ? document.getElementById(id) : null;
    if (!el) throw new Error('viz: no element with id "' + id + '"');
    return el;
  }
  function pick(data, key, names) {
    if (typeof key === "function") return key;
    if (typeof key === "string") return function (d) { return d[key]; };
    var first = data && data[0];
    for (var i = 0; first && i < names.length; i++) {
      if (names[i] in first) return pick(data, names[i]);
    }
    throw new Error("viz: say which field to plot (opts." + (names[0] === "x" ? "x" : "y") + ")");
  }
  function setup(id, opts) {
    var el = element(id);
    el.textContent = "";
    var width = opts.width || el.clientWidth || 640;
    var height = opts.height || 320;
    var m = Object.assign({ top: opts.title ? 28 : 12, right: 16, bottom: opts.xLabel ? 44 : 30, left: opts.yLabel ? 56 : 44 }, opts.margin || {});
    var svg = d3.select(el).append("svg")
      .attr("viewBox", [0, 0, width, height]).attr("width", width).attr("height", height)
      .attr("role", "img");
    if (opts.title) {
      svg.append("text").attr("x", m.left).attr("y", 16).attr("fill", "currentColor")
        .attr("font-weight", 600).text(opts.title);
    }
    return { svg: svg, width: width, height: height, m: m };
  }
  function axes(f, x, y, opts) {
    f.svg.append("g").attr("class", "viz-axis")
      .attr("transform", "translate(0," + (f.height - f.m.bottom) + ")").call(d3.axisBottom(x).ticks(Math.max(2, f.width / 80)));
    f.svg.append("g").attr("class", "viz-axis")
      .attr("transform", "translate(" + f.m.left + ",0)").call(d3.axisLeft(y).ticks(Math.max(2, f.height / 50)));
    if (opts.xLabel) {
      f.svg.append("text").attr("class", "viz-label").attr("text-anchor", "middle")
        .attr("x", (f.m.left + f.width - f.m.right) / 2).attr("y", f.height - 6).text(opts.xLabel);
    }
    if (opts.yLabel) {
      f.svg.append("text").attr("class", "viz-label").attr("text-anchor", "middle")
        .attr("transform", "rotate(-90)").attr("x", -(f.m.top + f.height - f.m.bottom) / 2).attr("y", 14).text(opts.yLabel);
    }
  }
  function continuous(values) {
    return values.length && values[0] instanceof Date ? d3.scaleUtc() : d3.scaleLinear();
  }

  function bar(id, data, opts) {
    opts = opts || {};
    element(id); // a wrong id is the likelier mistake: name it first
    var fx = pick(data, opts.x, ["x", "label", "name", "key"]);
    var fy = pick(data, opts.y, ["y", "value", "count"]);
    var f = setup(id, opts);
    var x = d3.scaleBand().domain(data.map(fx)).range([f.m.left, f.width - f.m.right]).padding(0.15);
    var y = d3.scaleLinear().domain([Math.min(0, d3.min(data, fy)), Math.max(0, d3.max(data, fy))]).nice()
      .range([f.height - f.m.bottom, f.m.top]);
    f.svg.append("g").selectAll("rect").data(data).join("rect")
      .attr("x", function (d) { return x(fx(d)); }).attr("width", x.bandwidth())
      .attr("y", function (d) { return y(Math.max(0, fy(d))); })
      .attr("height", function (d) { return Math.abs(y(fy(d)) - y(0)); })
      .attr("fill", opts.color || palette[0])
      .append("title").text(function (d) { return fx(d) + ": " + fy(d); });
    axes(f, x, y, opts);
    return f.svg.node();
  }

  function line(id, data, opts) {
    opts = opts || {};
    element(id); // a wrong id is the likelier mistake: name it first
    var fx = pick(data, opts.x, ["x", "date", "time", "label"]);
    var fy = pick(data, opts.y, ["y", "value", "count"]);
    var fs = opts.series ? pick(data, opts.series, []) : function () { return ""; };
    var f = setup(id, opts);
    var x = continuous(data.map(fx)).domain(d3.extent(data, fx)).range([f.m.left, f.width - f.m.right]);
    var y = d3.scaleLinear().domain(d3.extent(data, fy)).nice().range([f.height - f.m.bottom, f.m.top]);
    var groups = d3.groups(data, fs);
    var color = d3.scaleOrdinal(groups.map(function (g) { return g[0]; }), palette);
    var path = d3.line().x(function (d) { return x(fx(d)); }).y(function (d) { return y(fy(d)); });
    f.svg.append("g").attr("fill", "none").attr("stroke-width", 2).selectAll("path").data(groups).join("path")
      .attr("stroke", function (g) { return opts.color || color(g[0]); })
      .attr("d", function (g) { return path(g[1]); })
      .append("title").text(function (g) { return g[0]; });
    axes(f, x, y, opts);
    if (opts.series) legend(f, color);
    return f.svg.node();
  }

  function scatter(id, data, opts) {
    opts = opts || {};
    element(id); // a wrong id is the likelier mistake: name it first
    var fx = pick(data, opts.x, ["x"]);
    var fy = pick(data, opts.y, ["y", "value"]);
    // opts.color is a field to colour by (a key or a function) or one colour.
    var fc = null;
    if (typeof opts.color === "function") fc = opts.color;
    else if (typeof opts.color === "string" && data[0] && opts.color in data[0]) fc = pick(data, opts.color, []);
    var f = setup(id, opts);
    var x = continuous(data.map(fx)).domain(d3.extent(data, fx)).nice().range([f.m.left, f.width - f.m.right]);
    var y = d3.scaleLinear().domain(d3.extent(data, fy)).nice().range([f.height - f.m.bottom, f.m.top]);
    var color = d3.scaleOrdinal(palette);
    f.svg.append("g").selectAll("circle").data(data).join("circle")
      .attr("cx", function (d) { return x(fx(d)); }).attr("cy", function (d) { return y(fy(d)); })
      .attr("r", opts.r || 3.5).attr("fill-opacity", 0.8)
      .attr("fill", function (d) { return fc ? color(fc(d)) : (opts.color || palette[0]); })
      .append("title").text(function (d) { return fx(d) + ", " + fy(d); });
    axes(f, x, y, opts);
    if (fc) legend(f, color);
    return f.svg.node();
  }

  function legend(f, color) {
    var g = f.svg.append("g").attr("transform", "translate(" + (f.width - f.m.right - 120) + "," + f.m.top + ")");
    color.domain().forEach(function (name, i) {
      var row = g.append("g").attr("transform", "translate(0," + i * 16 + ")");
      row.append("rect").attr("width", 10).attr("height", 10).attr("fill", color(name));
      row.append("text").attr("x", 14).attr("y", 9).attr("class", "viz-label").text(name);
    });
  }

  function chart(id, spec) {
    if (!spec || !Array.isArray(spec.data)) throw new Error("viz.chart: pass {type, data: [...]}");
    var kinds = { bar: bar, line: line, scatter: scatter };
    var draw = kinds[spec.type];
    if (!draw) throw new Error('viz.chart: unknown type "' + spec.type + '" (bar, line or scatter)');
    return draw(id, spec.data, spec);
  }

  function render(id, fn) {
    var el = element(id);
    return fn(d3.select(el), { width: el.clientWidth || 640, height: el.clientHeight || 320 });
  }

  window.viz = Object.freeze({ bar: bar, line: line, scatter: scatter, chart: chart, render: render, palette: palette });
})();
