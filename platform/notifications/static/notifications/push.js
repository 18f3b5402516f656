// Settings page: subscribe this browser to web push (or stop it). The messages come translated
// from the template (data-msg-* on #push); #push-message gets data-state="ok" or "error".
(function () {
  "use strict";
  function b64ToBytes(s) {
    var pad = "=".repeat((4 - s.length % 4) % 4);
    var raw = atob((s + pad).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function send(method, api, body) {
    return fetch(api, {method: method, credentials: "same-origin", body: body && JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()}});
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push");
    if (!box) return;
    var on = document.getElementById("push-on"), off = document.getElementById("push-off");
    var msg = box.dataset;
    function say(text, ok, detail) {
      var el = document.getElementById("push-message");
      if (!el) return;
      el.textContent = text + (detail ? " (" + detail + ")" : "");
      el.dataset.state = ok ? "ok" : "error";
    }
    function fail(e) { say(msg.msgFailed, false, e && (e.message || e.name || String(e))); }
    function refreshCount() {  // "Browsers receiving pushes: n" as the server now has it
      return fetch(box.dataset.api, {credentials: "same-origin"}).then(function (r) { return r.json(); })
        .then(function (data) {
          var n = document.getElementById("push-count");
          if (n) n.textContent = data.subscriptions;
        }).catch(function () {});
    }
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      on.disabled = off.disabled = true;
      say(msg.msgUnsupported, false);
      return;
    }
    on.addEventListener("click", function () {
      if (window.Notification && Notification.permission === "denied") {
        say(msg.msgDenied, false);
        return;
      }
      navigator.serviceWorker.register(box.dataset.sw, {scope: "/"}).then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: b64ToBytes(box.dataset.key)});
      }).then(function (sub) {
        return send("POST", box.dataset.api, sub.toJSON());
      }).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        say(msg.msgOn, true);
        return refreshCount();
      }).catch(fail);
    });
    off.addEventListener("click", function () {
      navigator.serviceWorker.getRegistration("/").then(function (reg) {
        return reg ? reg.pushManager.getSubscription() : null;
      }).then(function (sub) {
        if (!sub) { say(msg.msgNone, true); return null; }
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () {
          return send("DELETE", box.dataset.api, {endpoint: endpoint});
        }).then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          say(msg.msgOff, true);
          return refreshCount();
        });
      }).catch(fail);
    });
  });
})();
