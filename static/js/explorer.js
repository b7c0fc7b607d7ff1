// The results explorer. Python precomputes every statistic (explorer/data.json, the index,
// and explorer/rows/<result>.json, one chunk per result file, written by `fsatlas aggregate`;
// only the chunks of the selected results are fetched); this script only does what depends
// on the reader's choices: which
// cells to show, ratios to the baseline they pick, the geometric means of those ratios, and
// how to draw it. The whole view lives in the URL, so any view can be shared.
(function () {
  "use strict";
  var root = document.getElementById("explorer");
  if (!root) return;
  var form = document.getElementById("explorer-controls");
  var statusLine = root.querySelector(".explorer-status");
  var DISPLAY = window.fsatlasFormat.DISPLAY;  // static/js/format.js
  // What a view selects and draws, and its chart's spec: static/js/explorer-view.js, which the
  // build runs too (scripts/draw-charts.mjs draws the default view before any script).
  // Every lookup keyed by what a result file names is a table without a prototype (V.table).
  var V = window.fsatlasExplorerView, configOf = V.configOf, table = V.table, uniq = V.uniq;
  var model, data, loaded = table(), view = {};

  function status(text) { statusLine.textContent = text; }
  // A machine as the tables name it: its human name (results/machines.py name(), which every
  // result of data.json carries), the hash label as its id.
  function machineCell(name, label) {  // partials/results/machine.html's words: the label once where it is the name
    var td = el("td", {}, name === label ? label : name + " ");
    if (name !== label) td.appendChild(el("small", {}, "(" + label + ")"));
    return td;
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // static/js/format.js: a figure, and a count with its noun ("1 cell", "2 cells"), as every page writes them
  var significant = window.fsatlasFormat.significant, count = window.fsatlasFormat.count;
  // ?embed=1: the chart of a view alone, for an iframe (the embed code the explorer offers),
  // with a link back to the full explorer; no controls, summary or tables.
  var embedded = new URLSearchParams(location.search).get("embed") === "1";
  if (embedded) document.body.classList.add("embed", "explorer-embed");

  function json(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.json();
    });
  }
  function chunkOf(id) { return json(new URL("rows/" + encodeURIComponent(id) + ".json", new URL(root.dataset.src, location.href))); }
  // The chunks of the runs the address names (none: the default view's run, which the build
  // wrote into the page), fetched beside the index, not after it: the table waits for both (on
  // the adversary's slow link a shared view's table came 0.3 s sooner). Only names of the
  // runner's form (time stamp first): ?r=nope must not cost a 404 (a console error).
  var early = table(), named = new URLSearchParams(location.search).getAll("r").join(",");  // ?r=A&r=B: both
  if (!new URLSearchParams(location.search).has("r")) named = new URLSearchParams(root.dataset.defaultQuery || "").get("r");
  (named || "").split(",").map(function (id) { return id.trim(); }).filter(function (id) { return /^\d{8}T\d{6}Z-[\w.-]+$/.test(id); })
    .slice(0, 8).forEach(function (id) {
      early[id] = chunkOf(id);
      early[id].catch(function () {});  // said when load() uses it, if it does
    });

  json(root.dataset.src).then(init).catch(function (error) {
    status("Could not load the results: " + error.message);
    console.error("explorer: " + error);
  });

  function init(json) {
    model = V.model(json);
    data = model.data;
    var first = document.getElementById("explorer-first");
    if (!data.results.length) { status("No result files yet."); return; }
    readState(new URLSearchParams(location.search));
    // The view read is the default view (whatever the address's order, case, repetitions or
    // parameters the explorer does not read): the build's picture of it stays, and Vega waits
    // for the reader to ask (render()); its address is the default's. Any other view is not the
    // one drawn at build: the page's first script hid the picture before it was painted where
    // it could tell, and it goes here, before the address is rewritten below.
    if (model.isDefault(view)) {
      view = Object.assign(model.readState(new URLSearchParams()), { notices: view.notices, embed: view.embed });
      document.documentElement.classList.remove("explorer-view-asked");
    } else if (first) first.remove();
    history.replaceState(null, "", urlFor());
    // The chart first: with thousands of result files, their checkboxes take longer to build than
    // the chart takes to fetch and draw, and the chart needs only the view (from the URL).
    if (embedded) {
      var back = el("a", { href: urlFor().replace(/[?&]embed=1/, ""), target: "_top", "class": "explorer-open" }, "Open this view in the fsatlas explorer");
      root.querySelector(".explorer-status").after(back);
      show();
      return;
    }
    show().then(controls);
  }

  function controls() {
    buildControls();
    writeForm();
    form.hidden = false;
    // a change of a control asks for the interactive chart (Vega), as a click on the picture does
    form.addEventListener("change", function () { asked = true; readForm(); history.pushState(null, "", urlFor()); show(); });
    window.addEventListener("popstate", function () { asked = true; readState(new URLSearchParams(location.search)); writeForm(); show(); });
    form.querySelector("[data-download=csv]").addEventListener("click", function (e) { e.preventDefault(); download("csv"); });
    form.querySelector("[data-download=json]").addEventListener("click", function (e) { e.preventDefault(); download("json"); });
    form.querySelectorAll("[data-export]").forEach(function (button) {
      button.addEventListener("click", function (e) {
        e.preventDefault();
        var figure = document.getElementById("explorer-chart").closest("figure");
        if (!view.drawnValues) { status("Nothing drawn to save."); return; }
        figure.dataset.source = location.href;  // the link to this very view
        var charts = window.fsatlasCharts, spec = V.spec(view, view.drawnValues, view.drawnUnit, V.WIDE_COLUMNS);
        charts.ready().then(function () { return charts.exportAs(button.dataset.export, figure, spec, "fsatlas-view"); })
          .catch(function (error) { console.error("explorer export: " + error); });
      });
    });
    form.querySelector("[data-embed-code]").addEventListener("click", function (e) {
      e.preventDefault();
      var src = new URL(urlFor(), location.href);
      src.searchParams.set("embed", "1");
      var code = "<iframe src=\"" + src.href.replace(/&/g, "&amp;").replace(/"/g, "&quot;") + "\" width=\"100%\" height=\"560\" " +
        "title=\"fsatlas explorer\" loading=\"lazy\"></iframe>";
      var box = document.getElementById("explorer-embed-code");
      box.hidden = false;
      box.value = code;
      box.select();
      if (navigator.clipboard) navigator.clipboard.writeText(code).catch(function () {});
      status("The embed code is below the buttons" + (navigator.clipboard ? " and on the clipboard." : "."));
    });
    form.querySelector("[data-share]").addEventListener("click", function (e) {
      e.preventDefault();
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(function () {});
      status("The link to this view is in the address bar" + (navigator.clipboard ? " and on the clipboard." : "."));
    });
  }

  // The rows of each selected result, fetched once; then the view is drawn.
  function show() {
    // render() draws the figures at once; the chart follows when Vega is there (not awaited)
    return Promise.all(view.results.map(load)).then(function () { render(); }).catch(function (error) {
      status("Could not load the results: " + error.message);
      console.error("explorer: " + error);
    });
  }

  function load(id) {
    if (!loaded[id]) {
      loaded[id] = (early[id] || chunkOf(id)).then(function (chunk) { model.add(id, chunk); });
    }
    return loaded[id];
  }

  // --- controls and state ------------------------------------------------------------------

  function choices(field, values, labels) {
    var box = form.querySelector("[data-field=" + field + "]");
    box.textContent = "";
    values.forEach(function (value, i) {
      var label = el("label");
      var input = el("input", { type: "checkbox", name: field, value: value });
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + (labels ? labels[i] : value)));
      box.appendChild(label);
    });
  }

  function buildControls() {
    choices("results", data.results.map(function (r) { return r.id; }),
            data.results.map(function (r) { return V.shownMachine(r) + " · " + r.profile + " · " + r.created.slice(0, 10) + (r.complete ? "" : " (interrupted)"); }));
    choices("fs", data.vocabulary.filesystems);
    choices("variant", data.vocabulary.variants);
    choices("workload", data.vocabulary.workloads);
    var metricSelect = form.elements.metric;
    data.metrics.map(function (m) { return m.name; }).sort().forEach(function (name) {
      var label = model.metricLabel(name);
      metricSelect.appendChild(el("option", { value: name, "data-label": label + (label === name ? "" : " (" + name + ")") }));
    });
    markMetrics();
    var baseSelect = form.elements.baseline;
    model.configNames.slice().sort().forEach(function (cfg) { baseSelect.appendChild(el("option", { value: cfg }, cfg)); });
  }

  // The metric picker in words, each metric none of the chosen runs measured marked so (their
  // chunks are in when a view is rendered).
  function markMetrics() {
    Array.prototype.forEach.call(form.elements.metric.options, function (option) {
      var missing = !model.measured(view, option.value);
      option.textContent = option.dataset.label + (missing ? " \u2014 not measured in the runs chosen" : "");
      option.classList.toggle("unmeasured", missing);
    });
  }

  function readState(params) { view = model.readState(params); }

  function readForm() {
    view.notices = [];  // the form offers only what the site has
    ["results", "fs", "variant", "workload"].forEach(function (field) {
      view[field] = Array.prototype.filter.call(form.querySelectorAll("input[name=" + field + "]"), function (b) { return b.checked; })
        .map(function (b) { return b.value; });
    });
    view.metric = form.elements.metric.value;
    view.mode = form.elements.mode.value;
    view.baseline = form.elements.baseline.value;
    view.axis = form.elements.axis.value;
    view.cpu = form.elements.cpu.checked;
  }

  function writeForm() {
    ["results", "fs", "variant", "workload"].forEach(function (field) {
      form.querySelectorAll("input[name=" + field + "]").forEach(function (b) { b.checked = view[field].indexOf(b.value) >= 0; });
    });
    form.elements.metric.value = view.metric;
    form.elements.mode.value = view.mode;
    form.elements.baseline.value = view.baseline;
    form.elements.axis.value = view.axis;
    form.elements.cpu.checked = view.cpu;
    form.elements.baseline.disabled = false;
  }

  function urlFor() {
    return location.pathname + "?" + model.query(view) + (embedded ? "&embed=1" : "");
  }

  // --- the selection and what the reader's choices make of it --------------------------------

  function selected(metricName) { return model.selected(view, metricName); }

  function geomeans(metricName, sel) {
    // Per configuration (and machine): the geometric mean of its ratios to the baseline over the
    // selected workloads; a cell without a measurement on either side is counted as missing.
    var base = model.baselineIndex(view, metricName), groups = table();
    var wanted = uniq(sel.rows.map(function (x) { return x.key.workload + "|" + x.key.dims; })
      .concat(sel.missing.map(function (x) { return x.key.workload + "|" + x.key.dims; })));
    sel.rows.forEach(function (x) {
      var g = configOf(x.key) + " on " + V.shownMachine(x.result) + " (" + x.result.id + ")";
      groups[g] = groups[g] || { config: configOf(x.key), result: x.result.id, logs: [], seen: table(), better: x.metric.better };
      var b = base[x.result.id + "|" + x.key.workload + "|" + x.key.dims];
      if (b && b.mean && x.mean > 0) { groups[g].logs.push(Math.log(x.mean / b.mean)); groups[g].seen[x.key.workload + "|" + x.key.dims] = 1; }
    });
    return Object.keys(groups).sort().map(function (g) {
      var grp = groups[g], logs = grp.logs;
      var mean = logs.length ? Math.exp(logs.reduce(function (a, b) { return a + b; }, 0) / logs.length) : null;
      return { label: g, config: grp.config, result: grp.result, geomean: mean, cells: logs.length,
               missing: wanted.filter(function (w) { return !grp.seen[w]; }).length, better: grp.better };
    });
  }

  // The compare page's rows (site/pairs.py wrote the tables, escaped; the explorer only reads
  // them: "b / a = 0.752× (0.69–0.82), adjusted p 0.012, b worse"). Each pair's file fetched and its tables parsed once, into what a cell's details say of each
  // row: "own|run|key|metric" (the run's own table, its rows adjusted together, as /compare/?run=
  // shows them) and "rule|run|key|metric" (the table by the site's rule, each row naming its run).
  // A hover reads the index; it parsed every table of the pair again before.
  var pairFiles = Object.create(null);
  function pairIndex(a, b) {
    var name = a + "--" + b;
    pairFiles[name] = pairFiles[name] || fetch(root.dataset.compare + name + ".json").then(function (r) {
      return r.ok ? r.json() : { runs: [] };
    }).catch(function () { return { runs: [] }; }).then(function (pair) {
      var said = Object.create(null);
      (pair.runs || []).forEach(function (run) {
        var rows = new DOMParser().parseFromString(run.table, "text/html").querySelectorAll("tbody tr");
        Array.prototype.forEach.call(rows, function (tr) {
          var cells = tr.querySelectorAll("td");  // measure, n, a, b, ratio, adjusted p, verdict (pairs.table_html)
          var verdict = cells[6].querySelector("summary");
          var at = (tr.getAttribute("data-run") ? "rule|" + tr.getAttribute("data-run") : "own|" + run.id) + "|" +
            tr.getAttribute("data-key") + "|" + tr.getAttribute("data-metric");
          said[at] = said[at] || "tested on the compare page: " + b + " / " + a + " = " + cells[4].textContent +
            ", adjusted p " + cells[5].textContent + ", " + (verdict ? verdict.textContent : cells[6].textContent);
        });
      });
      return said;
    });
    return pairFiles[name];
  }
  // The compare page's row for one cell against the baseline in its run, or "" where the pair's
  // file holds no table of this run (beyond its first runs) or no row of this metric (an iops row
  // that repeats throughput is not compared).
  function testedRow(a, p, metric) {
    var at = "|" + p.result + "|" + p.workload + (p.dims ? "|" + p.dims : "") + "|" + metric;
    return pairIndex(a, p.filesystem).then(function (said) { return said["own" + at] || said["rule" + at] || ""; });
  }

  // --- drawing ---------------------------------------------------------------------------

  // As many small multiples a row as the page's width holds (one on a phone): a panel takes
  // about 300 px with its axis.
  function panelColumns(most) {
    var width = (document.getElementById("explorer") || document.body).clientWidth || window.innerWidth;
    return Math.max(1, Math.min(most, Math.floor(width / 300)));
  }

  // The details of one mark, in a box that stays pinned to the bottom of the screen while it
  // shows something (so it is in view beside the mark hovered, tapped or focused) until closed.
  function showDetails(p) {
    var box = document.getElementById("explorer-details");
    box.textContent = "";
    box.classList.toggle("pinned", !!p);
    if (!p) return;
    var close = el("button", { type: "button", "class": "details-close", "aria-label": "Close the details" }, "\u00d7");
    close.addEventListener("click", function () { showDetails(null); });
    box.appendChild(close);
    box.appendChild(el("h3", {}, p.config + ": " + p.panel));
    var dl = el("dl", { "class": "facts" });
    function row(term, value) { dl.appendChild(el("dt", {}, term)); dl.appendChild(el("dd", {}, value)); }
    var display = DISPLAY[p.unit] || { factor: 1, unit: p.unit };
    row("Mean", significant(p.mean * display.factor) + " " + display.unit + (p.value !== null && view.mode !== "abs" ? " (shown as " + significant(p.value) + ", " + p.unitLabel + ")" : ""));
    if (p.loRaw !== null && p.loRaw !== undefined) {
      row("95 % CI", significant(p.loRaw * display.factor) + "–" + significant(p.hiRaw * display.factor) + " " + display.unit);
    }
    row("Samples", p.samplesRaw.map(function (s) { return significant(s * display.factor); }).join(", ") + " " + display.unit);
    // no RSD: one sample (no interval either), or a mean of zero, of which no spread is a percent
    row("Spread", (p.n === 1 ? data.words.no_interval : "RSD " + (p.rsd === null ? data.words.no_rsd : window.fsatlasFormat.rsd(p.rsd)) +
      ", " + count(p.n, "repetition")) + (p.flags ? "; flags: " + p.flags.split(",").join(", ") : ""));
    // the result page's system table in its words ([term, text] pairs: results/machines.py
    // system_facts()), the machine with the same note on labels (layouts/partials/results/twins-note.html)
    JSON.parse(p.systemTable).forEach(function (fact) {
      row(fact[0], fact[1]);
      if (fact[0] !== "Machine") return;
      dl.lastChild.appendChild(document.createTextNode(" · "));
      dl.lastChild.appendChild(document.getElementById("explorer-twins-note").content.firstElementChild.cloneNode(true));
    });
    row("Host meanwhile", p.host);
    // a baseline that is a filesystem's defaults (no variant in its name): the compare page has the pair
    if (view.mode === "ratio" && view.baseline && view.baseline.indexOf(" ") < 0 && p.filesystem !== view.baseline && p.variant === "defaults") {
      // the figure shown is a change of unit; the tested ratio (the comparison module's) is on the
      // compare page, same run: its row, word for word, where the pair's file holds this run
      var tested = el("dd"), url = new URL(root.dataset.compare, location.href);
      url.searchParams.set("a", view.baseline);
      url.searchParams.set("b", p.filesystem);
      url.searchParams.set("run", p.result);
      tested.appendChild(el("a", { href: url.pathname + url.search }, p.filesystem + " against " + view.baseline + ", tested, in this run"));
      dl.appendChild(el("dt", {}, "Is it a difference?"));
      dl.appendChild(tested);
      testedRow(view.baseline, p, view.metric).then(function (said) {
        if (said && tested.isConnected) tested.insertBefore(document.createTextNode(said + " · "), tested.firstChild);
      });
    }
    row("Tools", p.tools);
    row("Cell", p.key);
    dl.appendChild(el("dt", {}, "Result"));
    var links = el("dd");
    links.appendChild(el("a", { href: root.dataset.results + p.result + "/" }, "result page"));
    links.appendChild(document.createTextNode(" · "));
    links.appendChild(el("a", { href: root.dataset.files + p.result + ".json" }, p.result + ".json"));
    dl.appendChild(links);
    dl.appendChild(el("dt", {}, "Re-run it"));
    var cmd = el("dd");
    if (p.command) cmd.appendChild(el("code", { "class": "command" }, p.command));
    else cmd.appendChild(document.createTextNode("imported from another tool's output: run that tool here, then fsatlas import"));
    dl.appendChild(cmd);
    box.appendChild(dl);
  }

  function detailsOf(event, item) {  // hover (vega's tooltip hook) and click or tap on a mark
    if (item && item.datum && item.datum.config) showDetails(item.datum);
  }
  function tooltipHandler(handler, event, item) { detailsOf(event, item); }

  var drawn = null, drawnCpu = null;
  var asked = false;  // the reader asked for the interactive chart (drawChart)
  function render() {
    var drawing_ = model.chart(view), sel = drawing_.sel, all = drawing_.all, limited = drawing_.limited;
    var shown = drawing_.shown, unitLabel = drawing_.unitLabel;
    var lost = all.filter(function (p) { return p.value === null; }).length;
    var cells = shown.filter(function (p) { return !p.beside; }).length;  // the latency beside a sweep's: the same cells
    // the runs this view shows, by name: the run note above (the default view's) is shown only
    // with the default view, so that a shared address never reads as the default run's
    var note = document.getElementById("explorer-run-note");
    // (the page's class hides it before paint on an address naming another view; not added here,
    // where it would hide the build's picture while the chart it gives way to is drawn)
    var other = !model.isDefault(view);
    if (!other) document.documentElement.classList.remove("explorer-view-asked");
    if (note) note.hidden = other;
    status((view.notices || []).map(function (n) { return n + " "; }).join("") + runsShown() + ": " +
           count(cells, "cell") + " drawn" + (lost ? ", " + lost + " without a " + (view.mode === "share" ? "raw-device baseline" : "baseline cell") + " (not drawn" +
             (view.mode === "ratio" ? "; baselines their runs measured: " + model.baselinesOf(view, uniq(all.filter(function (p) { return p.value === null; })
               .map(function (p) { return p.result; }))).join(", ") : "") + ")" : "") +
           (limited.panels > V.MAX_PANELS ? ", the first " + V.MAX_PANELS + " of " + limited.panels.toLocaleString("en") +
            " panels (every cell is in the table; pick fewer workloads to draw others)" : "") +
           (sel.missing.length ? ", " + sel.missing.length + " skipped or failed (listed in the table)" : "") + ".");
    var caption = document.getElementById("explorer-caption");
    var empty = shown.length ? "" : model.emptyReason(view);
    caption.textContent = empty ? "Nothing drawn of " + model.metricLabel(view.metric) + ": " + empty + "." : V.caption(view, unitLabel);
    caption.closest("figure").dataset.caption = caption.textContent;
    renderCpu();
    renderTable(all, sel.missing, empty);
    markMetrics();
    renderSummary(sel);
    view.lastPoints = all;
    view.drawnValues = shown.length ? shown : null;
    view.drawnUnit = unitLabel;
    // the figures are on the page: the table, its caption and the status need no Vega
    root.dataset.shown = String(Date.now());
    // The default view as the build drew it (scripts/draw-charts.mjs), from the same values and
    // spec, stays until the reader asks for the interactive chart: a click or tap on it, its
    // Explore button or a change of a control; Vega (820 KiB) loads only then.
    var first = document.getElementById("explorer-first");
    if (first && !asked) { offerExplore(first); return Promise.resolve(); }
    return drawChart(shown, unitLabel);
  }

  // "This chart shows the run <id> (<machine>, <profile> profile, <day>)", or "… 2 runs: …".
  function runsShown() {
    var runs = view.results.map(function (id) {
      var r = model.byId[id];
      return id + " (" + r.name + ", " + r.profile + " profile, " + r.created.slice(0, 10) + ")";
    });
    return "This chart shows " + (runs.length === 1 ? "the run " + runs[0] : count(runs.length, "run") + ": " + runs.join("; "));
  }

  var offer = null;  // the Explore button's bar, while the picture waits for the reader
  function offerExplore(first) {
    if (offer) return;
    var bar = offer = el("div", { "class": "chart-actions" });
    var explore = el("button", { type: "button", "class": "chart-explore", "aria-label": "Explore (details on hover or tap): the chart of this view" }, "Explore");
    bar.appendChild(explore);
    var figure = first.closest("figure");
    figure.insertBefore(bar, figure.querySelector("figcaption"));
    window.fsatlasCharts.whenAsked(first, explore, function () {
      asked = true;
      drawChart(view.drawnValues || [], view.drawnUnit);
    });
  }

  // The interactive chart of the view's values, once Vega is there; the build's picture, if
  // still on screen, stays while it is drawn out of sight, then gives way.
  function drawChart(shown, unitLabel) {
    var first = document.getElementById("explorer-first");
    if (offer) offer.remove();
    if (drawn) drawn.finalize();
    var target = document.getElementById("explorer-chart");
    if (first) target.hidden = true;
    var charts = window.fsatlasCharts;  // on screen: its colours from the page's CSS, light or dark
    var spec = shown.length && V.spec(view, shown, unitLabel, panelColumns(V.WIDE_COLUMNS));
    var done = shown.length ? charts.ready().then(function () {
      return vegaEmbed(target, charts.inked(spec, true), { renderer: "svg", actions: false, tooltip: tooltipHandler });
    })
      : Promise.resolve(null).then(function () { target.textContent = "Nothing to draw for this selection."; return null; });
    var drawing = done.then(function (result) {
      if (first) {  // a keyboard's focus on the picture (Explore moved it there) stays on the chart it asked for
        var focused = first.contains(document.activeElement);
        first.remove();
        target.hidden = false;
        if (focused) { target.setAttribute("tabindex", "-1"); target.focus({ preventScroll: true }); }
      }
      drawn = result;
      if (result) result.view.addEventListener("click", detailsOf);
      target.closest("figure").classList.add("chart-drawn");
      root.dataset.rendered = String(Date.now());
    }).catch(function (error) { console.error("explorer chart: " + error); });
    return drawing;
  }

  function renderCpu() {
    var figure = document.getElementById("explorer-cpu-figure");
    figure.hidden = !view.cpu;
    if (drawnCpu) { drawnCpu.finalize(); drawnCpu = null; }
    if (!view.cpu) return;
    var values = [];
    ["cpu_usr_pct", "cpu_sys_pct"].forEach(function (name) {
      selected(name).rows.forEach(function (x) {
        values.push({ config: configOf(x.key), panel: x.key.workload + (x.key.dims ? " " + x.key.dims : ""), part: name === "cpu_usr_pct" ? "user" : "system", value: x.mean, machine: x.result.name });
      });
    });
    var charts = window.fsatlasCharts;
    charts.ready().then(function () { return vegaEmbed(document.getElementById("explorer-cpu"), charts.inked({
      data: { values: V.drawable(values, "panel").values }, facet: { field: "panel", type: "nominal", title: null }, columns: panelColumns(3),
      spec: { width: { step: 26 }, height: 120, mark: { type: "bar", tooltip: true },
              encoding: { x: { field: "config", type: "nominal", title: null, axis: { labelAngle: -40 } },
                          y: { field: "value", type: "quantitative", title: "% of one CPU", stack: true, format: V.FIGURE },
                          color: { field: "part", type: "nominal", title: null, legend: { orient: "bottom" } } } }
    }, true), { renderer: "svg", actions: false });
    }).then(function (r) { drawnCpu = r; })
      .catch(function (error) { console.error("explorer cpu chart: " + error); });
  }

  function renderTable(points_, missed, empty) {
    var box = document.getElementById("explorer-table");
    box.textContent = "";
    var table = el("table", { "class": "data-table" });
    var head = el("tr");
    // in units of a baseline's mean, the interval is still the cell's own (explorer-view caption())
    ["Workload", "Filesystem", "Variant", "Machine", "Value", view.mode === "ratio" ? "The cell's 95 % CI" : "95 % CI", "RSD", "n", "Flags", "Result"].forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    points_.slice().sort(function (a, b) { return (a.panel + a.config).localeCompare(b.panel + b.config); }).forEach(function (p) {
      var tr = el("tr", { tabindex: "0" });
      tr.appendChild(el("td", {}, p.panel));
      tr.appendChild(el("td", {}, p.filesystem));
      tr.appendChild(el("td", {}, p.variant));
      tr.appendChild(machineCell(p.machineName, p.machine));
      tr.appendChild(el("td", { "class": "num", title: p.value === null ? "" : String(p.value) }, p.value === null ? "no baseline" : significant(p.value)));
      tr.appendChild(el("td", { "class": "num" }, p.value === null ? "" : p.lo === null ? data.words.no_interval : significant(p.lo) + "–" + significant(p.hi)));
      tr.appendChild(el("td", { "class": "num" }, p.rsd === null ? data.words.no_rsd : window.fsatlasFormat.rsd(p.rsd)));
      tr.appendChild(el("td", { "class": "num" }, String(p.n)));
      tr.appendChild(el("td", {}, p.flags));
      var link = el("td");
      link.appendChild(el("a", { href: root.dataset.results + p.result + "/" }, p.result));
      tr.appendChild(link);
      tr.addEventListener("focus", function () { showDetails(p); });
      body.appendChild(tr);
    });
    missed.forEach(function (m) {
      var tr = el("tr", { "class": "missing" });
      tr.appendChild(el("td", {}, m.key.workload + (m.key.dims ? " " + m.key.dims : "")));
      tr.appendChild(el("td", {}, m.key.filesystem));
      tr.appendChild(el("td", {}, m.key.variant));
      tr.appendChild(machineCell(m.result.name, m.result.machine));
      tr.appendChild(el("td", { colspan: "5" }, m.status + ": " + m.reason));
      var link = el("td");
      link.appendChild(el("a", { href: root.dataset.results + m.result.id + "/" }, m.result.id));
      tr.appendChild(link);
      body.appendChild(tr);
    });
    var unitLabel = (points_[0] || {}).unitLabel;
    table.insertBefore(el("caption", {}, !points_.length && empty ? "No figures of " + model.metricLabel(view.metric) + ": " + empty + "." :
      (view.mode === "abs" ? model.metricLabel(view.metric) + (unitLabel ? " (" + unitLabel + ")" : "") : unitLabel || "") + ": the numbers of the chart above."), table.firstChild);
    box.appendChild(table);
  }

  function renderSummary(sel) {
    var box = document.getElementById("explorer-summary");
    box.textContent = "";
    var list_ = geomeans(view.metric, sel);
    if (!list_.length) return;
    var better = list_[0].better === "higher" ? "above 1 is better" : "below 1 is better";
    var summary = el("p", {}, "Geometric mean of each configuration's means divided by " + view.baseline + "'s over the selected workloads (" + better +
      "); cells without a measurement on either side are counted as missing, never as zero. These ratios are not tested: for a difference " +
      "judged with its interval and a p-value corrected for the number of comparisons, see the ");
    summary.appendChild(el("a", { href: document.getElementById("explorer").dataset.compare }, "compare page"));
    summary.appendChild(document.createTextNode("."));
    box.appendChild(summary);
    var table = el("table", { "class": "data-table summary", tabindex: "0" });
    var head = el("tr");
    ["Configuration", "Geometric mean", "Cells", "Missing"].forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    list_.forEach(function (g) {
      var tr = el("tr");
      tr.appendChild(el("td", {}, g.label));
      tr.appendChild(el("td", { "class": "num" }, g.geomean === null ? "missing" : significant(g.geomean)));
      tr.appendChild(el("td", { "class": "num" }, String(g.cells)));
      tr.appendChild(el("td", { "class": "num" }, String(g.missing)));
      body.appendChild(tr);
    });
    box.appendChild(table);
  }

  function download(kind) {
    var fields = ["result", "machine", "machine_name", "kernel", "key", "filesystem", "variant", "workload", "dims", "metric", "unit", "mean", "value", "value_unit", "ci_low", "ci_high", "n", "rsd_pct", "flags", "samples", "host"];
    var records = (view.lastPoints || []).map(function (p) {
      return { result: p.result, machine: p.machine, machine_name: p.machineName, kernel: p.kernel, key: p.key, filesystem: p.filesystem, variant: p.variant,
               workload: p.workload, dims: p.dims, metric: view.metric, unit: p.unit, mean: p.mean, value: p.value,
               value_unit: p.unitLabel || "", ci_low: p.lo === undefined ? null : p.lo, ci_high: p.hi === undefined ? null : p.hi,
               n: p.n, rsd_pct: p.rsd, flags: p.flags, samples: p.samplesRaw.join(";"), host: p.host };
    });
    var text, type;
    if (kind === "json") { text = JSON.stringify({ view: location.href, rows: records }, null, 1); type = "application/json"; }
    else {
      var quote = function (v) {
        // Text a spreadsheet would run as a formula (tab or CR first, or =+-@ or a character
        // whose NFKC form is one after white space, control and invisible characters) gets a
        // leading apostrophe (OWASP's advice for CSV injection); numbers stay numbers. The rule
        // and this pattern are export.py's formula_pattern("js"), written here from it.
        var text = v === null || v === undefined ? "" : String(v);
        if (typeof v === "string" && /^(?:[\t\r]|[\u0000-\u0020\u007f-\u00a0\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff\ufff9-\ufffb\u{110bd}\u{110cd}\u{13430}-\u{13438}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0001}\u{e0020}-\u{e007f}]*[\u002b\u002d\u003d\u0040\u207a\u207c\u208a\u208c\u2a75-\u2a76\ufb29\ufe62-\ufe63\ufe66\ufe6b\uff0b\uff0d\uff1d\uff20])/u.test(text)) text = "'" + text;
        return /[",\n\r]/.test(text) ? "\"" + text.replace(/"/g, "\"\"") + "\"" : text;
      };
      text = [fields.join(",")].concat(records.map(function (r) { return fields.map(function (f) { return quote(r[f]); }).join(","); })).join("\n") + "\n";
      type = "text/csv";
    }
    var a = el("a", { href: URL.createObjectURL(new Blob([text], { type: type })), download: "fsatlas-view." + kind });
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }
})();
