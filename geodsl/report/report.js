// geodsl report: sort the problem table by a column, filter it by words and status.
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filter = document.getElementById("filter");
  var status = document.getElementById("status");
  var shown = document.getElementById("shown");

  function cellValue(row, column, numeric) {
    var cell = row.cells[column];
    var text = cell.getAttribute("data-value");
    if (text === null) { text = cell.textContent; }
    if (numeric) {
      var value = parseFloat(text);
      return isNaN(value) ? -Infinity : value;
    }
    return text.toLowerCase();
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
    th.addEventListener("click", function () {
      var numeric = th.classList.contains("num");
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var sorted = rows.slice().sort(function (a, b) {
        var x = cellValue(a, column, numeric), y = cellValue(b, column, numeric);
        var order = x < y ? -1 : x > y ? 1 : 0;
        if (order === 0) { order = parseInt(a.getAttribute("data-index"), 10) - parseInt(b.getAttribute("data-index"), 10); }
        return ascending ? order : -order;
      });
      sorted.forEach(function (row) { body.appendChild(row); });
    });
  });

  function apply() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
    var wanted = status.value;
    var count = 0;
    rows.forEach(function (row) {
      var haystack = row.getAttribute("data-search");
      var ok = (!wanted || row.getAttribute("data-status") === wanted) &&
        words.every(function (w) { return haystack.indexOf(w) >= 0; });
      row.classList.toggle("hidden", !ok);
      if (ok) { count += 1; }
    });
    shown.textContent = count + " of " + rows.length + " shown";
  }

  filter.addEventListener("input", apply);
  status.addEventListener("change", apply);
  apply();
})();
