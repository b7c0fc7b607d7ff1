// Site search over the index Pagefind builds into public/pagefind/ at build time: no server,
// no internet. One ranked list: pages whose title holds every word of the query first, then
// those whose title and keywords do, then the pages that merely mention it, each tier in
// Pagefind's own order; each entry names its section.
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

  // pages whose data is fetched at once: a common word ("ext4") matches every result page, and
  // each page's data is a request of its own (10,000 of them at the scale of #65); data-batch
  // on #search sets another (a test's small site)
  function batchSize() { return Number(root.dataset.batch) || 50; }

  function words(text) { return (text || "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean); }

  // 0: the title holds every word of the query, 1: the title and the page's keywords
  // (data-pagefind-meta) together do, 2: the text only. Decided over every page found before any
  // is listed, from Pagefind's raw results alone (no page's data): a search for each word names
  // the metadata fields it matched in (matchedMetaFields, Pagefind 1.5), by Pagefind's own
  // matching (prefixes, stems). Headings no longer make a tier of their own: only a page's data
  // (its sub-results) names them, and Pagefind's score already weights a heading's words.
  function tiers(pagefind, wanted) {
    return Promise.all(wanted.map(function (w) { return pagefind.search(w); })).then(function (searches) {
      var ranks = searches.map(function (search) {  // each word's rank on each page it matched
        var rank = {};
        search.results.forEach(function (r) {
          var fields = r.matchedMetaFields || [];
          rank[r.id] = fields.indexOf("title") >= 0 ? 0 : fields.indexOf("keywords") >= 0 ? 1 : 2;
        });
        return rank;
      });
      return function (id) { return Math.max.apply(null, [0].concat(ranks.map(function (rank) { return id in rank ? rank[id] : 2; }))); };
    });
  }

  function run(query) {
    out.textContent = "";
    if (!query) { statusLine.textContent = "Type a filesystem, an option (data=writeback), a workload…"; return; }
    statusLine.textContent = "Searching…";
    // Pagefind is asked twice and keeps every page either answer holds: the query as typed finds
    // the pages that show a term as it is written (rand-read-4k, a run id, m-b6d0b06748), which
    // its words alone miss; the query as its words finds "data=writeback", which Pagefind's own
    // splitting of the term misses on some pages. The site adds order and lists BATCH pages at a
    // time (a button lists the next), never drops a page: the count is of every page found.
    engine.then(function (pagefind) {
      var asWords = words(query).join(" ");
      return Promise.all([pagefind.search(query), asWords && asWords !== query ? pagefind.search(asWords) : null,
                          tiers(pagefind, words(query))]);
    }).then(function (searches) {
      var seen = {}, found = [], tier = searches.pop();
      searches.forEach(function (search) {
        ((search && search.results) || []).forEach(function (r) { if (!seen[r.id]) { seen[r.id] = true; found.push(r); } });
      });
      found = found.map(function (r, i) { return { r: r, tier: tier(r.id), i: i }; })
        .sort(function (a, b) { return a.tier - b.tier || a.i - b.i; }).map(function (x) { return x.r; });
      var list = el("ol", { "class": "search-list" }), shown = 0, BATCH = batchSize();
      var more = el("button", { type: "button", "class": "search-more" });
      out.appendChild(list);
      out.appendChild(more);
      function say() {  // counts by the site's one plural rule (static/js/format.js)
        statusLine.textContent = !found.length ? "Nothing found for \u201c" + query + "\u201d." :
          window.fsatlasFormat.count(found.length, "page") + " found for \u201c" + query + "\u201d" +
          (shown < found.length ? "; the first " + shown + (shown === 1 ? " is listed." : " are listed.") : ".");
        more.hidden = shown >= found.length;
        more.textContent = "List " + Math.min(BATCH, found.length - shown) + " more";
      }
      function next() {  // the next batch's pages, in the order decided above, after those listed
        var batch = found.slice(shown, shown + BATCH);
        return Promise.all(batch.map(function (r) { return r.data(); })).then(function (pages) {
          var first = null;
          pages.forEach(function (page) {
            var li = el("li"), link = el("a", { href: page.url }, page.meta.title || page.url);
            li.appendChild(link);
            li.appendChild(el("span", { "class": "search-section muted" }, " \u2014 " + ((page.filters.section || [])[0] || "Other")));
            li.appendChild(excerpt(page.excerpt));
            list.appendChild(li);
            first = first || link;
          });
          shown += batch.length;
          say();
          return first;
        });
      }
      more.addEventListener("click", function () {
        more.disabled = true;
        // the reader goes on at the first page just listed (the button may hide: the last batch)
        next().then(function (first) { more.disabled = false; if (first) first.focus(); });
      });
      return next().then(function () { root.dataset.searched = query; });
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
