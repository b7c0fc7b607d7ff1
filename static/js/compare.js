// Compare two filesystems (layouts/compare/single.html): features side by side with the rows
// that differ marked, and the figures of one run that measured both, each row tested by the
// comparison module. The choice is kept in the address (?a=ext4&b=xfs&run=…). Text is set as
// text; the only HTML inserted is the tables site/pairs.py wrote.
(function () {
  "use strict";
  var root = document.getElementById("compare");
  if (!root) return;
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  var form = document.getElementById("compare-controls");

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

  // The figures of a pair come from one run that measured both, as the comparison module
  // judged them (runner/fsatlas/site/pairs.py wrote each table, escaped): fetched per pair,
  // the newest run first, the others to pick from.
  var runSelect = document.getElementById("compare-run");
  var box = document.getElementById("compare-figures");
  var shown = { a: (data["default"] || {}).a, b: (data["default"] || {}).b, doc: null };

  function runLine(run) {
    var p = el("p", { id: "compare-runs" }, "Every figure below comes from one run, ");
    p.appendChild(el("a", { href: root.dataset.results + run.id + "/" }, run.id));
    p.appendChild(document.createTextNode(": " + run.system + "."));
    return p;
  }
  function showRun(doc, id) {
    var run = doc.runs.filter(function (r) { return r.id === id; })[0] || doc.runs[0];
    var holder = el("div");
    holder.innerHTML = run.table;  // made and escaped by site/pairs.py, served from this site
    box.replaceChildren(runLine(run), holder.firstChild);
    runSelect.value = run.id;
  }
  function figures(a, b, wanted) {
    var runs = (data.pairs || {})[a + "--" + b];
    runSelect.replaceChildren();
    (runs || []).forEach(function (r) { runSelect.appendChild(el("option", { value: r.id }, r.id + " (" + r.profile + ")")); });
    runSelect.disabled = !runs;
    if (a === b) { box.replaceChildren(el("p", {}, "Pick two different filesystems.")); return Promise.resolve(); }
    if (!runs) {
      box.replaceChildren(el("p", {}, "No run has measured both with default options."));
      return Promise.resolve();
    }
    if (shown.doc && shown.a === a && shown.b === b) { showRun(shown.doc, wanted); return Promise.resolve(); }
    var first = runs[0].id, held = box.querySelector("table[data-run]");
    if (held && held.dataset.run === first && (!wanted || wanted === first) && shown.a === a && shown.b === b) {
      runSelect.value = first;  // the page holds this table already (layouts/compare/single.html)
      return Promise.resolve();
    }
    box.setAttribute("aria-busy", "true");
    return fetch(root.dataset.pairs + a + "--" + b + ".json").then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.json();
    }).then(function (doc) {
      shown = { a: a, b: b, doc: doc };
      showRun(doc, wanted);
    }).catch(function (e) {
      box.replaceChildren(el("p", { "class": "warning" }, "The figures of this pair could not be loaded (" + e.message + ")."));
    }).then(function () { box.removeAttribute("aria-busy"); });
  }

  // Shows the pair the form names, in the run asked for (or the first by the site's run rule),
  // then keeps the choice in the address and marks the page rendered.
  function render(run) {
    root.removeAttribute("data-rendered");
    var a = form.a.value, b = form.b.value;
    features(a, b);
    return figures(a, b, run).then(function () {
      var url = new URL(location.href);
      url.searchParams.set("a", a);
      url.searchParams.set("b", b);
      if (runSelect.value) url.searchParams.set("run", runSelect.value); else url.searchParams.delete("run");
      history.replaceState(null, "", url);
      root.setAttribute("data-rendered", "1");
    });
  }

  var params = new URLSearchParams(location.search), names = Object.keys(data.features);
  form.a.value = names.indexOf(params.get("a")) >= 0 ? params.get("a") : (names.indexOf("ext4") >= 0 ? "ext4" : names[0]);
  form.b.value = names.indexOf(params.get("b")) >= 0 ? params.get("b") : (names.indexOf("xfs") >= 0 ? "xfs" : names[1]);
  form.addEventListener("change", function () { render(null); });
  runSelect.addEventListener("change", function () { render(runSelect.value); });
  render(params.get("run"));
})();
