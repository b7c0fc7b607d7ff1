// The chart permalink: /embed/?page=/results/<id>/&n=1 draws the n-th chart of one of the site's
// own pages alone, with its table, each run it draws with that run's system, linking back: the
// picture the build drew of it, as on its page, and Vega's interactive chart only when the reader
// asks (static/js/charts.js settle()). The fetched page is read as data only: the chart's name,
// spec file, rows and caption are checked against fixed patterns and copied into elements made
// here (text, never markup), its picture rebuilt from fixed lists of SVG elements and attributes
// (pictureOf), and the table is rebuilt from its cells' text. So a
// page named by a crafted link, or contributor text inside a page, cannot put markup or script
// into this one.
(function () {
  "use strict";
  var root, statusLine;  // #embed and its status, once the page is parsed (below)
  var base = document.documentElement.dataset.root || "/";
  // A Hugo page of this site (a folder path ending in "/"), not a static file: no ".", "..",
  // or the static trees (files/, charts/, vendor/…).
  var PAGE = /^(?:(?!(?:files|charts|vendor|pagefind|js|css)\/)[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\/)*$/;
  var NAME = /^[a-z0-9][a-z0-9-]*$/;
  var SPEC = /^charts\/[a-z0-9][a-z0-9-]*\.vl(?:\.[0-9a-f]+)?\.json$/;
  // a result's rows (fsatlas aggregate), or a chart's the build drew (scripts/draw-charts.mjs)
  var ROWS = /^charts\/(?:results\/[A-Za-z0-9][A-Za-z0-9._-]*|rows-[0-9a-f]{20})\.json$/;

  function fail(message) { throw new Error(message); }

  function sitePath(value, pattern) {  // a root-relative path of this site matching pattern, or null
    if (!value || value.indexOf(base) !== 0) return null;
    var rest = value.slice(base.length);
    return pattern.test(rest) && rest.split("/").indexOf("..") < 0 ? value : null;
  }

  function textTable(table) {  // the fallback table, rebuilt from its cells' text
    var out = document.createElement("table");
    out.className = table.className.split(/\s+/).filter(function (c) { return /^[a-z-]+$/.test(c); }).join(" ");
    out.tabIndex = 0;  // it scrolls sideways on a phone: the keyboard reaches it, as on the page
    ["thead", "tbody"].forEach(function (part) {
      var from = table.querySelector(part);
      if (!from) return;
      var to = out.appendChild(document.createElement(part));
      Array.prototype.forEach.call(from.rows, function (row) {
        var tr = to.appendChild(document.createElement("tr"));
        Array.prototype.forEach.call(row.cells, function (cell) {
          var c = tr.appendChild(document.createElement(cell.tagName === "TH" ? "th" : "td"));
          c.textContent = cell.textContent;
          if (cell.tagName === "TH" && /^(col|row)$/.test(cell.getAttribute("scope") || "")) c.scope = cell.getAttribute("scope");
        });
      });
    });
    return out;
  }

  // The picture the build drew of the chart (scripts/draw-charts.mjs), the same SVG its page
  // shows, rebuilt here: elements and attributes by name from fixed lists, text as text, at most
  // MAX_NODES nodes; no attribute that could run or fetch anything (on*, href, style, a url()
  // but a reference inside the picture).
  var SVG_NS = "http://www.w3.org/2000/svg";
  var SVG_TAGS = /^(?:svg|g|path|rect|circle|ellipse|line|polyline|polygon|text|tspan|title|desc|defs|clipPath)$/;
  var SVG_ATTRS = /^(?:class|id|role|aria-[a-z]+|version|viewBox|width|height|transform|d|x|y|dx|dy|x1|x2|y1|y2|cx|cy|r|rx|ry|points|fill|fill-opacity|fill-rule|stroke|stroke-[a-z]+|opacity|display|pointer-events|font-[a-z]+|text-anchor|dominant-baseline|clip-path)$/;
  var LOCAL_URL = /^url\(#[A-Za-z0-9_-]+\)$/;
  var MAX_NODES = 100000;

  function pictureOf(svg) {
    var nodes = 0;
    function copy(from) {
      if (++nodes > MAX_NODES) fail("that chart's picture is too large");
      var to = document.createElementNS(SVG_NS, from.localName);
      Array.prototype.forEach.call(from.attributes, function (a) {
        if (SVG_ATTRS.test(a.name) && (!/url\(/i.test(a.value) || LOCAL_URL.test(a.value))) to.setAttribute(a.name, a.value);
      });
      Array.prototype.forEach.call(from.childNodes, function (node) {
        if (node.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(node.data));
        else if (node.namespaceURI === SVG_NS && SVG_TAGS.test(node.localName)) to.appendChild(copy(node));
      });
      return to;
    }
    return copy(svg);
  }

  function chartFrom(found) {  // a new figure holding the found one's checked data
    var name = found.getAttribute("data-chart") || "";
    var spec = sitePath(found.getAttribute("data-spec"), SPEC);
    var rowsFile = found.getAttribute("data-rows");
    if (!NAME.test(name) || !spec) fail("that chart is not one of this site's");
    var figure = document.createElement("figure");
    figure.className = "chart";
    figure.dataset.chart = name;
    figure.dataset.spec = spec;
    figure.dataset.caption = found.getAttribute("data-caption") || "";
    figure.dataset.version = found.getAttribute("data-version") || "";
    figure.dataset.axis = found.getAttribute("data-axis") || "";
    var view = figure.appendChild(document.createElement("div"));
    view.className = "chart-view";
    view.setAttribute("role", "img");
    view.setAttribute("aria-label", figure.dataset.caption);
    var picture = found.getAttribute("data-drawn") === "build" && found.querySelector(".chart-view > svg");
    if (picture && picture.namespaceURI === SVG_NS) {
      view.appendChild(pictureOf(picture));
      figure.dataset.drawn = "build";
    }
    if (rowsFile) {
      figure.dataset.rows = sitePath(rowsFile, ROWS) || fail("that chart's rows are not one of this site's files");
    } else {
      var inline = found.querySelector("script.chart-data");
      var rows = JSON.parse(inline ? inline.textContent : "null");
      if (!Array.isArray(rows)) fail("that chart has no rows");
      var data = figure.appendChild(document.createElement("script"));
      data.type = "application/json";
      data.className = "chart-data";
      data.textContent = JSON.stringify(rows).replace(/</g, "\\u003c");
    }
    figure.appendChild(document.createElement("figcaption")).textContent = figure.dataset.caption;
    return figure;
  }

  function tableAfter(found) {  // the table the page places after the chart, bare or in its scroll box
    var next = found.nextElementSibling;
    if (next && next.matches("table")) return next;
    return next && next.matches(".table-scroll") ? next.querySelector(":scope > table") : null;
  }

  var RUN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

  function rowsOf(figure) {  // the chart's rows: in the figure, or the file it names
    var inline = figure.querySelector("script.chart-data");
    if (inline) return Promise.resolve(JSON.parse(inline.textContent));
    return fetch(figure.dataset.rows).then(function (r) { return r.ok ? r.json() : []; });
  }

  // Each run the chart draws, named with its system as its result page's system table gives it
  // (machine, CPU, memory, kernel, storage under the image): the figure's run and system in
  // view, as on the page it comes from, whose tooltips and tables say them.
  function runsOf(figure) {
    return rowsOf(figure).then(function (rows) {
      var ids = [];
      (Array.isArray(rows) ? rows : []).forEach(function (row) {
        var id = row && row.result;
        if (typeof id === "string" && RUN.test(id) && ids.indexOf(id) < 0) ids.push(id);
      });
      if (!ids.length) return null;
      var section = document.createElement("section");
      section.className = "embed-runs";
      section.appendChild(document.createElement("h2")).textContent = ids.length > 1 ?
        "The " + ids.length + " runs in this chart and their systems" : "The run in this chart and its system";
      return Promise.all(ids.map(function (id) {
        var page = new URL(base + "results/" + id + "/", location.href);
        return fetch(page).then(function (r) { return r.ok ? r.text() : ""; }).then(function (html) {
          var table = new DOMParser().parseFromString(html, "text/html").getElementById("system-table");
          var run = document.createElement("div");
          var heading = run.appendChild(document.createElement("p"));
          heading.appendChild(document.createTextNode("Run "));
          var link = heading.appendChild(document.createElement("a"));
          link.href = page.href;
          link.textContent = id;
          var facts = run.appendChild(document.createElement("dl"));
          facts.className = "facts";
          Array.prototype.forEach.call(table ? table.children : [], function (item) {  // text only, as the table above
            if (!/^(DT|DD)$/.test(item.tagName)) return;
            var text = item.cloneNode(true);  // a link of the result page's (labels of one host) is left there
            text.querySelectorAll("a").forEach(function (a) { a.remove(); });
            facts.appendChild(document.createElement(item.tagName.toLowerCase())).textContent = text.textContent.trim().replace(/\s*\u00b7$/, "");
          });
          if (!table) heading.appendChild(document.createTextNode(": its system is on its result page"));
          return run;
        });
      })).then(function (runs) { runs.forEach(function (run) { section.appendChild(run); }); return section; });
    });
  }

  // The page as a document, read as it arrives until its nth chart and the element after it
  // (the table a caption may point to) are whole: a chart near the top of a long page shows
  // before the rest has come, which is not fetched. At most MAX_PAGE characters are read.
  var MAX_PAGE = 16e6, FIGURE = /<figure\b[^>]*\sdata-chart=/g;
  function chartOf(response, n) {
    var parse = function (text) { return new DOMParser().parseFromString(text, "text/html"); };
    if (!response.body || !window.TextDecoder) return response.text().then(parse);
    var reader = response.body.getReader(), decoder = new TextDecoder(), text = "";
    var from = -1, closing = "</figure>";  // parsed again once closing has come after from
    var whole = function (el) {  // something follows it in the page: the parser has closed it
      while (el && !el.nextElementSibling) el = el.parentElement;
      return !!el;
    };
    function more() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return parse(text + decoder.decode());
        text += decoder.decode(chunk.value, { stream: true });
        if (text.length > MAX_PAGE) {
          reader.cancel();
          fail("that page is too long");
        }
        if (from < 0) {  // where the nth chart's figure begins, once it has come
          var begun = null, count = 0;
          FIGURE.lastIndex = 0;
          while (count < n && (begun = FIGURE.exec(text))) count += 1;
          if (count < n) return more();
          from = begun.index;
        }
        var at = text.indexOf(closing, from);
        if (at < 0) return more();
        from = at + closing.length;
        var doc = parse(text), found = doc.querySelectorAll("figure[data-chart]")[n - 1];
        var next = found && found.nextElementSibling, table = next && next.matches("table, .table-scroll");
        if (next && whole(table ? next : found)) {
          reader.cancel();
          return doc;
        }
        closing = table && text.indexOf("</table>", from) < 0 ? "</table>" : ">";
        return more();
      });
    }
    return more();
  }

  // This script runs inline in the embed page's head (layouts/embed/single.html): it asks for
  // the chart's page at once, while the CSS and the scripts it uses (charts.js) load, and shows
  // the chart once the page is parsed (#embed there, charts.js loaded).
  var parsed = new Promise(function (resolve) {
    if (document.readyState !== "loading") resolve();
    else document.addEventListener("DOMContentLoaded", resolve);
  }).then(function () {
    root = document.getElementById("embed");
    statusLine = root.querySelector(".embed-status");
  });
  var params = new URLSearchParams(location.search);
  var page = sitePath(params.get("page") || "", PAGE), n = parseInt(params.get("n") || "1", 10);
  if (!page || !(n >= 1)) {
    parsed.then(function () { statusLine.textContent = "No chart of this site named."; });
    return;
  }
  var url = new URL(page, location.href);
  var asked = fetch(url).then(function (r) {
    if (!r.ok) throw new Error(r.status + " " + r.statusText);
    return chartOf(r, n);
  });
  Promise.all([asked, parsed]).then(function (got) {
    var doc = got[0], found = doc.querySelectorAll("figure[data-chart]")[n - 1];
    if (!found) fail("that page has no chart number " + n);
    var figure = chartFrom(found);
    figure.dataset.source = url.href;
    root.replaceChildren(figure);
    var table = tableAfter(found);  // a caption may point to it ("as in the table below")
    if (table) root.appendChild(textTable(table));
    var back = root.appendChild(document.createElement("p"));
    var link = back.appendChild(document.createElement("a"));
    link.href = url.href;
    link.textContent = "From " + (doc.title || url.pathname);
    if (!figure.dataset.drawn) {  // Vega draws it, as any chart, when the reader asks
      var notice = root.insertBefore(document.createElement("p"), figure);
      notice.className = "embed-status";
      notice.textContent = "The build drew no picture of this chart: Explore draws it here.";
    }
    return Promise.all([window.fsatlasCharts.settle(figure, true), runsOf(figure).then(function (runs) {
      if (runs) root.insertBefore(runs, back);
    })]);
  }).then(function () {
    root.dataset.ready = "true";
  }).catch(function (error) {
    parsed.then(function () { statusLine.textContent = "Could not show the chart: " + error.message; });
    console.error("embed: " + error);
  });
})();
