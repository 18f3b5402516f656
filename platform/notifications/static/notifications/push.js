// Settings page: subscribe this browser to web push (or stop it).
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
  function say(text) { var el = document.getElementById("push-message"); if (el) el.textContent = text; }
  function send(method, api, body) {
    return fetch(api, {method: method, credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()}});
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push");
    if (!box) return;
    var on = document.getElementById("push-on"), off = document.getElementById("push-off");
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      on.disabled = off.disabled = true;
      say(box.dataset.unsupported || "This browser cannot receive pushes.");
      return;
    }
    on.addEventListener("click", function () {
      navigator.serviceWorker.register(box.dataset.sw, {scope: "/"}).then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: b64ToBytes(box.dataset.key)});
      }).then(function (sub) {
        return send("POST", box.dataset.api, sub.toJSON());
      }).then(function (r) { say(r.ok ? "✓" : "✗ " + r.status); })
        .catch(function (e) { say("✗ " + e); });
    });
    off.addEventListener("click", function () {
      navigator.serviceWorker.getRegistration("/").then(function (reg) {
        return reg && reg.pushManager.getSubscription();
      }).then(function (sub) {
        if (!sub) return null;
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () { return send("DELETE", box.dataset.api, {endpoint: endpoint}); });
      }).then(function () { say("✓"); }).catch(function (e) { say("✗ " + e); });
    });
  });
})();
