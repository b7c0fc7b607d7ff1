// Draws every <figure data-chart> on the page: a Vega-Lite spec (data-spec, a file of the site)
// and its rows (in the page, or the file data-rows names), both from
// layouts/partials/charts/chart.html, made into one spec by static/js/chart-spec.js.
// A chart the build drew already (data-drawn="build", scripts/draw-charts.mjs) is shown as that
// SVG, in light and dark mode alike (its ink is currentColor, set by the page's CSS): Vega
// (820 KiB) loads only when the reader asks, by a click or tap on the chart, its "Explore"
// button (keyboard) or a save button, never on hover, focus or a finger scrolling across it;
// then the interactive view of the same spec replaces the picture.
// Each chart can be saved as SVG or PNG (three times screen resolution, for print) with its
// caption, its source page, the fsatlas version and each run of its rows with its machine and
// system drawn into the image: the same spec and the same rows as on screen, so the export
// shows the numbers of the table beside it.
(function () {
  "use strict";
  var S = window.fsatlasChartSpec;
  var inked = S.inked, flagMarks = S.flagMarks;
  var script = document.currentScript;
  var vendor = (script && script.dataset.vendor) || "";
  var loading = null;

  // Vega, Vega-Lite and vega-embed, in that order, once, when a chart is asked for.
  function vegaReady() {
    if (window.vegaEmbed) return Promise.resolve();
    if (!loading) {
      loading = ["vega.min.js", "vega-lite.min.js", "vega-embed.min.js"].reduce(function (before, name) {
        return before.then(function () { return load(vendor + name); });
      }, Promise.resolve());
    }
    return loading;
  }
  function load(src) {  // a promise of the script at src, run
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = src;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error(src + " did not load")); };
      document.head.appendChild(tag);
    });
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
      .then(function (texts) { return S.build(texts[0], texts[1], figure.dataset.axis); });
  }

  // Saves spec (with its rows) as kind "SVG" or "PNG", titled with figure's data-caption,
  // data-source and data-version, each run of its rows named with its machine and system below:
  // the one export of static charts and the explorer's, in static/js/chart-export.js, which
  // loads with Vega when a chart is first saved (saving is rare: no page loads it at first view).
  var exporting = null;
  function exportAs(kind, figure, spec, name) {
    exporting = exporting || load(new URL("chart-export.js", script.src).href);
    return exporting.then(function () { return window.fsatlasChartExport(kind, figure, spec, name); });
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
        Promise.all([specOf(figure), vegaReady()]).then(function (got) { return exportAs(kind, figure, got[0], name); })
          .catch(function (error) { console.error("export " + figure.dataset.chart + ": " + error); });
      });
      bar.appendChild(button);
    });
    figure.insertBefore(bar, figure.querySelector("figcaption"));
  }

  function draw(figure) {
    return Promise.all([specOf(figure), vegaReady()]).then(function (got) {
      return vegaEmbed(figure.querySelector(".chart-view"), inked(got[0], true), { renderer: "svg", actions: false });
    }).then(function (result) {
      if (!figure.querySelector(".chart-actions")) actions(figure);
      figure.classList.add("chart-drawn");
      figure.removeAttribute("data-drawn");
      return result;
    }).catch(function (error) {
      figure.classList.add("chart-failed");
      console.error("chart " + figure.dataset.chart + ": " + error);
    });
  }

  // A chart drawn at build time: shown as it is, its save buttons in place, made interactive
  // when the reader asks: a click or tap on the picture without movement (a finger scrolling
  // across it or a mouse dragging over it to select text is no request), or the "Explore"
  // button, which a keyboard reaches.
  var SLOP_PX = 6;  // a press that moves further is a drag or a scroll, not a click or tap
  // a finger held this long is a long press (a context menu, text selection), not a tap: Android's
  // long-press timeout (ViewConfiguration.getLongPressTimeout(), 500 ms by default); a mouse
  // button held as long is still a click
  var LONG_PRESS_MS = 500;
  // then() once, on a click or tap on view without movement or on the button explore (which
  // goes, a keyboard's focus staying on the chart it asked for); the explorer's picture too.
  function whenAsked(view, explore, then) {
    // where and when the last press on the picture began: a click that ends more than SLOP_PX
    // away is a drag (text selected, a finger moved), not a request; one that began off the
    // picture too; a finger's held past LONG_PRESS_MS is a long press
    var down = null;
    view.addEventListener("pointerdown", function (e) {
      down = { x: e.clientX, y: e.clientY, t: e.timeStamp, finger: e.pointerType !== "mouse" };
    });
    view.addEventListener("pointercancel", function () { down = null; });
    var wake = function (e) {
      if (e.currentTarget === view) {
        var moved = !down || Math.abs(e.clientX - down.x) > SLOP_PX || Math.abs(e.clientY - down.y) > SLOP_PX;
        var held = down && down.finger && e.timeStamp - down.t > LONG_PRESS_MS;
        down = null;
        if (moved || held) return;
      }
      view.removeEventListener("click", wake);
      if (document.activeElement === explore) {
        view.setAttribute("tabindex", "-1");
        view.focus({ preventScroll: true });
      }
      explore.remove();
      then();
    };
    view.addEventListener("click", wake);
    explore.addEventListener("click", wake);
  }
  // A chart the build could not draw (a result page's empty view) is drawn here at once, or,
  // where wait is given (the embed page, whose view says so), when the reader asks, as a picture.
  function settle(figure, wait) {
    var pictured = figure.dataset.drawn === "build" && figure.querySelector(".chart-view svg");
    if (!pictured && !wait) return draw(figure);
    actions(figure);
    if (pictured) figure.classList.add("chart-drawn");
    var view = figure.querySelector(".chart-view"), bar = figure.querySelector(".chart-actions");
    var explore = document.createElement("button");
    explore.type = "button";
    explore.className = "chart-explore";
    explore.textContent = "Explore";
    explore.setAttribute("aria-label", "Explore (details on hover or tap): " + (figure.dataset.caption || "the chart"));
    bar.insertBefore(explore, bar.firstChild);
    whenAsked(view, explore, function () { draw(figure); });
    return Promise.resolve();
  }
  window.fsatlasCharts = { draw: draw, settle: settle, exportAs: exportAs, inked: inked, flagMarks: flagMarks, ready: vegaReady, whenAsked: whenAsked };
  if (!document.getElementById("embed")) document.querySelectorAll("figure[data-chart]").forEach(function (figure) { settle(figure); });
})();
