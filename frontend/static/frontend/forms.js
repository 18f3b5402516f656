// Small form helps (no inline scripts: the CSP allows only files). Pages work without them.
// 1. Text limits: every text field with a maxlength shows "n / max" while typing, so nothing is
//    cut without warning (the server-side hint "at most N characters" stays for no-JS).
// 2. The invitation form shows only the fields of the chosen time control: fields marked
//    data-clock-mode="days|bank" hide unless select[name=clock_mode] has that value.
(function () {
  "use strict";
  var FIELDS = "input[maxlength]:not([type=hidden]):not([type=number]), textarea[maxlength]";

  function counterFor(field) {
    var max = Number(field.getAttribute("maxlength"));
    if (!max || max < 10 || field.dataset.counted) return;
    field.dataset.counted = "1";
    var out = document.createElement("small");
    out.className = "char-count";
    out.setAttribute("aria-live", "polite");
    if (field.id) out.id = field.id + "-count";
    function update() {
      var n = field.value.length;
      out.textContent = n + " / " + max;
      out.classList.toggle("at-limit", n >= max);
    }
    field.addEventListener("input", update);
    field.insertAdjacentElement("afterend", out);
    update();
  }

  function timeControl(root) {
    var select = root.querySelector("select[name=clock_mode]");
    if (!select || select.dataset.wired) return;
    select.dataset.wired = "1";
    function apply() {
      document.querySelectorAll("[data-clock-mode]").forEach(function (field) {
        var wrapper = field.closest("div, p") || field;
        wrapper.hidden = field.dataset.clockMode !== select.value;
      });
    }
    select.addEventListener("change", apply);
    apply();
  }

  function init(root) {
    root.querySelectorAll(FIELDS).forEach(counterFor);
    timeControl(root);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  // Parts htmx swaps in later (the chat after a send) get their counters too.
  document.addEventListener("htmx:load", function (ev) { init(ev.target.parentNode || document); });
})();
