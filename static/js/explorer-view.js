// What the explorer draws for a view: its data decoded, the cells a view selects, the points
// they make (absolute figures, ratios to a baseline, shares of the raw device) and the Vega-Lite
// spec of the chart. One module for the browser (static/js/explorer.js, window.fsatlasExplorerView)
// and for the build (scripts/draw-charts.mjs, which draws the default view to SVG in Node), so
// the picture a reader sees before any script and the chart the explorer then draws are made
// by the same code from the same values. Nothing here touches the page.
(function (root, make) {
  if (typeof module === "object" && module.exports) module.exports = make(require("./format.js"), require("./chart-spec.js"), require("./explorer-address.js"));
  else root.fsatlasExplorerView = make(root.fsatlasFormat, root.fsatlasChartSpec, root.fsatlasExplorerAddress);
})(this, function (format, chartSpec, address) {
  "use strict";
  var DISPLAY = format.DISPLAY;
  // Every lookup keyed by what a result file names (an id, a filesystem, a key, a metric) is a
  // table without a prototype: in {}, a filesystem or result named "constructor" was found
  // before it was put there (Object's own), and left out of the baseline list.
  function table() { return Object.create(null); }
  function uniq(list) { var seen = table(); return list.filter(function (x) { return seen[x] ? false : (seen[x] = true); }); }
  var named = format.named;
  // The ratio mode's unit: a figure divided by the baseline's mean (points(), caption()).
  function inUnitsOf(baseline) { return "\u00d7 " + baseline + "'s mean"; }
  // A machine as readers see it: its name, its label after it in brackets, or the label alone
  // where it is its name (results/machines.py shown(), partials/results/machine.html).
  function shownMachine(result) { return result.name === result.machine ? result.machine : result.name + " (" + result.machine + ")"; }
  function configOf(key) { return key.filesystem + (key.variant === "defaults" ? "" : " " + key.variant); }

  // The explorer's data: json is explorer/data.json (the index); add() takes the chunk of one
  // result (explorer/rows/<id>.json). Both are `fsatlas aggregate`'s (runner/fsatlas/site/explorer.py).
  function model(json) {
    var data = json, rows = [], missing = [], byId = table(), keyByName = table(), metricByName = table();
    var c = data.results, s = data.strings;
    data.results = c.id.map(function (id, i) {
      var r = { id: id, created: c.created[i], complete: c.complete[i] };
      ["machine", "kernel", "profile", "target", "virtualization", "cpu", "tools", "rerun", "name", "system_table"].forEach(function (f) { r[f] = s[c[f][i]]; });
      byId[id] = r;
      return r;
    });
    data.keys.forEach(function (k) { keyByName[k.key] = k; });
    // the filters' choices, of every result (a key outside the matrix is described only in its chunk)
    var configNames = uniq(data.vocabulary.configs.map(function (c) { return configOf({ filesystem: c[0], variant: c[1] }); }));
    data.metrics.forEach(function (m) { metricByName[m.name] = m; });

    var measures = table();  // result id -> the metrics its rows hold (a table), once its chunk is in
    function add(id, chunk) {
      // a chunk names its own cell keys and metrics; the index describes them, or for a key
      // outside the matrix the chunk itself does
      var result = byId[id], c = chunk.rows, m = chunk.missing;
      measures[id] = table();
      chunk.metrics.forEach(function (name) { measures[id][name] = 1; });
      var keys = chunk.keys.map(function (k) { return keyByName[k] || chunk.described[k]; });
      var metrics = chunk.metrics.map(function (name) { return metricByName[name]; });
      c.k.forEach(function (k, i) {
        rows.push({ result: result, key: keys[k], metric: metrics[c.m[i]], mean: c.mean[i], lo: c.lo[i],
                    hi: c.hi[i], n: c.n[i], rsd: c.rsd[i], flags: c.flags[i], share: c.share[i], samples: c.samples[i],
                    host: (chunk.contention || [])[k] || "not recorded" });
      });
      m.k.forEach(function (k, i) {
        missing.push({ result: result, key: keys[k], status: m.status[i], reason: m.reason[i] });
      });
    }

    // The first view's run: the one the site's run rule gives the home page (aggregate wrote it).
    function defaultRun() {
      return byId[data["default"]] ? data["default"] : data.results[data.results.length - 1].id;
    }

    // How a parameter is read (static/js/explorer-address.js, which the page's first script shares)
    var value = address.value, list = address.list, known = address.known, PARAMETERS = address.PARAMETERS;

    // The view an address's query names (params: its URLSearchParams); none: the default view.
    // Every parameter the explorer reads (r, fs, v, w, metric, mode, base, axis, cpu, embed) is
    // checked against what this site has: a value it does not know (empty, blank, misspelt) is
    // named in view.notices and the parameter's default is shown in its place; the address is
    // then rewritten (explorer.js) to the view shown.
    function readState(params) {
      var notices = [];
      // a parameter it does not read (?R=, ?foo=) is named, with the one it reads in another case
      uniq(Array.from(params.keys())).filter(function (name) { return PARAMETERS.indexOf(name) < 0; }).forEach(function (name) {
        var meant = PARAMETERS.filter(function (p) { return p === name.toLowerCase(); })[0];
        notices.push("The explorer does not read the parameter " + named(name) + " in the address" +
                     (meant ? " (its parameters are in lower case: " + meant + "=)" : "") + "; it is left out.");
      });
      var asked = list(params, "r", [defaultRun()]);
      var runs = known.bind(null, byId);
      var results = uniq(asked.map(runs).filter(Boolean));
      if (!results.length) results = [defaultRun()];
      var unknownRuns = asked.filter(function (id) { return !runs(id); });
      // an address naming no result (?r=nope, or ?r= with no id at all) opens the default in its place, and says so
      if (value(params, "r") !== null && !asked.length) notices.push("The address names no run (r= is empty); showing " + results.join(", ") + ".");
      if (unknownRuns.length) notices.push("No result named " + unknownRuns.join(", ") + " on this site; showing " + results.join(", ") + ".");
      // an import's cells are its tool's, variant "imported": a run named alone shows them
      var imports = results.some(function (id) { return byId[id].rerun === ""; });
      var configs = table();
      configNames.forEach(function (c) { configs[c] = 1; });
      var defaultBase = configs.ext4 ? "ext4" : configNames[0];
      // one value of a closed set: param's value if the set has it, else its default (said)
      function one(param, what, allowed, fallback, shownAs) {
        var v = params.get(param), twice = format.repeated(params, param);
        if (v === null) return fallback;
        // given twice with different values (?mode=abs&mode=ratio): the first is read, the others named
        if (twice) notices.push(twice + ".");
        var name = known(allowed, v);
        if (name !== undefined) return name;
        notices.push("No " + what + " named " + named(v) + " here; " + (shownAs || "showing " + fallback) + ".");
        return fallback;
      }
      // a comma-separated list of a closed set: the values it knows; none known, its default
      function several(param, what, words, fallback, everything) {
        var v = value(params, param);
        if (v === null) return fallback;
        var allowed = table();
        words.forEach(function (w) { allowed[w] = 1; });
        var got = list(params, param, []), good = got.map(known.bind(null, allowed)).filter(Boolean);
        var bad = got.filter(function (w) { return known(allowed, w) === undefined; });
        var shown = good.length ? good : fallback;
        var showing = good.length ? "showing the others" : "showing " + (fallback.length === words.length ? everything : fallback.join(", "));
        if (!got.length) notices.push("The address names no " + what + " (" + param + "= is " + (v ? "blank" : "empty") + "); " + showing + ".");
        else if (bad.length) notices.push("No " + what + " named " + bad.map(named).join(", ") + " here; " + showing + ".");
        return uniq(shown);
      }
      // "imported": the variant of every import's cells, a word of the site's where it has one
      var variants = data.vocabulary.variants.concat(data.results.some(function (r) { return r.rerun === ""; }) ? ["imported"] : []);
      var view = {
        results: results,
        fs: several("fs", "filesystem", data.vocabulary.filesystems, data.vocabulary.filesystems, "every filesystem"),
        variant: several("v", "option variant", variants, imports ? ["defaults", "imported"] : ["defaults"]),
        workload: several("w", "workload", data.vocabulary.workloads, data.vocabulary.workloads, "every workload"),
        metric: one("metric", "metric", metricByName, "throughput"),
        mode: one("mode", "way to show the figures (mode)", { abs: 1, ratio: 1, share: 1 }, "abs", "showing absolute figures"),
        baseline: one("base", "configuration", configs, defaultBase, "the baseline is " + defaultBase),
        axis: one("axis", "axis", { workload: 1, dims: 1 }, "workload", "across workloads"),
        cpu: one("cpu", "CPU setting", { "1": 1, "0": 1 }, "0", "CPU load not shown") === "1",
        embed: one("embed", "embed setting", { "1": 1, "0": 1 }, "0", "the full explorer") === "1"
      };
      view.notices = notices;
      return view;
    }

    // The query of a view's address (explorer.js adds embed=1 to an embedded one).
    function query(view) {
      var p = new URLSearchParams();
      p.set("r", view.results.join(","));
      p.set("fs", view.fs.join(","));
      p.set("v", view.variant.join(","));
      p.set("w", view.workload.join(","));
      p.set("metric", view.metric);
      p.set("mode", view.mode);
      p.set("base", view.baseline);
      p.set("axis", view.axis);
      if (view.cpu) p.set("cpu", "1");
      return p.toString();
    }

    // Whether a view is the default view (an address with no query), whatever order its lists
    // are in (a chart sorts its filesystems and workloads): the one the build drew
    // (scripts/draw-charts.mjs), which the explorer then shows, loading no Vega until asked.
    function isDefault(view) {
      function sorted(v) {
        var copy = Object.assign({}, v);
        ["results", "fs", "variant", "workload"].forEach(function (f) { copy[f] = v[f].slice().sort(); });
        return query(copy);
      }
      return sorted(view) === sorted(readState(new URLSearchParams()));
    }

    function selected(view, metricName) {
      var r = table(), f = table(), v = table(), w = table();
      view.results.forEach(function (x) { r[x] = 1; });
      view.fs.forEach(function (x) { f[x] = 1; });
      view.variant.forEach(function (x) { v[x] = 1; });
      view.workload.forEach(function (x) { w[x] = 1; });
      function keep(x) {
        return r[x.result.id] && f[x.key.filesystem] && v[x.key.variant] && w[x.key.workload] &&
          (view.axis !== "dims" || x.key.dims);
      }
      return { rows: rows.filter(function (x) { return keep(x) && x.metric.name === metricName; }), missing: missing.filter(keep) };
    }

    function baselineIndex(view, metricName) {
      var index = table();
      rows.forEach(function (x) {
        if (x.metric.name === metricName && configOf(x.key) === view.baseline)
          index[x.result.id + "|" + x.key.workload + "|" + x.key.dims] = x;
      });
      return index;
    }

    function points(view, sel) {
      var base = baselineIndex(view, view.metric), multi = view.results.length > 1;
      return sel.rows.map(function (x) {
        var display = DISPLAY[x.metric.unit] || { factor: 1, unit: x.metric.unit, title: x.metric.unit };
        var p = { config: configOf(x.key), filesystem: x.key.filesystem, variant: x.key.variant, workload: x.key.workload,
                  dims: x.key.dims, panel: x.key.workload + (x.key.dims ? " " + x.key.dims : ""), machine: x.result.machine,
                  machineName: x.result.name, machineShown: shownMachine(x.result), systemTable: x.result.system_table,
                  // one series a result file: two results of one machine and day are two bars, never a sum
                  series: multi ? x.result.id : configOf(x.key),
                  result: x.result.id, kernel: x.result.kernel, tools: x.result.tools, key: x.key.key,
                  command: x.result.rerun && x.result.rerun + x.key.command,  // the result's own profile and target; "" for an import
                  mean: x.mean, n: x.n, rsd: x.rsd, flags: x.flags, marks: chartSpec.flagMarks(x.flags),
                  better: x.metric.better, unit: x.metric.unit, samplesRaw: x.samples, loRaw: x.lo, hiRaw: x.hi, host: x.host };
        var scale = null;
        if (view.mode === "abs") { scale = display.factor; p.unitLabel = display.title; }
        else if (view.mode === "ratio") {
          var b = base[x.result.id + "|" + x.key.workload + "|" + x.key.dims];
          // a change of unit, not a ratio estimated with its own interval: each bar keeps its own
          // cell's interval and repetitions, divided by the baseline's mean (#62 round 10: labelled a
          // ratio with a "95% CI", it read as the compare page's tested ratio, which is another figure)
          if (b && b.mean) { scale = 1 / b.mean; p.unitLabel = inUnitsOf(view.baseline) + " (" + (x.metric.better === "higher" ? "above 1 is better" : "below 1 is better") + ")"; }
        } else if (view.mode === "share" && x.share !== null && x.share !== undefined && x.mean) {
          scale = x.share / x.mean; p.unitLabel = "share of what the raw device delivered";
        }
        if (scale === null) { p.value = null; return p; }
        p.value = x.mean * scale;  // one sample: no interval (null ends), so no whisker
        p.lo = x.lo === null ? null : x.lo * scale; p.hi = x.hi === null ? null : x.hi * scale;
        // the figures as every page's chart prints them for one cell (aggregate._throughput_shown)
        p.unitShort = view.mode === "abs" ? display.unit : view.mode === "ratio" ? inUnitsOf(view.baseline) : "share";
        p.shown = { mean: format.significant(p.value), rsd: x.rsd === null ? data.words.no_rsd : format.rsd(x.rsd),
                    ci: p.lo === null ? data.words.no_interval : format.significant(p.lo) + "\u2013" + format.significant(p.hi) };
        p.samples = x.samples.map(function (s) { return s * scale; });
        // the swept parameter as a number (explorer.sweep_axis in Python: "bs=4k" is 4096 bytes)
        p.dimValue = x.key.dimValue === undefined ? null : x.key.dimValue;
        p.dimName = x.key.dimName || null;
        return p;
      });
    }

    // A metric in words (the index's label: results/metrics.py label()), its id where it has none.
    function metricLabel(name) {
      var m = metricByName[name];
      return (m && m.label) || name;
    }
    // Whether any of a view's runs measured a metric (their chunks loaded: add()).
    function measured(view, name) {
      return view.results.some(function (id) { return measures[id] && measures[id][name]; });
    }

    // Why a view draws nothing, in words: the first of its choices (runs and metric, filesystems,
    // variants, workloads, the sweep axis, the baseline) that leaves no cell; "" if it draws something.
    // Its caption: "Nothing drawn of <the metric's label>: <this>."
    function emptyReason(view) {
      var runs = table(), them = view.results.length > 1 ? "the runs shown" : "the run shown";
      view.results.forEach(function (id) { runs[id] = 1; });
      var pool = rows.filter(function (x) { return runs[x.result.id] && x.metric.name === view.metric; });
      if (!pool.length) return them + " did not measure it; pick another metric or run";
      var filters = [["fs", "filesystem", "filesystem"], ["variant", "option variant", "variant"], ["workload", "workload", "workload"]];
      for (var i = 0; i < filters.length; i++) {
        var field = filters[i][0], what = filters[i][1], of = filters[i][2], chosen = table();
        if (!view[field].length) return "no " + what + " is chosen";
        view[field].forEach(function (w) { chosen[w] = 1; });
        pool = pool.filter(function (x) { return chosen[x.key[of]]; });
        if (!pool.length) return them + " measured it for none of the " + what + "s chosen (" + view[field].join(", ") + ")";
      }
      if (view.axis === "dims" && !pool.some(function (x) { return x.key.dims; }))
        return "none of the cells chosen sweeps a parameter (file size, threads), which the sweep view draws; show them across workloads";
      if (view.mode === "ratio")
        return "no cell chosen has a cell of the baseline (" + view.baseline + ") beside it in its run; baselines these runs measured: " +
          baselinesOf(view, view.results).join(", ");
      if (view.mode === "share") return "no cell chosen has a raw-device figure to take a share of";
      return "";
    }

    // The configurations runs (ids) measured the view's metric in, sorted: the baselines a ratio
    // could be taken to there. An import's are "ext4 imported", never the default baseline "ext4"
    // (#62 round 10), which the caption and the status name where cells have no baseline.
    function baselinesOf(view, ids) {
      var runs = table(), beside = table();
      ids.forEach(function (id) { runs[id] = 1; });
      rows.forEach(function (x) { if (runs[x.result.id] && x.metric.name === view.metric) beside[configOf(x.key)] = 1; });
      return Object.keys(beside).sort();
    }

    // The scaling view's second measure: the mean latency of the cells drawn (of the same side of a
    // mixed job: read_throughput beside read_lat_mean_ns), against the same swept parameter; the
    // chosen metric alone where it is that latency or a ratio is shown.
    function scaling(view, values) {
      var LATENCY = ((/^(read|write|trim)_/.exec(view.metric) || [""])[0]) + "lat_mean_ns";
      values = values.filter(function (p) { return p.dimValue !== null; });
      values.forEach(function (p) { p.measure = view.metric + " (" + p.unitLabel + ")"; });
      if (view.metric === LATENCY || view.mode !== "abs") return values;
      var drawnWorkloads = table();
      values.forEach(function (p) { drawnWorkloads[p.workload] = 1; });
      var latency = points(view, selected(view, LATENCY)).filter(function (p) {
        return p.value !== null && p.dimValue !== null && drawnWorkloads[p.workload];
      });
      latency.forEach(function (p) { p.measure = LATENCY + " (" + p.unitLabel + ")"; p.beside = true; });
      return values.concat(latency);
    }

    // What the chart of a view draws: the selection (sel), every point of it (all, the table's),
    // the panels the chart holds at most (limited: drawable()), the values drawn (shown) and their unit.
    function chart(view) {
      var sel = selected(view, view.metric);
      var all = points(view, sel);
      var limited = drawable(all.filter(function (p) { return p.value !== null; }), view.axis === "dims" ? "workload" : "panel");
      var shown = view.axis === "dims" ? scaling(view, limited.values) : limited.values;
      return { sel: sel, all: all, limited: limited, shown: shown, unitLabel: shown.length ? shown[0].unitLabel : "" };
    }

    return { data: data, byId: byId, configNames: configNames, add: add, readState: readState, query: query, isDefault: isDefault, selected: selected,
             baselineIndex: baselineIndex, points: points, chart: chart, metricLabel: metricLabel, measured: measured,
             emptyReason: emptyReason, baselinesOf: baselinesOf };
  }

  // Small multiples drawn at most: a file of 5,000 cells, each a panel of its own, took the
  // chart 17 s and 1 GB of the reader's memory (the project's own runs have at most a dozen a
  // metric). The first MAX_PANELS in the chart's own order are drawn; the table holds every cell.
  var MAX_PANELS = 60;
  function drawable(values, field) {
    var names = uniq(values.map(function (v) { return v[field]; })).sort();
    if (names.length <= MAX_PANELS) return { values: values, panels: names.length };
    var kept = table();
    names.slice(0, MAX_PANELS).forEach(function (name) { kept[name] = true; });
    return { values: values.filter(function (v) { return kept[v[field]]; }), panels: names.length };
  }

  // The figure's caption for a view whose values are in unitLabel. A ratio here is descriptive:
  // whether it is a difference is the comparison module's to say, which the compare page shows
  // for two filesystems in one run (tested, corrected).
  function caption(view, unitLabel) {
    return (view.mode === "ratio" ? "Each cell's mean, interval and repetitions divided by " + view.baseline + "'s mean in the same run and workload: " +
      "a change of unit, so a bar's whisker is its own cell's 95 % interval (the baseline's is on its own bar), not an interval of the ratio. " +
      "Not tested: the compare page's ratio of two filesystems is another figure (of geometric means, with the interval of their difference, from the comparison module), " +
      "which a cell's details give where that page has it" :
      view.mode === "share" ? "Each throughput as a share of what the raw device delivered" : view.metric + (unitLabel ? " in " + unitLabel : ": nothing drawn")) +
      "; bars are means, whiskers 95 % confidence intervals, dots the repetitions; a flagged bar is a pale fill in a full-colour outline, with its flags' letters above it.";
  }

  // The Vega-Lite spec of a view's values, its small multiples in `columns` columns (the browser:
  // as many as the page's width holds; the build: the wide layout). Its ink is "{ink}" (chartSpec.inked).
  // Each bar or line point is labelled for a screen reader (and by the build's <title>, on hover);
  // whiskers, dots and flag letters are not (aria false): the bar's label holds its figures, and
  // a label on each repetition's dot made the build's picture twice the size.
  // A figure in a label, a tooltip or on an axis: three significant digits with thousands separators,
  // the site's one way (format.js significant(), knowledge.py significant()); a machine by its human
  // name (results/machines.py name()), its hash label being an id the details give beside it.
  // The y encoding carries the format too: vega-lite labels each bar from it, and that label is
  // the build picture's <title> and the drawn chart's aria-label ("1928.33867767" without it).
  var FIGURE = ",.3~r";
  function spec(view, values, unitLabel, columns) {
    // one cell's label in the throughput chart's words, fields and order (assets/charts/throughput.vl.json):
    // mean, 95 % CI and RSD as the pages print them, samples, flags, the machine by its name and
    // label, the result file; then what only the explorer gives (kernel, the host meanwhile)
    var unit = (values[0] && values[0].unitShort) || unitLabel;
    var tooltip = [{ field: "filesystem" }, { field: "panel", title: "workload" }, { field: "variant" },
                   { field: "shown.mean", title: "mean " + (view.mode === "ratio" ? "(" + unit + ")" : unit) }, { field: "shown.ci", title: "95% CI (" + unit + ")" },
                   { field: "shown.rsd", title: "RSD" }, { field: "n", title: "samples" }, { field: "flags" },
                   { field: "machineShown", title: "machine" }, { field: "result", title: "result file" },
                   { field: "kernel" }, { field: "host", title: "host meanwhile" }];
    var y = { field: "value", type: "quantitative", title: unitLabel, format: FIGURE };
    if (view.axis === "dims") {
      // the scaling view: a row per measure (the metric chosen, and the mean latency of the same
      // cells: scaling()), a column per workload, against the swept parameter, as fio-plot draws it
      var swept = (values[0] && values[0].dimName) || "swept parameter";
      tooltip = tooltip.map(function (t) {
        return t.field === "shown.mean" ? { field: "shown.mean", title: "mean (its row's unit)" } : t.field === "shown.ci" ? { field: "shown.ci", title: "95% CI (its row's unit)" } : t;
      });
      tooltip.splice(1, 0, { field: "measure" }, { field: "dimValue", title: swept });
      y = { field: "value", type: "quantitative", title: null, format: FIGURE };  // each row's header names its measure and unit
      return { data: { values: values },
               facet: { row: { field: "measure", type: "nominal", title: null }, column: { field: "workload", type: "nominal", title: null } },
               resolve: { scale: { y: "independent", x: "independent" } },
               spec: { width: 260, height: 180, layer: [
                 { mark: { type: "line", point: true, tooltip: true },
                   encoding: { x: { field: "dimValue", type: "quantitative", scale: { type: "log" }, title: swept },
                               y: y, color: { field: "series", type: "nominal", title: null }, tooltip: tooltip } },
                 { mark: { type: "rule", aria: false }, encoding: { x: { field: "dimValue", type: "quantitative" }, y: { field: "lo", type: "quantitative" },
                                                        y2: { field: "hi" }, color: { field: "series", type: "nominal" } } },
                 { mark: { type: "text", aria: false, dy: -7, fontSize: 10, fontWeight: "bold", color: "{ink}" },
                   encoding: { x: { field: "dimValue", type: "quantitative" }, y: { field: "hi", type: "quantitative" }, text: { field: "marks" } } } ] } };
    }
    var xOffset = view.results.length > 1 ? { xOffset: { field: "series", type: "nominal" } } : {};
    var colour = view.results.length > 1 ? "series" : "filesystem";
    return {
      data: { values: values }, facet: { field: "panel", type: "nominal", title: null }, columns: columns,
      resolve: { scale: { y: "independent", x: "independent" } },
      spec: { width: { step: view.results.length > 1 ? 14 : 26 }, height: 160,
        encoding: Object.assign({ x: { field: "config", type: "nominal", title: null, axis: { labelAngle: -40 } } }, xOffset),
        layer: [
          // a flagged bar: a pale fill inside an outline in its full colour, which keeps 3:1 against the page (WCAG 1.4.11)
          { mark: { type: "bar", tooltip: true, strokeWidth: 1.5 },
            encoding: { y: Object.assign({ stack: null }, y), color: { field: colour, type: "nominal", legend: view.results.length > 1 ? { orient: "bottom", title: null } : null },
                        stroke: { field: colour, type: "nominal", legend: null },
                        fillOpacity: { condition: { test: "datum.marks", value: 0.35 }, value: 1 }, tooltip: tooltip } },
          { mark: { type: "rule", aria: false, color: "{ink}" }, encoding: { y: { field: "lo", type: "quantitative" }, y2: { field: "hi" } } },
          { transform: [{ flatten: ["samples"], as: ["sample"] }],
            mark: { type: "point", aria: false, filled: true, size: 14, color: "{ink}", opacity: 0.7 },
            encoding: { y: { field: "sample", type: "quantitative" } } },
          { mark: { type: "text", aria: false, dy: -7, fontSize: 10, fontWeight: "bold", color: "{ink}" },
            encoding: { y: { field: "hi", type: "quantitative" }, text: { field: "marks" } } }
        ] } };
  }

  // The wide layout's columns: what a page 900 px wide or more shows, and what the build draws
  // (it cannot know the reader's screen).
  var WIDE_COLUMNS = 3;
  return { model: model, table: table, uniq: uniq, configOf: configOf, shownMachine: shownMachine, drawable: drawable, caption: caption, spec: spec, MAX_PANELS: MAX_PANELS,
           WIDE_COLUMNS: WIDE_COLUMNS, FIGURE: FIGURE };
});
