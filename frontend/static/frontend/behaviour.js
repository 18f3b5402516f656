// Small page behaviours that used to be inline handlers (the Content-Security-Policy allows
// scripts only from static files): delegated, so content htmx swaps in works too.
//   <form data-confirm="Really?">   asks before submitting (htmx forms: use hx-confirm)
//   <select data-autosubmit>        submits its form when changed
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field && field.hasAttribute && field.hasAttribute("data-autosubmit") && field.form) {
      field.form.requestSubmit ? field.form.requestSubmit() : field.form.submit();
    }
  });
})();
