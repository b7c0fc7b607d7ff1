// Draws every <figure data-chart> on the page: a Vega-Lite spec and its rows, both embedded
// as JSON by layouts/partials/charts/chart.html, rendered with the site's own vega-embed.
(function () {
  "use strict";
  function draw(figure) {
    var spec = JSON.parse(figure.querySelector(".chart-spec").textContent);
    var rows = JSON.parse(figure.querySelector(".chart-data").textContent);
    spec.data = { values: rows };
    spec.config = Object.assign({ background: null }, spec.config || {});
    return vegaEmbed(figure.querySelector(".chart-view"), spec, { renderer: "svg", actions: false })
      .then(function (result) { figure.classList.add("chart-drawn"); return result; })
      .catch(function (error) {
        figure.classList.add("chart-failed");
        console.error("chart " + figure.dataset.chart + ": " + error);
      });
  }
  document.querySelectorAll("figure[data-chart]").forEach(draw);
})();
