// Der Orden: set a standing order from the table (issue 22; games/orden/templates/orden/orders.html).
// The button's order replaces the seat's order of the same kind; the others are kept (PUT replaces
// the whole list). A static file: the CSP allows no inline script.
(function () {
  "use strict";

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function reveal(root) {
    (root || document).querySelectorAll(".ord-orders[hidden]").forEach(function (el) {
      if (el.closest(".game-table[data-match]")) el.hidden = false;
    });
  }

  function save(button) {
    var box = button.closest(".ord-orders");
    var table = button.closest(".game-table[data-match]");
    if (!box || !table) return;
    var status = box.querySelector(".ord-orders-status");
    var url = "/api/matches/" + table.dataset.match + "/orders/";
    var order = JSON.parse(button.dataset.order);
    var headers = {"Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json"};
    button.disabled = true;
    fetch(url, {credentials: "same-origin", headers: headers})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        var orders = (data.orders || []).filter(function (o) { return o.kind !== order.kind; });
        orders.push(order);
        return fetch(url, {method: "PUT", credentials: "same-origin", headers: headers,
                           body: JSON.stringify({orders: orders})});
      })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        box.querySelectorAll(".ord-order").forEach(function (b) { b.setAttribute("aria-pressed", b === button ? "true" : "false"); });
        if (status) status.textContent = box.dataset.saved;
      })
      .catch(function () { if (status) status.textContent = box.dataset.failed; })
      .then(function () { button.disabled = false; });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".ord-order");
    if (button) save(button);
  });
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSwap", function (e) { reveal(e.target); });
})();
