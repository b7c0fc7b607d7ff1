// Site search over the index Pagefind builds into public/pagefind/ at build time: no server,
// no internet. Results are grouped by the section each page belongs to.
(function () {
  "use strict";
  var root = document.getElementById("search");
  if (!root) return;
  var form = root.querySelector("form"), input = form.elements.q;
  var statusLine = root.querySelector(".search-status"), out = root.querySelector(".search-results");
  var engine = import(new URL("pagefind.js", new URL(root.dataset.index, location.href)).href);

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function excerpt(html) {  // Pagefind marks hits with <mark>; keep those, text for the rest
    var p = el("p"), parts = html.split(/<mark>|<\/mark>/);
    parts.forEach(function (part, i) {
      var text = part.replace(/<[^>]*>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"').replace(/&#39;/g, "'");
      p.appendChild(i % 2 ? el("mark", {}, text) : document.createTextNode(text));
    });
    return p;
  }

  function run(query) {
    out.textContent = "";
    if (!query) { statusLine.textContent = "Type a filesystem, an option (data=writeback), a workload…"; return; }
    statusLine.textContent = "Searching…";
    engine.then(function (pagefind) { return pagefind.search(query); }).then(function (search) {
      return Promise.all(search.results.slice(0, 60).map(function (r) { return r.data(); }));
    }).then(function (pages) {
      var groups = {};
      pages.forEach(function (page) {
        var section = (page.filters.section || ["Other"])[0] || "Other";
        (groups[section] = groups[section] || []).push(page);
      });
      Object.keys(groups).sort().forEach(function (section) {
        var box = el("section"), list = el("ul");
        box.appendChild(el("h2", {}, section + " (" + groups[section].length + ")"));
        groups[section].forEach(function (page) {
          var li = el("li");
          li.appendChild(el("a", { href: page.url }, page.meta.title || page.url));
          li.appendChild(excerpt(page.excerpt));
          list.appendChild(li);
        });
        box.appendChild(list);
        out.appendChild(box);
      });
      statusLine.textContent = pages.length ? pages.length + " pages found for \u201c" + query + "\u201d." :
        "Nothing found for \u201c" + query + "\u201d.";
      root.dataset.searched = query;
    }).catch(function (error) {
      statusLine.textContent = "Search is not available: " + error.message;
      console.error("search: " + error);
    });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    history.replaceState(null, "", "?q=" + encodeURIComponent(input.value));
    run(input.value.trim());
  });
  input.value = new URLSearchParams(location.search).get("q") || "";
  run(input.value.trim());
})();
