// Sortable tables (click a heading of table.sortable) and column filters (div.column-filter with
// checkboxes naming data-group values). Without JavaScript the tables are shown whole.
(function () {
  "use strict";
  function cellValue(row, index) {
    var cell = row.children[index];
    var text = cell ? cell.textContent.trim() : "";
    var number = parseFloat(text.replace(/,/g, ""));
    return isNaN(number) ? text.toLowerCase() : number;
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
