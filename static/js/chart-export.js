// A chart saved as SVG or PNG (static/js/charts.js exportAs, for the site's charts and the
// explorer's): the same spec and rows as on screen, in the export's ink (chart-spec.js inked),
// titled below with the figure's data-caption, its source page (data-source) and the fsatlas
// version (data-version), then each run its rows come from, once, with its machine and system.
// The image leaves the page and is then all its reader has, so it names them itself: the
// words fsatlas aggregate wrote for each run (charts/runs.json, runner/fsatlas/site/aggregate.py
// run_systems: "machine (label); system line"), fetched only when a chart is saved. Loaded by
// charts.js when a chart is first saved, after Vega.
(function () {
  "use strict";
  var runsFile = document.querySelector("script[data-runs]").dataset.runs;
  var systems = null;  // a promise of charts/runs.json, fetched once

  // "Run <id>: <machine>; <system>" for each run the rows name, sorted by id
  function runLines(values) {
    var ids = [];
    (values || []).forEach(function (row) {
      if (row && typeof row.result === "string" && row.result && ids.indexOf(row.result) < 0) ids.push(row.result);
    });
    if (!ids.length) return Promise.resolve([]);
    systems = systems || fetch(runsFile).then(function (r) {
      if (!r.ok) throw new Error(runsFile + ": " + r.status + " " + r.statusText);
      return r.json();
    });
    return systems.then(function (known) {
      return ids.sort().map(function (id) {
        var at = Object.prototype.hasOwnProperty.call(known.runs, id) ? known.runs[id] : -1;
        return "Run " + id + ": " + (at >= 0 ? known.systems[at] : "machine and system not listed on this site");
      });
    });
  }

  // a line cut into lines of at most chars characters, at spaces, and a word longer than a line
  // (a link, a backing filesystem's mount options) where the line ends: the caption's at 12 px
  // and the rest at 10 px stay within the title's limit of 900 px, which would cut them short
  function wrapped(line, chars) {
    var out = [], now = "";
    line.split(" ").forEach(function (word) {
      if (now && word.length <= chars && (now + " " + word).length > chars) { out.push(now); now = ""; }
      for (now = now ? now + " " + word : word; now.length > chars; now = now.slice(chars)) out.push(now.slice(0, chars));
    });
    return out.concat(now ? [now] : []);
  }

  function view(figure, spec, runs) {
    var source = "Source: " + new URL(figure.dataset.source || location.pathname, location.href).href +
      " · fsatlas " + (figure.dataset.version || "");
    var lines = wrapped(source, 130);
    runs.forEach(function (run) { lines = lines.concat(wrapped(run, 130)); });
    spec.title = { text: wrapped(figure.dataset.caption || "", 110), subtitle: lines, anchor: "start", orient: "bottom",
                   fontSize: 12, subtitleFontSize: 10, limit: 900, offset: 16 };
    spec.config = Object.assign({}, spec.config || {}, { background: "white" });
    return new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
  }

  function save(name, url) {
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  // Saves spec (with its rows) as kind "SVG" or "PNG" (three times screen resolution, for print)
  // into the file name.svg or name.png.
  window.fsatlasChartExport = function (kind, figure, spec, name) {
    return runLines(spec.data && spec.data.values).then(function (runs) {
      var drawn = view(figure, window.fsatlasChartSpec.inked(spec, false), runs);
      return kind === "SVG" ? drawn.toSVG().then(function (svg) {
        return URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" })); }) : drawn.toImageURL("png", 3);
    }).then(function (href) { save(name + "." + kind.toLowerCase(), href); });
  };
})();
