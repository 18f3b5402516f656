// Live updates: a websocket per page pushes frames; the page then refreshes its live part
// with htmx. Without websockets #live-poll still polls every 20 s (see match_live.html).
(function () {
  "use strict";
  function wsUrl(path) {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  }
  function setBadge(count) {
    var badge = document.getElementById("turn-badge");
    if (!badge) return;
    badge.textContent = count;
    badge.dataset.count = count;
    badge.hidden = !count;
    document.title = document.title.replace(/^\(\d+\) /, "");
    if (count) document.title = "(" + count + ") " + document.title;
  }
  function connect(path, onFrame, delay) {
    var socket;
    try { socket = new WebSocket(wsUrl(path)); } catch (e) { return; }
    socket.onmessage = function (msg) {
      var frame;
      try { frame = JSON.parse(msg.data); } catch (e) { return; }
      onFrame(frame);
    };
    socket.onclose = function (ev) {
      if (ev.code >= 4400 && ev.code < 4500) return; // refused: no point in retrying
      var next = Math.min((delay || 1000) * 2, 30000);
      setTimeout(function () { connect(path, onFrame, next); }, delay || 1000);
    };
    socket.onopen = function () {
      delay = 1000;
      // Frames sent before this socket joined (while the page loaded, or while it was away)
      // are not sent again: ask for the state they carry (a "state" frame).
      socket.send(JSON.stringify({type: "hello"}));
      window.__liveSocketOpen = true;
    };
  }
  function refreshBoard(version) {
    // the poller inside #live asks for the live part; table.js swaps it in place
    var live = document.getElementById("live");
    var poll = document.getElementById("live-poll");
    // (not while this page's own move is under way: its answer brings the new position)
    if (document.querySelector("#live form.htmx-request")) return;
    if (live && poll && Number(version) > Number(live.dataset.version) && window.htmx) {
      window.htmx.trigger(poll, "refresh");
    }
  }
  // The chat's unread mark (#chat-unread on the chat drawer's summary): lines by others count
  // while the chat is not in sight (the drawer closed, or the page hidden); opening or
  // seeing it reads them (POST data-read-url: the server's mark and chat notifications).
  function chatInSight() {
    var box = document.getElementById("chat-box");
    return !!box && box.open && document.visibilityState === "visible";
  }
  function setChatUnread(count) {
    var mark = document.getElementById("chat-unread");
    if (!mark) return;
    mark.dataset.count = count;
    mark.hidden = !count;
    var n = mark.querySelector(".chat-unread-n");
    if (n) n.textContent = count;
  }
  function readChat() {
    var mark = document.getElementById("chat-unread");
    if (!mark || !Number(mark.dataset.count) || !chatInSight()) return;
    var token = document.querySelector("#chat input[name=csrfmiddlewaretoken]");
    setChatUnread(0);
    fetch(mark.dataset.readUrl, {method: "POST", credentials: "same-origin",
      headers: {"X-CSRFToken": token ? token.value : ""}}).catch(function () {});
  }
  function onChatLine(frame) {
    var chat = document.getElementById("chat");
    var mark = document.getElementById("chat-unread");
    if (!mark || !chat || frame.user === chat.dataset.me) return;
    setChatUnread(Number(mark.dataset.count || 0) + 1);
    readChat();
  }
  function onFrame(frame) {
    if (frame.type === "turn") { setBadge(frame.count); return; }
    if (frame.type === "state") {
      if (frame.turns !== undefined) setBadge(frame.turns);
      if (frame.unread !== undefined) {
        document.dispatchEvent(new CustomEvent("live:notification", {detail: {unread: frame.unread}}));
      }
      if (frame.version !== undefined && frame.version !== null) refreshBoard(frame.version);
      if (frame.chat_unread !== undefined) { setChatUnread(frame.chat_unread); readChat(); }
      return;
    }
    // Notification frames (notifications app): its own script updates the bell.
    if (frame.type === "notification") {
      document.dispatchEvent(new CustomEvent("live:notification", {detail: frame}));
      return;
    }
    if (frame.type === "invitation") {
      // An invitation's seats changed: its page reloads the seat list (#seats, polled too).
      var seats = document.getElementById("seats");
      if (seats && window.htmx) window.htmx.trigger(seats, "refresh");
      return;
    }
    if (frame.type === "chat") {
      var list = document.getElementById("chat-messages");
      if (list) {
        var li = document.createElement("li");
        var who = document.createElement("strong");
        who.textContent = frame.user;
        li.appendChild(who);
        li.appendChild(document.createTextNode(": " + frame.text));
        list.appendChild(li);
      }
      onChatLine(frame);
      return;
    }
    if (frame.type === "match.update") refreshBoard(frame.version);
  }
  document.addEventListener("toggle", function (ev) {
    if (ev.target && ev.target.id === "chat-box") readChat();
  }, true);
  document.addEventListener("visibilitychange", readChat);
  document.addEventListener("DOMContentLoaded", function () {
    setTimeout(readChat, 0);  // after table.js opened or closed the drawers for this screen
    var match = document.querySelector("[data-match]");
    if (match && document.getElementById("live")) {
      connect("/ws/matches/" + match.dataset.match + "/", onFrame);
    } else if (document.body.dataset.user === "1") {
      connect("/ws/me/", onFrame);
    }
  });
})();
