// Der Orden: set a standing order from the table (games/orden/templates/orden/orders.html).
// The button's order replaces the seat's order of the same kind; the others are kept (PUT replaces
// the whole list). A static file: the CSP allows no inline script.
(function () {
  "use strict";

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function urlOf(el) {
    var table = el.closest(".game-table[data-match]");
    return table ? "/api/matches/" + table.dataset.match + "/orders/" : null;
  }

  function same(a, b) {
    return a.kind === b.kind && a.policy === b.policy && (a.min_rank || null) === (b.min_rank || null);
  }

  // mark the button of the order the seat holds now (nothing marked: none of these)
  function mark(box, orders) {
    box.querySelectorAll(".ord-order").forEach(function (b) {
      var o = JSON.parse(b.dataset.order);
      b.setAttribute("aria-pressed", orders.some(function (x) { return same(x, o); }) ? "true" : "false");
    });
    box.querySelectorAll(".ord-order-switch").forEach(function (c) {
      var o = JSON.parse(c.dataset.order);
      c.checked = orders.some(function (x) { return same(x, o); });
    });
  }

  function reveal(root) {
    (root || document).querySelectorAll(".ord-orders[hidden]").forEach(function (box) {
      var url = urlOf(box);
      if (!url) return;
      box.hidden = false;
      fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { if (data) mark(box, data.orders || []); })
        .catch(function () {});
    });
  }

  // a button sets its order; a switch sets it when ticked and removes it when unticked
  function save(button) {
    var box = button.closest(".ord-orders");
    var url = box && urlOf(box);
    if (!url) return;
    var status = box.querySelector(".ord-orders-status");
    var order = JSON.parse(button.dataset.order);
    var off = button.type === "checkbox" && !button.checked;
    var headers = {"Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json"};
    button.disabled = true;
    fetch(url, {credentials: "same-origin", headers: headers})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        var orders = (data.orders || []).filter(function (o) { return o.kind !== order.kind; });
        if (!off) orders.push(order);
        return fetch(url, {method: "PUT", credentials: "same-origin", headers: headers,
                           body: JSON.stringify({orders: orders})});
      })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        mark(box, off ? [] : [order]);
        if (status) status.textContent = box.dataset.saved;
      })
      .catch(function () { if (status) status.textContent = box.dataset.failed; })
      .then(function () { button.disabled = false; });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".ord-order");
    if (button) save(button);
  });
  document.addEventListener("change", function (e) {
    if (e.target.classList && e.target.classList.contains("ord-order-switch")) save(e.target);
  });
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSwap", function (e) { reveal(e.target); });
})();
