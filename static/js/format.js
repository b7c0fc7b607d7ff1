// The site's one way to print a figure in the browser: three significant digits with thousands
// separators ("2,270", "12.3", "0.000123"), the precision a few repetitions support; the full
// value is in the downloads. Twin of significant() in runner/fsatlas/site/knowledge.py. Also
// the words of a count, and of a notice about an address's parameters, as every page writes them.
// DISPLAY: each base unit as the site shows it (DISPLAY_UNITS in knowledge.py). In the browser
// window.fsatlasFormat; in Node (scripts/draw-charts.mjs, through static/js/explorer-view.js) the module.
(function (root, make) {
  var api = make();
  if (typeof module === "object" && module.exports) module.exports = api; else root.fsatlasFormat = api;
})(this, function () {
  "use strict";
  // A value of an address as a notice names it: quoted (an empty or blank one stays visible),
  // at most 40 characters.
  function named(value) {
    var chars = Array.from(value);
    return "\u201c" + (chars.length > 40 ? chars.slice(0, 40).join("") + "\u2026" : value) + "\u201d";
  }
  return {
    DISPLAY: {
      "bytes/s": { factor: 1e-6, unit: "MB/s", title: "MB/s (10^6 bytes/s)" },
      "bytes": { factor: 1e-6, unit: "MB", title: "MB (10^6 bytes)" },
      "ns": { factor: 1e-3, unit: "µs", title: "µs" },
      "ops/s": { factor: 1, unit: "ops/s", title: "operations per second" },
      "s": { factor: 1, unit: "s", title: "seconds" },
      "percent": { factor: 1, unit: "%", title: "% of one CPU" }
    },
    significant: function (value) {
      if (value === null || value === undefined || isNaN(value)) return "–";
      return value.toLocaleString("en", { maximumSignificantDigits: 3 });
    },
    // An RSD as every page prints it ("5.1 %", knowledge.shown_rsd), from the explorer's value,
    // which Python rounded to that tenth (site/explorer.py); null for none (one sample).
    rsd: function (value) {
      return value === null || value === undefined ? null : value.toLocaleString("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + " %";
    },
    // A count with its noun, singular for one: "1 run", "5 runs", "1,000 runs".
    count: function (n, noun) {
      return n.toLocaleString("en") + " " + noun + (n === 1 ? "" : "s");
    },
    named: named,
    // The site's one rule for a parameter an address gives more than once with different values
    // (?mode=abs&mode=ratio; the explorer's and /compare/'s single values): the first is read, as
    // URLSearchParams.get reads it, and the others are named. The notice's words without their
    // full stop; null where it is given once, or only ever with one value.
    repeated: function (params, name) {
      var all = params.getAll(name).filter(function (v, i, list) { return list.indexOf(v) === i; });
      return all.length > 1 ? "The address gives " + name + "= more than once; reading " + named(all[0]) + ", not " +
        all.slice(1).map(named).join(", ") : null;
    }
  };
});
