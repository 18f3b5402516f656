// The game table: the live part (#live) is swapped in place (no page load, the scroll position
// stays). Moves go over the page's match socket when it is open (live.js): the new live part
// comes back rendered in a frame, to this page and the others at once. Otherwise, and for a move
// the socket refuses, they are posted with htmx and the answer is swapped; refusals (400/403/409)
// are swapped too, so the message shows beside the board. Without JavaScript every form still
// posts and redirects.
(function () {
  "use strict";
  var WIDE = "(min-width: 900px)";
  var drawers = {};  // data-drawer -> open: the player's choice survives swaps of #live
  var lastForm = null;  // the move form whose answer is awaited
  var anchor = null;  // {key, top}: an element of the board that must not move on screen

  // Keep the view still across a swap: the element the player acted in (else the one nearest
  // the top of the screen) is found again by its data-anchor and scrolled back to where it was.
  // (The browser's own scroll anchoring is off for the table: it cannot follow replaced nodes.)
  function pickAnchor(form) {
    var best = form && form.closest("[data-anchor]");
    if (!best) {
      var bestTop = Infinity;
      document.querySelectorAll("#live [data-anchor], #board").forEach(function (e) {
        var r = e.getBoundingClientRect();
        if (r.bottom > 0 && r.top < window.innerHeight && Math.abs(r.top) < Math.abs(bestTop)) {
          best = e;
          bestTop = r.top;
        }
      });
    }
    return best ? {key: best.dataset.anchor, top: best.getBoundingClientRect().top} : null;
  }

  function anchorSelector(key) {
    return key ? '#live [data-anchor="' + key + '"]' : "#board";
  }

  function restoreAnchor() {
    if (!anchor) return;
    var e = document.querySelector(anchorSelector(anchor.key));
    if (e) window.scrollBy(0, e.getBoundingClientRect().top - anchor.top);
    anchor = null;
  }

  function setUpDrawers(root) {
    root.querySelectorAll("details[data-drawer]").forEach(function (d) {
      var key = d.dataset.drawer;
      if (Object.prototype.hasOwnProperty.call(drawers, key)) d.open = drawers[key];
      else d.open = window.matchMedia(WIDE).matches;  // beside the board when there is room
    });
  }

  function postInPlace(root) {
    root.querySelectorAll("form[method=post]:not([data-plain]):not([hx-post])").forEach(function (form) {
      if (!form.closest("#live")) return;
      form.setAttribute("hx-post", form.getAttribute("action"));
      window.htmx.process(form);
    });
  }

  function ready() {
    if (!window.htmx || !document.querySelector("[data-match]")) return;
    var htmx = window.htmx;
    // The drawers are served open (no script: everything in sight); they get their state as soon
    // as this script runs, not at htmx's first load event, which comes a task later: the socket
    // could open in between, with the chat still open on a phone.
    setUpDrawers(document);
    htmx.onLoad(function (elt) {
      var root = elt.querySelectorAll ? elt : document;
      if (root === document.body || root.id === "live" || root.querySelector("#live")) {
        setUpDrawers(root);
        postInPlace(root);
      }
    });
    document.addEventListener("toggle", function (ev) {
      var d = ev.target;
      if (d.dataset && d.dataset.drawer) drawers[d.dataset.drawer] = d.open;
    }, true);
    function isMove(detail) {  // the swap answers the awaited move form (not a push or a poll)
      var elt = detail.requestConfig && detail.requestConfig.elt;
      return !!elt && elt.tagName === "FORM" && elt === lastForm;
    }
    document.body.addEventListener("htmx:beforeRequest", function (ev) {
      var elt = ev.detail.elt;
      if (elt.tagName === "FORM" && elt.closest("#live")) lastForm = elt;
    });
    document.body.addEventListener("htmx:beforeSwap", function (ev) {
      if (ev.detail.target.id !== "live") return;
      var status = ev.detail.xhr.status;
      if (status === 400 || status === 403 || status === 409) {
        ev.detail.shouldSwap = true;
        ev.detail.isError = false;
      }
      if (ev.detail.shouldSwap) anchor = pickAnchor(isMove(ev.detail) ? lastForm : null);
    });
    document.body.addEventListener("htmx:afterSwap", function (ev) {
      if (ev.detail.target.id !== "live" && document.body.contains(ev.detail.target)) return;
      // The drawers get the player's choice now, in the swap's task: htmx's load hooks run only
      // when the swap settles (at once with base.html's settle delay of 0, later if a swap asks
      // for one), and the new part must not be painted with the drawers as served (the clocks
      // closed), the chat below them jumping up and back. (onLoad does it again.)
      var live = document.getElementById("live");
      if (live) setUpDrawers(live);
      restoreAnchor();
    });
    document.body.addEventListener("htmx:afterSettle", function (ev) {
      if (!isMove(ev.detail)) return;  // a push or a poll: leave the focus alone
      lastForm = null;
      focusResult();
    });
    socketMoves(htmx);
  }

  function focusResult() {
    // keyboard players continue where the move's result is: the message, else the board
    var to = document.getElementById("move-messages") || document.getElementById("board");
    if (to) {
      if (!to.hasAttribute("tabindex")) to.setAttribute("tabindex", "-1");
      to.focus({preventScroll: true});
    }
  }

  // Moves over the socket: the move form's fields go as {"type": "act", "form": ...} (the server
  // reads them as it reads the POST: matches/socketmoves.py). The answer that matters is the
  // live part, rendered for this page in the frame every page gets (live:part); a refusal, a
  // socket that closes before the answer, or no answer in time send the same form over HTTP
  // instead, whose answer shows the reason in place. (The version the form carries makes that
  // safe: a move that went through after all is refused as stale, never played twice.)
  function socketMoves(htmx) {
    var pending = null;  // {form, submitter, ref, version, acted, timer}
    var viaHttp = null;  // the form htmx posts next (the fallback)
    var sent = 0;
    function isMoveForm(form) {
      return form.tagName === "FORM" && !!form.closest("#live") &&
        /\/matches\/\d+\/act\/$/.test(form.getAttribute("action") || "");
    }
    function finish() {
      var p = pending;
      pending = null;
      if (p) {
        clearTimeout(p.timer);
        p.form.classList.remove("is-sending");
      }
      return p;
    }
    function overHttp() {
      var p = finish();
      if (!p || !document.body.contains(p.form)) return;  // the page moved on meanwhile
      viaHttp = p.form;
      if (p.submitter && p.form.contains(p.submitter)) p.form.requestSubmit(p.submitter);
      else p.form.requestSubmit();
    }
    function refresh() {  // moved, but its live part did not come: fetch it
      finish();
      var poll = document.getElementById("live-poll");
      if (poll) htmx.trigger(poll, "refresh");
    }
    document.addEventListener("submit", function (ev) {
      var form = ev.target;
      if (!isMoveForm(form)) return;
      if (viaHttp === form) {  // the fallback: htmx posts it
        viaHttp = null;
        return;
      }
      if (pending) {  // one move at a time; its answer brings the new position
        ev.preventDefault();
        ev.stopImmediatePropagation();
        return;
      }
      var fields = {};
      var data = ev.submitter ? new FormData(form, ev.submitter) : new FormData(form);
      data.forEach(function (value, key) {
        if (key !== "csrfmiddlewaretoken" && typeof value === "string") fields[key] = value;
      });
      var version = Number(fields.version);
      var ref = "m" + (++sent);
      if (!Number.isInteger(version) || !window.spieltischLive ||
          !window.spieltischLive.send({type: "act", form: fields, version: version, ref: ref})) return;
      ev.preventDefault();
      ev.stopImmediatePropagation();  // (htmx's own listener is on the form: it does not post)
      pending = {form: form, submitter: ev.submitter, ref: ref, version: version, acted: false,
                 timer: setTimeout(overHttp, 5000)};
      form.classList.add("is-sending");
    }, true);
    document.addEventListener("live:reply", function (ev) {
      var reply = ev.detail;
      if (!pending || reply.ref !== pending.ref) return;
      if (reply.type === "refused") { overHttp(); return; }
      pending.acted = true;
      var live = document.getElementById("live");
      if (live && Number(live.dataset.version) >= Number(reply.version)) { finish(); return; }
      clearTimeout(pending.timer);
      pending.timer = setTimeout(refresh, 3000);
    });
    document.addEventListener("live:closed", function () {
      if (pending) (pending.acted ? refresh : overHttp)();
    });
    document.addEventListener("live:part", function (ev) {
      var frame = ev.detail;
      var live = document.getElementById("live");
      if (!live || !(Number(frame.version) > Number(live.dataset.version))) return;
      // an HTTP move under way: its answer brings the new position (and its message)
      if (document.querySelector("#live form.htmx-request")) return;
      var mine = pending && Number(frame.version) > pending.version ? pending : null;
      var token = document.querySelector("input[name=csrfmiddlewaretoken]");
      anchor = pickAnchor(mine ? mine.form : null);
      swapPart(htmx, live, frame.html);
      var now = document.getElementById("live");
      if (now && token) {  // the forms post with the token this page has
        now.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (i) { i.value = token.value; });
      }
      if (mine) {
        finish();
        focusResult();
      }
    });
  }
  // The socket's part replaces #live as it is: htmx's own swap cleans up every old node and
  // settles every new one (a frame to paint: 40 -> 31 ms for Alchemist's part on the player's
  // turn, 28 -> 18 ms for a waiting seat's; docs/performance.md). The page's scripts get the events
  // htmx's swap fires (afterSwap, load, afterSettle), and the focus stays on its element (by
  // id) as htmx keeps it. A part that is not one #live element goes through htmx.
  function swapPart(htmx, live, html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var fresh = tpl.content.firstElementChild;
    if (!fresh || fresh.id !== "live" || tpl.content.children.length !== 1) {
      htmx.swap(live, html, {swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0},
                {eventInfo: {target: live, socketPart: true}});
      return;
    }
    var focused = document.activeElement;
    var focusId = focused && focused !== live && live.contains(focused) ? focused.id : "";
    live.replaceWith(fresh);
    htmx.process(fresh);
    var again = focusId && document.getElementById(focusId);
    if (again) again.focus({preventScroll: true});
    var detail = {elt: fresh, target: fresh, socketPart: true};
    htmx.trigger(fresh, "htmx:afterSwap", detail);
    htmx.trigger(fresh, "htmx:load", {elt: fresh});
    htmx.trigger(fresh, "htmx:afterSettle", detail);
  }
  // A switch (an order kind with nothing to choose: on or off) acts when flipped: its form is
  // sent at once (in place, like every form of the table).
  document.addEventListener("change", function (ev) {
    var box = ev.target;
    if (box.matches && box.matches("input[data-autosubmit]") && box.form) box.form.requestSubmit();
  });
  // The orders' review opens over the board: a click elsewhere or Escape closes it.
  function closeReview(ev) {
    var review = document.getElementById("orders-review");
    if (!review || !review.open) return;
    if (ev.type === "keydown" ? ev.key === "Escape" : !review.contains(ev.target)) review.open = false;
  }
  document.addEventListener("click", closeReview);
  document.addEventListener("keydown", closeReview);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
