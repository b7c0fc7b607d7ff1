// Compare two filesystems (layouts/compare/single.html): features side by side with the rows
// that differ marked, and the figures of one run that measured both, each row tested by the
// comparison module; or, on request, across two runs under a warning. The choice is kept in
// the address (?a=ext4&b=xfs&run=… or &run_a=…&run_b=…). Text is set as text; the only HTML
// inserted is the tables site/pairs.py wrote.
(function () {
  "use strict";
  var root = document.getElementById("compare");
  if (!root) return;
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  var form = document.getElementById("compare-controls");
  var format = window.fsatlasFormat;  // static/js/format.js: counts and the address's notices, as other pages write them

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
    box.replaceChildren(el("p", {}, differ + " of " + format.count(data.columns.length, "feature") + (differ === 1 ? " differs." : " differ.")), parts[0]);
  }

  // The figures of a pair come from one run that measured both, as the comparison module
  // judged them (runner/fsatlas/site/pairs.py wrote each table, escaped): fetched per pair,
  // the newest run first, the others to pick from.
  var runSelect = document.getElementById("compare-run");
  var box = document.getElementById("compare-figures");
  var shown = { a: (data["default"] || {}).a, b: (data["default"] || {}).b, doc: null };

  function runLink(run, text) { return el("a", { href: root.dataset.results + run.id + "/" }, text || run.id); }
  function runLine(run) {
    if (run.runs) {  // the site's rule took the workloads from several runs (site/pairs.py rule_table)
      var line = el("p", { id: "compare-runs" }, "Each row comes from the run the site's rule picks for its workload among those that measured both: ");
      run.runs.forEach(function (r, i) {
        if (i) line.appendChild(document.createTextNode("; "));
        line.appendChild(runLink(r));
        line.appendChild(document.createTextNode(" (" + r.system + ")"));
      });
      line.appendChild(document.createTextNode("."));
      return line;
    }
    var p = el("p", { id: "compare-runs" }, "Every figure below comes from one run, ");
    p.appendChild(runLink(run));
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
  // The runs of a pair where the page knows them: the pair's file once fetched, or the
  // default pair's list the page holds; the page's data holds only each pair's count of runs.
  function listed(a, b) {
    if (shown.doc && shown.a === a && shown.b === b) return shown.doc.runs;
    var held = data["default"] || {};
    return held.a === a && held.b === b ? held.runs : null;
  }
  // The runs that measured both beyond those with a table here (site/pairs.py RUNS_PER_PAIR):
  // listed by id in the pair's file (fetched for an address naming a run the page does not
  // hold), their figures on their result pages.
  function alsoOf(a, b) {
    return shown.doc && shown.a === a && shown.b === b ? shown.doc.also || [] : [];
  }
  function elsewhere(id, what, count) {
    return ["run \u201c" + id + "\u201d, which measured " + what + ", but this page holds the figures of the first " +
      format.count(count, "run") + " by the site's rule only: its own are on its result page, ", runLink({ id: id }, "results/" + id + "/")];
  }
  // The runs that measured both, to pick from (whichever view is shown); how many there are.
  function pairRuns(a, b) {
    var count = (data.pairs || {})[a + "--" + b] || 0;
    runSelect.replaceChildren();
    (listed(a, b) || []).forEach(function (r) { runSelect.appendChild(el("option", { value: r.id }, r.label || r.id + " (" + r.profile + ")")); });
    runSelect.disabled = !count;
    return count;
  }
  // The pair's file (compare/<a>--<b>.json): its runs with their tables, and the runs listed
  // beyond them; kept as the pair shown.
  function pairFile(a, b) {
    if (shown.doc && shown.a === a && shown.b === b) return Promise.resolve(shown.doc);
    return fetch(root.dataset.pairs + a + "--" + b + ".json").then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.json();
    }).then(function (doc) {
      shown = { a: a, b: b, doc: doc };
      return doc;
    });
  }
  // Under the run picker, every run that measured both beyond those with a table here, each a
  // link to its result page (where its figures are), with its date and machine: the page's data
  // counts them for each pair that has any, the pair's file lists them (fetched for this list
  // where the page has not fetched it for the figures, as for the default pair, whose list the
  // page's data leaves out: it grows with every run that measures the pair). None: no list.
  var alsoBox = document.getElementById("compare-also");
  var ALSO_OPEN = 10;  // a longer list is folded under its count
  function showAlso(a, b) {
    var name = a + "--" + b;
    if (alsoBox.dataset.pair === name) return Promise.resolve();  // listed already (another run of the pair picked)
    alsoBox.dataset.pair = name;
    alsoBox.hidden = true;
    alsoBox.replaceChildren();
    if (a === b || !(data.also || {})[name]) return Promise.resolve();
    return pairFile(a, b).then(function (doc) {
      if (alsoBox.dataset.pair !== name || !(doc.also || []).length) return;  // the reader has picked another pair
      var n = doc.also.length, list = el("ul");
      doc.also.forEach(function (r) {
        var li = el("li");
        li.append(runLink(r), " (" + r.date + ", " + r.machine_name + ")");
        list.appendChild(li);
      });
      var summary = el("summary", {}, "Also measured both: " + format.count(n, "more run") + ", with " +
        (n === 1 ? "its figures on its result page" : "their figures on their result pages"));
      alsoBox.replaceChildren(summary, list);
      alsoBox.open = n <= ALSO_OPEN;
      alsoBox.hidden = false;
    }, function (e) {
      if (alsoBox.dataset.pair !== name) return;
      delete alsoBox.dataset.pair;  // tried again when the pair is shown again
      alsoBox.replaceChildren(el("summary", {}, "The other runs that measured both could not be loaded (" + e.message + ")."));
      alsoBox.hidden = false;
    });
  }
  function figures(a, b, wanted) {
    var count = pairRuns(a, b);
    if (a === b) { box.replaceChildren(el("p", {}, "Pick two different filesystems.")); return Promise.resolve(); }
    if (!count) {
      box.replaceChildren(el("p", {}, "No run has measured both with default options. \u201cAcross two runs\u201d above " +
        "sets each filesystem's own run side by side, under a warning."));
      return Promise.resolve();
    }
    if (shown.doc && shown.a === a && shown.b === b) { showRun(shown.doc, wanted); return Promise.resolve(); }
    var runs = listed(a, b), held = box.querySelector("table[data-run]");
    if (runs && held && held.dataset.run === runs[0].id && (!wanted || wanted === runs[0].id) && shown.a === a && shown.b === b) {
      runSelect.value = runs[0].id;  // the page holds this table already (layouts/compare/single.html)
      return Promise.resolve();
    }
    box.setAttribute("aria-busy", "true");
    return pairFile(a, b).then(function (doc) {
      pairRuns(a, b);
      showRun(doc, wanted);
    }).catch(function (e) {
      box.replaceChildren(el("p", { "class": "warning" }, "The figures of this pair could not be loaded (" + e.message + ")."));
    }).then(function () { box.removeAttribute("aria-busy"); });
  }

  // Across two runs (on request only): each filesystem's figures from a run of its own, read
  // from compare/sides/<fs>.json (site/pairs.py side(): figures and raw-device figures already
  // in the site's units). Never shown without the warning naming both runs and both systems;
  // no row is tested, since the runs differ in more than the filesystem. The only arithmetic
  // here is the two ratios, printed as the site prints a figure (fsatlasFormat.significant).
  var across = document.getElementById("compare-across");
  var runA = document.getElementById("compare-run-a"), runB = document.getElementById("compare-run-b");
  var sides = Object.create(null);  // by filesystem name: no prototype, so "constructor" is not found before it is fetched
  var sideDocs = Object.create(null);  // the same, once fetched (the notice reads them)
  var fmt = window.fsatlasFormat.significant;
  across.hidden = false;

  function loadSide(fs) {
    if (!sides[fs]) {
      sides[fs] = fetch(root.dataset.pairs + "sides/" + fs + ".json").then(function (r) {
        if (r.status === 404) return { filesystem: fs, runs: [] };  // never measured with default options
        if (!r.ok) throw new Error(r.status + " " + r.statusText);
        return r.json();
      });
    }
    return sides[fs];
  }
  function fillRuns(select, doc, wanted) {
    select.replaceChildren();
    doc.runs.forEach(function (r) {
      select.appendChild(el("option", { value: r.id }, r.id + " (" + (r.profile || "no profile") + ", " + r.machine_name + ")"));
    });
    select.disabled = !doc.runs.length;
    if (wanted && doc.runs.some(function (r) { return r.id === wanted; })) select.value = wanted;
  }
  // Both filesystems' runs, offered in the two pickers (the ones wanted chosen where offered).
  function pickRuns(a, b, wantA, wantB) {
    return Promise.all([loadSide(a), loadSide(b)]).then(function (docs) {
      sideDocs[a] = docs[0];
      sideDocs[b] = docs[1];
      fillRuns(runA, docs[0], wantA);
      fillRuns(runB, docs[1], wantB);
      return docs;
    });
  }
  function systemItem(name, run) {
    var li = el("li", {}, name + ": run ");
    li.appendChild(runLink(run));
    li.appendChild(document.createTextNode(" (" + (run.profile || "no profile") + ", machine " + run.machine_name + ", label " + run.machine + "): " + run.system + "."));
    return li;
  }
  function ratio(x, y) { return x && y !== null && y !== undefined ? y / x : null; }
  // Which of the comparison module's factors (comparison.FACTORS: the side file's "across", which
  // every side file holds, as every run in it holds its own strings) differ between the two runs:
  // the page only compares the strings Python made.
  function differing(plan, ra, rb) {
    return plan.factors.filter(function (k) { return k !== "parameters" && ra.factors[k] !== rb.factors[k]; });
  }
  function acrossTable(a, b, ra, rb, why) {
    var rowsB = Object.create(null);
    rb.rows.forEach(function (r) { rowsB[r.key + "\n" + r.metric] = r; });
    var head = ["Workload", "Measure", "n", a, b, b + " / " + a, "raw device in " + a + "'s run",
                "raw device in " + b + "'s run", b + " / " + a + " relative to each raw device", "Test"];
    var parts = table(head), body = parts[1];
    parts[0].setAttribute("data-runs", ra.id + " " + rb.id);
    var caption = el("caption", {}, b + " in run " + rb.id + " against " + a + " in run " + ra.id +
      " (both systems above): " + why + ", so no row is tested. The relative ratio divides each figure by the raw device's figure on the same job in its own run.");
    parts[0].insertBefore(caption, parts[0].firstChild);
    ra.rows.forEach(function (x) {
      var y = rowsB[x.key + "\n" + x.metric];
      if (!y) return;
      var relative = x.device && y.device ? ratio(x.mean / x.device, y.mean / y.device) : null;
      var weak = [x.device_weak && a + "'s " + x.device_weak, y.device_weak && b + "'s " + y.device_weak].filter(Boolean);
      var tr = el("tr");
      tr.appendChild(el("th", { scope: "row" }, x.workload));
      var measure = el("td", {}, x.label + " ");
      measure.appendChild(el("small", {}, "(" + x.better + ")"));
      tr.appendChild(measure);
      [x.n + ", " + y.n, x.shown, y.shown, fmt(ratio(x.mean, y.mean)) + "×", x.device_shown || "–", y.device_shown || "–",
       relative === null ? "–" : fmt(relative) + "×" + (weak.length ? " (" + weak.join("; ") + ")" : "")]
        .forEach(function (v) { tr.appendChild(el("td", { "class": "num" }, v)); });
      tr.appendChild(el("td", {}, why));
      body.appendChild(tr);
    });
    return body.children.length ? parts[0] : el("p", {}, "The two runs share no measured workload of these filesystems.");
  }
  function acrossView(a, b, wantA, wantB) {
    // an address naming one side's run only (?run_a=…) asks for that run; the other side takes
    // the same run where it measured that filesystem too (its tested table then), else its first
    wantA = wantA || wantB;
    wantB = wantB || wantA;
    askedAcross = [wantA, wantB];
    pairRuns(a, b);
    box.setAttribute("aria-busy", "true");
    return pickRuns(a, b, wantA, wantB).then(function (docs) {
      var ra = docs[0].runs.filter(function (r) { return r.id === runA.value; })[0];
      var rb = docs[1].runs.filter(function (r) { return r.id === runB.value; })[0];
      if (!ra || !rb) {
        box.replaceChildren(el("p", {}, "No run has measured " + (ra ? b : a) + " with default options."));
        return null;
      }
      // one run on both sides: its tested table, where the pair's file has one for it
      var one = ra.id === rb.id && (data.pairs || {})[a + "--" + b] ? figures(a, b, ra.id) : Promise.resolve();
      return one.then(function () { return ra.id === rb.id && runSelect.value === ra.id ? null : acrossFigures(a, b, ra, rb, docs[0].across); });
    }).catch(function (e) {
      box.replaceChildren(el("p", { "class": "warning" }, "The figures of these runs could not be loaded (" + e.message + ")."));
      return null;
    }).then(function (shownRuns) { box.removeAttribute("aria-busy"); return shownRuns; });
  }
  // The two runs' figures side by side under the warning; the runs shown.
  function acrossFigures(a, b, ra, rb, plan) {
    var warning = el("div", { "class": "warning", id: "compare-mixed", role: "note" });
    var differ = differing(plan, ra, rb);
    warning.setAttribute("data-differ", differ.join(" "));
    warning.appendChild(el("p", {}, differ.length
      ? "These figures come from two runs that differ in " + differ.join(", ") + ". A ratio between them compares those as much as the filesystems."
      : "These figures come from two runs with the same machine, kernel, storage and profile. Days and what else the host did may differ, so a ratio between them compares the runs as much as the filesystems."));
    var list = el("ul");
    list.appendChild(systemItem(a, ra));
    list.appendChild(systemItem(b, rb));
    warning.appendChild(list);
    box.replaceChildren(warning, acrossTable(a, b, ra, rb, plan.why));
    return [ra.id, rb.id];
  }
  // The runs the reader last asked for across, kept until both pickers offer them: opening the
  // panel fires "toggle" a task later, and by then the pickers may still be empty (the view
  // the address asked for still loading), so they are refilled with what was asked, not the
  // first run of each (which made a shared address reopen on other runs).
  var askedAcross = [null, null];
  function offerAcross(a, b) {
    if (!across.open) return Promise.resolve();
    return pickRuns(a, b, runA.value || askedAcross[0], runB.value || askedAcross[1]).then(function () {}, function () {});
  }

  // Shows the pair the form names, in the run asked for (or the first by the site's run rule),
  // or across the two runs asked for; then keeps the choice in the address and marks the page
  // rendered.
  function render(run, twoRuns, then, how) {
    root.removeAttribute("data-rendered");
    var a = form.a.value, b = form.b.value;
    features(a, b);
    var shownRuns = a !== b && twoRuns ? acrossView(a, b, twoRuns[0], twoRuns[1])
      : figures(a, b, run).then(function () { return offerAcross(a, b); }).then(function () { return null; });
    return shownRuns.then(function (pair) {
      return showAlso(a, b).then(function () { return pair; });
    }).then(function (pair) {
      var url = new URL(location.href);
      url.searchParams.set("a", a);
      url.searchParams.set("b", b);
      ["run", "run_a", "run_b"].forEach(function (k) { url.searchParams.delete(k); });
      if (pair) { url.searchParams.set("run_a", pair[0]); url.searchParams.set("run_b", pair[1]); }
      else if (runSelect.value && !runSelect.disabled) url.searchParams.set("run", runSelect.value);
      // one history behaviour with the explorer: each change the reader makes is an entry
      // (Back shows the view before it), the first view and a view Back restored only keep
      // the address as it is shown
      if (how === "push" && url.href !== location.href) history.pushState(null, "", url);
      else history.replaceState(null, "", url);
      if (then) then();
      root.setAttribute("data-rendered", "1");
    });
  }

  // What the run picker shows, as the reader reads it: a run's id, or the option's words for the
  // table by the site's rule (whose value is no run's id).
  function shownRun() {
    if (runSelect.disabled || !runSelect.value) return "no run";
    var option = runSelect.options[runSelect.selectedIndex];
    return option && option.value.charAt(0) === "~" ? "the table " + option.textContent : "run " + runSelect.value;
  }
  // A shared address naming a filesystem this site lacks, or a run it lacks or that did not
  // measure that filesystem, is not swapped silently for another view: a notice above the form
  // names what was asked and what is shown instead (the address then names what is shown).
  function askedNotice(asked) {
    var a = form.a.value, b = form.b.value, single = runSelect.disabled ? "" : runSelect.value, wrong = [];
    // a parameter given more than once: the explorer's rule (the first value read, the others named)
    ["a", "b", "run", "run_a", "run_b"].forEach(function (k) {
      var twice = format.repeated(params, k);
      if (twice) wrong.push(twice);
    });
    [["a", a], ["b", b]].forEach(function (side) {
      if (asked[side[0]] !== null && asked[side[0]] !== side[1])
        wrong.push("the filesystem \u201c" + asked[side[0]] + "\u201d, which this site has not described; shown instead: " + side[1]);
    });
    if (a === b) {  // no run is shown for one filesystem against itself: say so of every run asked
      ["run", "run_a", "run_b"].forEach(function (k) {
        if (asked[k] !== null) wrong.push("run \u201c" + asked[k] + "\u201d, which is not shown: the page compares two different filesystems, and both are " + a);
      });
      return showNotice(wrong);
    }
    if (asked.run !== null && asked.run !== single)
      wrong.push([].concat(alsoOf(a, b).some(function (r) { return r.id === asked.run; })
        ? elsewhere(asked.run, "both " + a + " and " + b, (listed(a, b) || []).filter(function (r) { return !r.runs; }).length)
        : "run \u201c" + asked.run + "\u201d, which is not among the runs that measured both " + a + " and " + b,
        "; shown instead: " + shownRun()));
    // the pickers hold the run asked for where it measured that filesystem, else another
    [["run_a", a, runA.value], ["run_b", b, runB.value]].forEach(function (side) {
      var doc = sideDocs[side[1]] || { runs: [], also: [] };
      if (asked[side[0]] !== null && asked[side[0]] !== side[2])
        wrong.push([].concat((doc.also || []).some(function (r) { return r.id === asked[side[0]]; })
          ? elsewhere(asked[side[0]], side[1], doc.runs.length)
          : "run \u201c" + asked[side[0]] + "\u201d for " + side[1] + ", which is not among the runs that measured " + side[1],
          "; shown instead: " + (side[2] ? "run " + side[2] : "no run")));
    });
    showNotice(wrong);
  }
  function showNotice(wrong) {
    var old = document.getElementById("compare-notice");
    if (old) old.remove();
    if (!wrong.length) return;
    var notice = el("div", { "class": "warning", id: "compare-notice", role: "status" });
    notice.appendChild(el("p", {}, "The address asked for something this page does not show:"));
    var list = el("ul");
    wrong.forEach(function (w) {  // each its words, and a link where it names a result page
      var li = el("li");
      li.append.apply(li, [].concat(w, "."));
      list.appendChild(li);
    });
    notice.appendChild(list);
    form.parentNode.insertBefore(notice, form);
  }

  var params = new URLSearchParams(location.search), names = Object.keys(data.features);
  form.a.value = names.indexOf(params.get("a")) >= 0 ? params.get("a") : (names.indexOf("ext4") >= 0 ? "ext4" : names[0]);
  form.b.value = names.indexOf(params.get("b")) >= 0 ? params.get("b") : (names.indexOf("xfs") >= 0 ? "xfs" : names[1]);
  form.addEventListener("change", function () { render(null, null, null, "push"); });
  runSelect.addEventListener("change", function () { render(runSelect.value, null, null, "push"); });
  across.addEventListener("toggle", function () { offerAcross(form.a.value, form.b.value); });
  document.getElementById("compare-across-show").addEventListener("click", function () {
    render(null, [runA.value, runB.value], null, "push");
  });
  var asked = {};
  ["a", "b", "run", "run_a", "run_b"].forEach(function (k) { asked[k] = params.get(k) || null; });  // an empty value asks for nothing
  var notice = function () { askedNotice(asked); };
  // The view an address names (the first, and each one Back or Forward returns to).
  function open(query, then) {
    var p = new URLSearchParams(query);
    if (names.indexOf(p.get("a")) >= 0) form.a.value = p.get("a");
    if (names.indexOf(p.get("b")) >= 0) form.b.value = p.get("b");
    if (p.get("run_a") || p.get("run_b")) {
      across.open = true;
      return render(null, [p.get("run_a"), p.get("run_b")], then);
    }
    return render(p.get("run"), null, then);
  }
  window.addEventListener("popstate", function () {
    var old = document.getElementById("compare-notice");
    if (old) old.remove();  // it spoke of the address the page was opened with
    open(location.search);
  });
  open(location.search, notice);
})();
