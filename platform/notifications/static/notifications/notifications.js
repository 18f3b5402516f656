// The bell's unread count, live: frontend/live.js turns a {"type": "notification"} frame from
// the websocket into a "live:notification" event.
(function () {
  "use strict";
  document.addEventListener("live:notification", function (ev) {
    var frame = ev.detail || {};
    var badge = document.getElementById("notif-badge");
    if (!badge) return;
    var count = Number(frame.unread) || 0;
    badge.textContent = count;
    badge.dataset.count = count;
    badge.hidden = !count;
    // The bell's tooltip: the newest line while something is unread, else just its label.
    var bell = document.getElementById("notif-bell");
    if (bell) bell.title = frame.text || (count ? bell.title : bell.getAttribute("aria-label"));
  });
})();
