// Draws every <figure data-chart> on the page: a Vega-Lite spec (data-spec, a file of the site)
// and its rows (in the page, or the file data-rows names), both from
// layouts/partials/charts/chart.html, rendered with the site's own vega-embed.
// Each chart can be saved as SVG or PNG (three times screen resolution, for print) with its
// caption, its source page and the fsatlas version drawn into the image: the same spec and
// the same rows as on screen, so the export shows the numbers of the table beside it.
(function () {
  "use strict";
  var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  // Whiskers and repetition dots are drawn in "{ink}" in the specs: dark on a light page and on
  // exports (a white background), light in dark mode, where #222 would vanish.
  var INK = { light: "#222", dark: "#d0d0d0" };
  function inked(spec, onDark) {
    return JSON.parse(JSON.stringify(spec).split('"{ink}"').join(JSON.stringify(onDark ? INK.dark : INK.light)));
  }
  // The letters a chart prints above a flagged mark (one per caution flag, the legend is
  // layouts/partials/charts/flags-legend.html); rows get them as the field "marks".
  var FLAG_LETTERS = { noisy: "N", cached: "C", "cache-unknown": "U", emulated: "E" };
  function flagMarks(flags) {
    var list = typeof flags === "string" ? flags.split(/[,\s]+/) : (flags || []);
    return Object.keys(FLAG_LETTERS).filter(function (f) { return list.indexOf(f) >= 0; })
      .map(function (f) { return FLAG_LETTERS[f]; }).join("");
  }
  var fetched = {};  // URL -> promise of its text: a spec shared by several charts is fetched once

  function textOf(url) {
    if (!fetched[url]) {
      fetched[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ": " + r.status + " " + r.statusText);
        return r.text();
      });
    }
    return fetched[url];
  }

  function specOf(figure) {  // a promise of a spec with its rows, parsed afresh: each view owns its objects
    var inline = figure.querySelector(".chart-data");
    return Promise.all([textOf(figure.dataset.spec),
                        figure.dataset.rows ? textOf(figure.dataset.rows) : inline.textContent])
      .then(function (texts) {
        // a spec shared by charts of different quantities names its axis "{axis}": this chart's data-axis
        var spec = JSON.parse(texts[0].split('"{axis}"').join(JSON.stringify(figure.dataset.axis || "")));
        spec.data = { values: JSON.parse(texts[1]).map(function (row) { row.marks = flagMarks(row.flags); return row; }) };
        return spec;
      });
  }

  function forExport(figure, spec) {
    var source = "Source: " + new URL(figure.dataset.source || location.pathname, location.href).href +
      " · fsatlas " + (figure.dataset.version || "");
    spec.title = { text: figure.dataset.caption || "", subtitle: source, anchor: "start", orient: "bottom",
                   fontSize: 12, subtitleFontSize: 10, limit: 900, offset: 16 };
    spec.config = Object.assign({}, spec.config || {}, { background: "white" });
    return new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
  }

  // Saves spec (with its rows) as kind "SVG" or "PNG", titled with figure's data-caption,
  // data-source and data-version: the one export of static charts and the explorer's.
  function exportAs(kind, figure, spec, name) {
    var view = forExport(figure, inked(spec, false));
    var url = kind === "SVG" ? view.toSVG().then(function (svg) {
      return URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" })); }) : view.toImageURL("png", 3);
    return url.then(function (href) { save(name + "." + kind.toLowerCase(), href); });
  }

  function save(name, url) {
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function actions(figure) {
    var bar = document.createElement("div"), name = "fsatlas-" + figure.dataset.chart;
    bar.className = "chart-actions";
    var figures = Array.prototype.slice.call(document.querySelectorAll("figure[data-chart]"));
    if (!document.getElementById("embed")) {  // the permalink that draws this chart alone (for an iframe)
      var link = document.createElement("a");
      link.href = figure.dataset.embed + "?page=" + encodeURIComponent(location.pathname) + "&n=" + (figures.indexOf(figure) + 1);
      link.textContent = "Link to this chart";
      link.className = "chart-permalink";
      bar.appendChild(link);
    }
    ["SVG", "PNG"].forEach(function (kind) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Save as " + kind;
      button.setAttribute("aria-label", "Save as " + kind + ": " + (figure.dataset.caption || "the chart"));
      button.addEventListener("click", function () {
        specOf(figure).then(function (spec) { return exportAs(kind, figure, spec, name); })
          .catch(function (error) { console.error("export " + figure.dataset.chart + ": " + error); });
      });
      bar.appendChild(button);
    });
    figure.insertBefore(bar, figure.querySelector("figcaption"));
  }

  function draw(figure) {
    return specOf(figure).then(function (spec) {
      spec.config = Object.assign({ background: null }, spec.config || {});
      return vegaEmbed(figure.querySelector(".chart-view"), inked(spec, dark),
                       { renderer: "svg", actions: false, theme: dark ? "dark" : undefined });
    }).then(function (result) { actions(figure); figure.classList.add("chart-drawn"); return result; })
      .catch(function (error) {
        figure.classList.add("chart-failed");
        console.error("chart " + figure.dataset.chart + ": " + error);
      });
  }
  window.fsatlasCharts = { draw: draw, exportAs: exportAs, inked: inked, dark: dark, flagMarks: flagMarks };
  if (!document.getElementById("embed")) document.querySelectorAll("figure[data-chart]").forEach(draw);
})();
