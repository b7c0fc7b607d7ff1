// How a chart's spec and rows become the Vega-Lite spec drawn: one function for the browser
// (static/js/charts.js, window.fsatlasChartSpec) and for the build (scripts/draw-charts.mjs,
// which draws each page's charts to SVG before any reader asks), so both draw the same chart.
(function (root, make) {
  var api = make();
  if (typeof module === "object" && module.exports) module.exports = api; else root.fsatlasChartSpec = api;
})(this, function () {
  "use strict";
  // Whiskers and repetition dots are drawn in "{ink}" in the specs: dark on a light page and on
  // exports (a white background), light in dark mode, where #222 would vanish.
  var INK = { light: "#222", dark: "#d0d0d0" };
  // The letters a chart prints above a flagged mark (one per caution flag, the legend is
  // layouts/partials/charts/flags-legend.html); rows get them as the field "marks".
  var FLAG_LETTERS = { noisy: "N", cached: "C", "cache-unknown": "U", emulated: "E" };

  function inked(spec, onDark) {
    return JSON.parse(JSON.stringify(spec).split('"{ink}"').join(JSON.stringify(onDark ? INK.dark : INK.light)));
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
  return { INK: INK, FLAG_LETTERS: FLAG_LETTERS, inked: inked, flagMarks: flagMarks, build: build };
});
