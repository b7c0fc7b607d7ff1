// How a chart's spec and rows become the Vega-Lite spec drawn: one function for the browser
// (static/js/charts.js, window.fsatlasChartSpec) and for the build (scripts/draw-charts.mjs,
// which draws each page's charts to SVG before any reader asks), so both draw the same chart.
(function (root, make) {
  var api = make();
  if (typeof module === "object" && module.exports) module.exports = api; else root.fsatlasChartSpec = api;
})(this, function () {
  "use strict";
  // Whiskers and repetition dots are drawn in "{ink}" in the specs: #222 on exports (a white
  // background); on screen "currentColor", which the page's CSS sets (static/css/site.css,
  // .chart-view: dark on a light page, light in dark mode), so a picture drawn once, at build or
  // in the browser, follows the reader's colour scheme without being drawn again.
  var INK = { paper: "#222", screen: "currentColor" };
  // On screen, the axes', legends' and headers' text and lines take the same CSS colour (Vega's
  // defaults are black text and grey lines, fixed in the picture); exports keep Vega's.
  var FAINT = 0.25;
  var SCREEN = {
    axis: { labelColor: INK.screen, titleColor: INK.screen, domainColor: INK.screen, tickColor: INK.screen,
            gridColor: INK.screen, gridOpacity: FAINT, domainOpacity: 0.6, tickOpacity: 0.6 },
    legend: { labelColor: INK.screen, titleColor: INK.screen },
    header: { labelColor: INK.screen, titleColor: INK.screen },
    title: { color: INK.screen, subtitleColor: INK.screen },
    view: { stroke: INK.screen, strokeOpacity: FAINT },
  };
  // The colours of a chart's categories (Vega's default scheme, tableau10, has five below 3:1 on a
  // white page: #eeca3b 1.6:1): each of these keeps 3:1 against the light page's ground (#fff) and
  // the dark one's (#15171b), as WCAG 1.4.11 asks of graphics, whichever scheme the reader uses.
  var CATEGORY = ["#4c78a8", "#c8651b", "#d6404e", "#2f8f8a", "#4f9a3f", "#a08400", "#a65c98", "#d0607a",
                  "#8c6d52", "#7a7a7a"];
  // The letters a chart prints above a flagged mark (one per caution flag, the legend is
  // layouts/partials/charts/flags-legend.html); rows get them as the field "marks".
  var FLAG_LETTERS = { noisy: "N", cached: "C", "cache-unknown": "U", emulated: "E" };

  // No label or title of an axis or legend is cut (vega's defaults cut at 180 px): a browser
  // measures text with its own font and Node (scripts/draw-charts.mjs) can only estimate it, so
  // the two cut at different letters, and the build's picture had cut "ext4 imported
  // record_kib=1024" to "ext4 imported reco…" on every bar of a panel.
  function uncut(config) {
    var out = Object.assign({}, config || {});
    out.axis = Object.assign({ labelLimit: 0, titleLimit: 0 }, out.axis || {});
    out.legend = Object.assign({ labelLimit: 0, titleLimit: 0 }, out.legend || {});
    return out;
  }

  // The spec for an export (forScreen false: fixed colours for a white background) or for the
  // page (true: every ink from CSS, as above).
  function inked(spec, forScreen) {
    var out = JSON.parse(JSON.stringify(spec).split('"{ink}"').join(JSON.stringify(forScreen ? INK.screen : INK.paper)));
    out.config = uncut(out.config);
    out.config.range = Object.assign({ category: CATEGORY }, out.config.range || {});
    if (forScreen) {
      var config = out.config || {};
      out.config = Object.assign({}, config, { background: null });
      Object.keys(SCREEN).forEach(function (part) { out.config[part] = Object.assign({}, SCREEN[part], config[part] || {}); });
    }
    return out;
  }
  function flagMarks(flags) {
    var list = typeof flags === "string" ? flags.split(/[,\s]+/) : (flags || []);
    return Object.keys(FLAG_LETTERS).filter(function (f) { return list.indexOf(f) >= 0; })
      .map(function (f) { return FLAG_LETTERS[f]; }).join("");
  }
  // specText: assets/charts/<name>.vl.json; rowsText: the rows' JSON; axis: the figure's data-axis,
  // for a spec shared by charts of different quantities, which names its axis "{axis}".
  function build(specText, rowsText, axis) {
    var spec = JSON.parse(specText.split('"{axis}"').join(JSON.stringify(axis || "")));
    spec.data = { values: JSON.parse(rowsText).map(function (row) { row.marks = flagMarks(row.flags); return row; }) };
    return spec;
  }
  return { INK: INK, CATEGORY: CATEGORY, FLAG_LETTERS: FLAG_LETTERS, inked: inked, flagMarks: flagMarks, build: build };
});
