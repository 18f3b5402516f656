// Service worker (served at /sw.js so its scope is the whole site): shows pushes and opens
// the game when a notification is clicked.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data && event.data.text()}; }
  event.waitUntil(self.registration.showNotification(data.title || "Spieltisch", {
    body: data.body || "", tag: data.tag, data: {url: data.url || "/notifications/"}, renotify: !!data.tag
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(clients.matchAll({type: "window", includeUncontrolled: true}).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === url && "focus" in list[i]) return list[i].focus();
    }
    return clients.openWindow(url);
  }));
});
