// Live updates: a websocket per page pushes frames. The game page asks for its live part
// rendered into the frame ("live", matches/livepart.py: table.js swaps it in) and sends its
// moves over the same socket (window.spieltischLive.send); other frames make the page refresh
// a part with htmx. Without websockets #live-poll still polls every 20 s (see match_live.html).
(function () {
  "use strict";
  var openSocket = null;  // the page's socket while it is open
  // For table.js: send a message over the open socket (false: none open, post over HTTP).
  window.spieltischLive = {
    send: function (message) {
      if (!openSocket || openSocket.readyState !== 1) return false;
      openSocket.send(JSON.stringify(message));
      return true;
    }
  };
  function wsUrl(path) {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  }
  function setBadge(count) {
    var badge = document.getElementById("turn-badge");
    if (!badge) return;
    badge.textContent = count;
    badge.dataset.count = count;
    badge.hidden = !count;
    var menuBadge = document.getElementById("menu-turn-badge");  // the phone's menu button
    if (menuBadge) {
      menuBadge.firstChild.nodeValue = count;
      menuBadge.hidden = !count;
    }
    document.dispatchEvent(new CustomEvent("live:turns", {detail: {count: count}}));
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
      if (openSocket === socket) {
        openSocket = null;
        document.dispatchEvent(new CustomEvent("live:closed"));
      }
      if (ev.code >= 4400 && ev.code < 4500) return; // refused: no point in retrying
      var next = Math.min((delay || 1000) * 2, 30000);
      setTimeout(function () { connect(path, onFrame, next); }, delay || 1000);
    };
    socket.onopen = function () {
      delay = 1000;
      // Frames sent before this socket joined (while the page loaded, or while it was away)
      // are not sent again: ask for the state they carry (a "state" frame). The game page asks
      // for its live part in the frames, in the page's language.
      var hello = {type: "hello"};
      if (document.getElementById("live") && window.htmx) hello.live = document.documentElement.lang || "en";
      socket.send(JSON.stringify(hello));
      openSocket = socket;
      window.__liveSocketOpen = true;
    };
  }
  var pendingVersion = 0;
  function refreshPending() {
    if (pendingVersion && !document.querySelector("#live form.htmx-request")) {
      var v = pendingVersion;
      pendingVersion = 0;
      refreshBoard(v);
    }
  }
  document.addEventListener("htmx:afterSettle", refreshPending);
  document.addEventListener("htmx:afterRequest", function () { setTimeout(refreshPending, 0); });
  function refreshBoard(version) {
    // the poller inside #live asks for the live part; table.js swaps it in place
    var live = document.getElementById("live");
    var poll = document.getElementById("live-poll");
    // Not while this page's own move is under way: its answer brings the new position, unless
    // a later change (a bot's answer) came meanwhile: asked for when the answer is in.
    if (document.querySelector("#live form.htmx-request")) {
      pendingVersion = Math.max(pendingVersion, Number(version));
      return;
    }
    if (live && poll && Number(version) > Number(live.dataset.version) && window.htmx) {
      window.htmx.trigger(poll, "refresh");
    }
  }
  // The chat's unread mark (#chat-unread on the chat drawer's summary): lines by others count
  // while the chat is not in sight (the drawer closed or off screen, or the page hidden); opening or
  // seeing it reads them (POST data-read-url: the server's mark and chat notifications).
  function chatInSight() {
    var box = document.getElementById("chat-box");
    if (!box || !box.open || document.visibilityState !== "visible") return false;
    var r = box.getBoundingClientRect();  // open but below the fold (a phone): not read yet
    return r.bottom > 0 && r.top < window.innerHeight;
  }
  function setChatUnread(count) {
    var mark = document.getElementById("chat-unread");
    if (!mark) return;
    mark.dataset.count = count;
    mark.hidden = !count;
    var n = mark.querySelector(".chat-unread-n");
    if (n) n.textContent = count;
    var jumpBadge = document.getElementById("chat-jump-unread");
    if (jumpBadge) {
      jumpBadge.textContent = count;
      jumpBadge.hidden = !count;
    }
  }
  // Wherever the chat is out of sight (a phone keeps it folded at the bottom of the table), a
  // small "Chat" button stays in the corner with the unread count; it opens the chat.
  function setUpChatJump() {
    var box = document.getElementById("chat-box");
    var mark = document.getElementById("chat-unread");
    if (!box || !mark || document.getElementById("chat-jump")) return;
    var jump = document.createElement("a");
    jump.href = "#chat-box";
    jump.id = "chat-jump";
    jump.className = "chat-jump";
    jump.hidden = true;
    jump.appendChild(document.createTextNode(mark.dataset.jumpLabel || "Chat"));
    var badge = document.createElement("span");
    badge.className = "chat-unread";
    badge.id = "chat-jump-unread";
    badge.hidden = !Number(mark.dataset.count);
    badge.textContent = mark.dataset.count || "0";
    var sr = document.createElement("span");
    sr.className = "visually-hidden";
    sr.textContent = " " + (mark.dataset.unreadLabel || "unread");
    jump.appendChild(document.createTextNode(" "));
    jump.appendChild(badge);
    jump.appendChild(sr);
    // On the game table the button sits in the page's head row, in the flow: it covers nothing
    // (floating in a corner it hid the clocks on a desktop, cauldrons and cards on a phone).
    var head = document.querySelector(".game-table .table-head");
    if (head) {
      jump.classList.add("in-head");
      jump.hidden = false;
      head.appendChild(jump);
    } else {
      document.body.appendChild(jump);
    }
    jump.addEventListener("click", function (ev) {
      ev.preventDefault();
      box.open = true;
      box.scrollIntoView({block: "end"});
      var input = document.getElementById("chat-text");
      if (input) input.focus({preventScroll: true});
      readChat();
    });
    if (!("IntersectionObserver" in window)) return;
    new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!head) jump.hidden = e.isIntersecting;
        if (e.isIntersecting) readChat();  // scrolled to the open chat: its lines are read
      });
    }).observe(box);
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
  // Chat lines carry their id: a line the page has already (its own line swapped in by the
  // form's answer, or fetched after a reconnect) is not added twice, and lines stay in order.
  function chatList() { return document.getElementById("chat-messages"); }
  // The newest lines are the ones to read: the list opens scrolled to its end and stays there as
  // lines arrive, unless the reader has scrolled up to read older ones.
  function toNewest(list) { if (list) list.scrollTop = list.scrollHeight; }
  function atNewest(list) { return list.scrollHeight - list.scrollTop - list.clientHeight < 8; }
  function lastChatId() {
    var list = chatList(), last = 0;
    if (!list) return 0;
    list.querySelectorAll("li[data-id]").forEach(function (li) { last = Math.max(last, Number(li.dataset.id)); });
    return last;
  }
  function placeLine(list, li) {
    var id = Number(li.dataset.id), before = null;
    list.querySelectorAll("li[data-id]").forEach(function (other) {
      if (!before && Number(other.dataset.id) > id) before = other;
    });
    list.insertBefore(li, before);
  }
  function addChatLine(line) {
    var list = chatList();
    if (!list) return false;
    if (line.id && list.querySelector('li[data-id="' + line.id + '"]')) return false;
    var li = document.createElement("li");
    if (line.id) li.dataset.id = line.id;
    var who = document.createElement("strong");
    who.textContent = line.user;
    li.appendChild(who);
    li.appendChild(document.createTextNode(": " + line.text));
    addReportLink(li, line);
    var stay = atNewest(list);
    placeLine(list, li);
    if (stay) toNewest(list);
    return true;
  }
  // The "report" link of a server-rendered line (chat.html), for signed-in readers and not on
  // their own lines: the chat's data-report-* attributes hold its path and the query after the id.
  function addReportLink(li, line) {
    var chat = document.getElementById("chat");
    if (!chat || !chat.dataset.reportUrl || !line.id || line.user === chat.dataset.me) return;
    var a = document.createElement("a");
    a.className = "report-link";
    a.rel = "nofollow";
    a.href = chat.dataset.reportUrl + "?chat=" + encodeURIComponent(line.id) + (chat.dataset.reportRest || "");
    a.textContent = chat.dataset.reportLabel || "report";
    li.appendChild(document.createTextNode(" "));
    li.appendChild(a);
  }
  var fetchingChat = false;
  function catchUpChat(last) {
    // The state frame after a (re)connect names the newest line: fetch what this page missed.
    var chat = document.getElementById("chat");
    if (!chat || !chat.dataset.linesUrl || fetchingChat || !(Number(last) > lastChatId())) return;
    fetchingChat = true;
    fetch(chat.dataset.linesUrl + "?after=" + lastChatId(), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : {lines: []}; })
      .then(function (data) {
        // (the state frame's chat_unread has counted them already)
        (data.lines || []).forEach(addChatLine);
      })
      .catch(function () {})
      .then(function () { fetchingChat = false; });
  }
  // The chat form's answer replaces #chat with the lines as they were when it was rendered: a
  // line pushed meanwhile (another player's, in the same second) is put back after the swap.
  var heldLines = [];
  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (ev.detail.target && ev.detail.target.id === "chat") {
      heldLines = Array.prototype.slice.call(ev.detail.target.querySelectorAll("#chat-messages li[data-id]"));
    }
  });
  document.addEventListener("htmx:afterSettle", function (ev) {
    if (ev.detail && ev.detail.target && ev.detail.target.id === "chat") toNewest(chatList());
    if (!heldLines.length) return;
    var list = chatList();
    var held = heldLines;
    heldLines = [];
    if (!list) return;
    held.forEach(function (li) {
      if (!list.querySelector('li[data-id="' + li.dataset.id + '"]')) placeLine(list, li);
    });
  });
  function onFrame(frame) {
    if (frame.type === "turn" || frame.type === "invitation") {
      // A live list on this page (the lobby, My games: frontend/live_lists.py) asks now.
      document.dispatchEvent(new CustomEvent("live:lists"));
    }
    if (frame.type === "turn") { setBadge(frame.count); return; }
    if (frame.type === "state") {
      if (frame.turns !== undefined) setBadge(frame.turns);
      if (frame.unread !== undefined) {
        document.dispatchEvent(new CustomEvent("live:notification", {detail: {unread: frame.unread}}));
      }
      if (frame.version !== undefined && frame.version !== null) refreshBoard(frame.version);
      if (frame.chat_unread !== undefined) { setChatUnread(frame.chat_unread); readChat(); }
      if (frame.chat_last !== undefined) catchUpChat(frame.chat_last);
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
      if (addChatLine(frame)) onChatLine(frame);
      return;
    }
    if (frame.type === "match.update") refreshBoard(frame.version);
    // The rendered live part (table.js swaps it), and the answers to this page's socket moves.
    if (frame.type === "live") document.dispatchEvent(new CustomEvent("live:part", {detail: frame}));
    if (frame.type === "acted" || frame.type === "refused") {
      document.dispatchEvent(new CustomEvent("live:reply", {detail: frame}));
    }
  }
  document.addEventListener("toggle", function (ev) {
    if (ev.target && ev.target.id === "chat-box") {
      readChat();
      if (ev.target.open) toNewest(chatList());
    }
  }, true);
  document.addEventListener("visibilitychange", readChat);
  document.addEventListener("DOMContentLoaded", function () {
    setTimeout(function () {  // after table.js opened or closed the drawers for this screen
      readChat();
      toNewest(chatList());
    }, 0);
    setUpChatJump();
    var match = document.querySelector("[data-match]");
    if (match && document.getElementById("live")) {
      connect("/ws/matches/" + match.dataset.match + "/", onFrame);
    } else if (document.body.dataset.user === "1") {
      connect("/ws/me/", onFrame);
    }
  });
})();
