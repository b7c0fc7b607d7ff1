// Compare two filesystems (layouts/compare/single.html): features side by side with the rows
// that differ marked, and each workload's newest figures with their 95 % CIs and the ratio of
// the means. The choice is kept in the address (?a=ext4&b=xfs). Text is set as text, never HTML.
(function () {
  "use strict";
  var root = document.getElementById("compare");
  if (!root) return;
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  var form = document.getElementById("compare-controls");
  var significant = window.fsatlasFormat.significant;
  var DISPLAY = window.fsatlasFormat.DISPLAY;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function factText(fact) {
    if (!fact) return "–";
    return (fact.limit !== undefined ? fact.limit : fact.value) + (fact.note ? " (" + fact.note + ")" : "");
  }
  function factValue(fact) { return fact ? String(fact.limit !== undefined ? fact.limit : fact.value) : ""; }
  function table(head) {
    var t = el("table", { "class": "data-table compare-table" });
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", { scope: "col" }, h)); });
    t.appendChild(el("thead")).appendChild(tr);
    return [t, t.appendChild(el("tbody"))];
  }

  function features(a, b) {
    var fa = data.features[a], fb = data.features[b];
    var parts = table(["Feature", fa.name, fb.name]), body = parts[1], differ = 0;
    data.columns.forEach(function (c) {
      var x = fa.facts[c.key], y = fb.facts[c.key];
      var same = factValue(x) === factValue(y);
      var tr = el("tr", same ? {} : { "class": "differs" });
      tr.appendChild(el("th", { scope: "row" }, c.label + (same ? "" : " (differs)")));
      tr.appendChild(el("td", {}, factText(x)));
      tr.appendChild(el("td", {}, factText(y)));
      body.appendChild(tr);
      if (!same) differ += 1;
    });
    var box = document.getElementById("compare-features");
    box.replaceChildren(el("p", {}, differ + " of " + data.columns.length + " features differ."), parts[0]);
  }

  function figures(a, b) {
    var by = {};
    data.cells.forEach(function (c) {
      if (c.fs !== a && c.fs !== b) return;
      Object.keys(c.metrics).forEach(function (m) {
        var key = c.workload + (c.dims ? " " + c.dims : "") + "|" + m;
        by[key] = by[key] || { workload: c.workload + (c.dims ? " (" + c.dims + ")" : ""), metric: m };
        by[key][c.fs === a ? "a" : "b"] = { m: c.metrics[m], flags: c.flags, result: c.result };
      });
    });
    var rows = Object.keys(by).sort().map(function (k) { return by[k]; }).filter(function (r) { return r.a && r.b; });
    var box = document.getElementById("compare-figures");
    if (!rows.length) {
      box.replaceChildren(el("p", {}, "No workload has been measured with default options on both."));
      return;
    }
    var parts = table(["Workload", "Metric", data.features[a].name + " (95 % CI)", data.features[b].name + " (95 % CI)",
                       "Ratio " + b + " / " + a, "Flags"]);
    rows.forEach(function (r) {
      var unit = DISPLAY[r.a.m.unit] || { factor: 1, unit: r.a.m.unit }, tr = el("tr");
      function shown(side) {
        var m = side.m;
        return significant(m.mean * unit.factor) + " " + unit.unit + " (" + significant(m.ci_low * unit.factor) + "–" +
          significant(m.ci_high * unit.factor) + ")";
      }
      var ratio = r.a.m.mean ? r.b.m.mean / r.a.m.mean : null;
      var flags = [].concat(r.a.flags, r.b.flags).filter(function (f, i, all) { return all.indexOf(f) === i; });
      tr.appendChild(el("th", { scope: "row" }, r.workload));
      tr.appendChild(el("td", {}, r.metric));
      tr.appendChild(el("td", { "class": "num", title: String(r.a.m.mean) }, shown(r.a)));
      tr.appendChild(el("td", { "class": "num", title: String(r.b.m.mean) }, shown(r.b)));
      tr.appendChild(el("td", { "class": "num", title: ratio === null ? "" : String(ratio) },
                        ratio === null ? "–" : significant(ratio) + "×" + (r.a.m.better === "lower" ? " (lower is better)" : "")));
      var td = el("td");
      flags.forEach(function (f) { td.appendChild(el("span", { "class": "flag" }, f)); td.appendChild(document.createTextNode(" ")); });
      tr.appendChild(td);
      parts[1].appendChild(tr);
    });
    box.replaceChildren(parts[0]);
  }

  function show() {
    var a = form.a.value, b = form.b.value;
    var url = new URL(location.href);
    url.searchParams.set("a", a);
    url.searchParams.set("b", b);
    history.replaceState(null, "", url);
    features(a, b);
    figures(a, b);
  }

  var params = new URLSearchParams(location.search), names = Object.keys(data.features);
  form.a.value = names.indexOf(params.get("a")) >= 0 ? params.get("a") : (names.indexOf("ext4") >= 0 ? "ext4" : names[0]);
  form.b.value = names.indexOf(params.get("b")) >= 0 ? params.get("b") : (names.indexOf("xfs") >= 0 ? "xfs" : names[1]);
  form.addEventListener("change", show);
  show();
  root.setAttribute("data-rendered", "1");
})();
