// Replay: arrow keys step back and forward (Home/End: start and end) through the same links the
// buttons are, so a step swaps #replay-frame in place with htmx (no page load, the URL follows).
(function () {
  "use strict";
  var KEYS = {ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last"};
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var id = KEYS[ev.key];
    var link = id && document.getElementById(id);
    if (!link) return;
    ev.preventDefault();
    link.click();
  });
  // keep the reader's place: after a step the step's move line is where the eye goes
  document.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.detail.target && ev.detail.target.id === "replay-frame") {
      var nav = document.getElementById("replay-next");
      if (nav && document.activeElement === document.body) nav.focus({preventScroll: true});
    }
  });
})();
