// The chart permalink: fetches the page named in ?page= (a page of this site only), takes
// its n-th chart with the table that follows it, and draws that alone, linking back.
(function () {
  "use strict";
  var root = document.getElementById("embed"), statusLine = root.querySelector(".embed-status");
  var params = new URLSearchParams(location.search);
  var page = params.get("page") || "", n = parseInt(params.get("n") || "1", 10);
  var url = new URL(page, location.href);
  if (url.origin !== location.origin || !page) { statusLine.textContent = "No chart named."; return; }
  fetch(url).then(function (r) {
    if (!r.ok) throw new Error(r.status + " " + r.statusText);
    return r.text();
  }).then(function (html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var figure = doc.querySelectorAll("figure[data-chart]")[n - 1];
    if (!figure) throw new Error("that page has no chart number " + n);
    var table = figure.nextElementSibling && figure.nextElementSibling.matches("table") ? figure.nextElementSibling : null;
    var mine = document.importNode(figure, true);
    root.replaceChildren(mine);
    if (table) root.appendChild(document.importNode(table, true));
    var back = document.createElement("p");
    var link = document.createElement("a");
    link.href = url.href;
    link.textContent = "From " + (doc.title || url.pathname);
    back.appendChild(link);
    root.appendChild(back);
    return window.fsatlasCharts.draw(mine);
  }).catch(function (error) {
    statusLine.textContent = "Could not show the chart: " + error.message;
    console.error("embed: " + error);
  });
})();
