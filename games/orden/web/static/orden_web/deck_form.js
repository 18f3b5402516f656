// The deck builder's running total of the Nachziehstapel, with the minimum the rules need
// (the page works without it; the server checks everything).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var inputs = document.querySelectorAll("input.deck-count"), out = document.getElementById("deck-total");
    if (!out) return;
    var min = Number(out.dataset.min) || 0;
    function total() {
      var n = 0;
      inputs.forEach(function (i) { n += parseInt(i.value || "0", 10) || 0; });
      out.textContent = n;
      out.classList.toggle("too-few", n < min);
    }
    inputs.forEach(function (i) { i.addEventListener("input", total); });
    total();
  });
})();
