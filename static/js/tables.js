// Sortable tables (click a heading of table.sortable) and column filters (div.column-filter with
// checkboxes naming data-group values). Without JavaScript the tables are shown whole.
(function () {
  "use strict";
  // Sizes sort by value (8 TiB < 8 EiB): the first number in a cell, times its unit; counts
  // written as powers (2^32 - 16 < 4,294,967,295 < 2^48) by theirs.
  var UNIT = { B: 1, bytes: 1, KiB: 1024, MiB: Math.pow(1024, 2), GiB: Math.pow(1024, 3), TiB: Math.pow(1024, 4),
               PiB: Math.pow(1024, 5), EiB: Math.pow(1024, 6), KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, PB: 1e15, EB: 1e18 };
  // The feature matrix's answers sort from the most to the least a reader gets, not alphabetically;
  // as words they still sort after every figure ("not documented" in a column of limits).
  var ANSWER = { "yes": "0", "read-write": "0", "partial": "1", "read-only": "1", "add-on": "2", "no": "3",
                 "not documented": "4" };
  function cellValue(row, index) {
    var cell = row.children[index];
    // a limit as the aggregate read it (aggregate.limit_sort: the rule check-data holds it to)
    if (cell && cell.dataset.sortNumber) return parseFloat(cell.dataset.sortNumber);
    var text = cell ? (cell.dataset.sort || cell.textContent).trim() : "";  // data-sort: the value without notes or citations
    if (ANSWER.hasOwnProperty(text)) return ANSWER[text];
    var power = /^(\d+)\^(\d+)(?:\s*-\s*(\d[\d,]*))?/.exec(text);  // a count written as a power: 2^64, 2^32 - 16
    if (power) return Math.pow(+power[1], +power[2]) - (power[3] ? parseFloat(power[3].replace(/,/g, "")) : 0);
    var found = /(\d[\d,]*(?:\.\d+)?)\s*(bytes|B|[KMGTPE]i?B)?\b/.exec(text);
    if (!found) return text.toLowerCase();
    return parseFloat(found[1].replace(/,/g, "")) * (UNIT[found[2]] || 1);
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, index) {
      th.tabIndex = 0;
      th.setAttribute("aria-sort", "none");
      function sort() {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, index), y = cellValue(b, index);
          if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;  // words ("unknown") after figures
          return (x > y ? 1 : x < y ? -1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (row) { body.appendChild(row); });
        table.querySelectorAll("thead th").forEach(function (other) { other.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  });
  document.querySelectorAll(".column-filter").forEach(function (filter) {
    var table = document.getElementById(filter.dataset.table);
    filter.hidden = false;
    filter.addEventListener("change", function () {
      var shown = {};
      filter.querySelectorAll("input").forEach(function (box) { shown[box.value] = box.checked; });
      table.querySelectorAll("[data-group]").forEach(function (cell) {
        cell.hidden = shown[cell.dataset.group] === false;
      });
    });
  });
})();
