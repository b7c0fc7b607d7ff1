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
                       "Ratio " + b + " / " + a, "Flags", "Runs"]);
    // Each side is its cell's newest measurement: the two may come from different runs, on other
    // machines and kernels. Say so, with each run's system, before any ratio is read.
    var used = [];
    rows.forEach(function (r) { [r.a.result, r.b.result].forEach(function (id) { if (used.indexOf(id) < 0) used.push(id); }); });
    var notes = [];
    if (used.length > 1) {
      var warn = el("p", { "class": "warning", id: "compare-runs" },
        "These figures come from " + used.length + " different runs; a ratio across runs compares their machines and kernels as much as the filesystems:");
      var list = el("ul");
      used.forEach(function (id) {
        var run = (data.runs || {})[id] || {};
        var li = el("li");
        li.appendChild(el("a", { href: data.base + id + "/" }, id));
        li.appendChild(document.createTextNode(": " + (run.system || "system not recorded")));
        list.appendChild(li);
      });
      notes = [warn, list];
    } else {
      var run = (data.runs || {})[used[0]] || {};
      notes = [el("p", { id: "compare-runs" }, "Every figure below comes from one run, " + used[0] + ": " + (run.system || "system not recorded") + ".")];
    }
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
      var runs = el("td");
      [r.a.result, r.b.result].filter(function (id, i, all) { return all.indexOf(id) === i; }).forEach(function (id, i) {
        if (i) runs.appendChild(document.createTextNode(" and "));
        runs.appendChild(el("a", { href: data.base + id + "/", title: ((data.runs || {})[id] || {}).system || "" }, id));
      });
      tr.appendChild(runs);
      parts[1].appendChild(tr);
    });
    box.replaceChildren.apply(box, notes.concat([parts[0]]));
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
