// The header's menu on a phone: the links fold behind a button (aria-expanded); Escape or a
// click elsewhere closes it and gives the focus back to the button. Without JavaScript the
// button stays hidden and the links wrap onto as many rows as they need (site.css).
(function () {
  "use strict";
  var PHONE = "(max-width: 699px)";
  function ready() {
    var button = document.getElementById("menu-toggle");
    var nav = document.getElementById("site-nav");
    if (!button || !nav) return;
    document.documentElement.classList.add("has-menu");
    button.hidden = false;
    function set(open, focus) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      nav.classList.toggle("open", open);
      if (open && focus) {
        var first = nav.querySelector("a, button");
        if (first) first.focus();
      }
    }
    button.addEventListener("click", function () {
      set(button.getAttribute("aria-expanded") !== "true", true);
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        set(false);
        button.focus();
      }
    });
    document.addEventListener("click", function (ev) {
      if (button.getAttribute("aria-expanded") === "true" && !nav.contains(ev.target) && !button.contains(ev.target)) {
        set(false);
      }
    });
    // Tabbing out of the open menu closes it (the links beyond it are the page's).
    nav.addEventListener("focusout", function (ev) {
      if (window.matchMedia(PHONE).matches && ev.relatedTarget && !nav.contains(ev.relatedTarget)
          && ev.relatedTarget !== button) set(false);
    });
    window.matchMedia(PHONE).addEventListener("change", function () { set(false); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
