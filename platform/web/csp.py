"""Content-Security-Policy (Django's own middleware, settings.SECURE_CSP): scripts only from
our static files — no inline script, no on*= handler, no eval — so injected markup cannot run
code. The websocket is allowed to this very host: 'self' covers ws:/wss: in current browsers,
and the host's ws:// and wss:// origins are added for browsers that do not treat them so."""
from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.utils.csp import CSP

POLICY = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    # <style> elements and stylesheets only from our files; style="..." attributes stay allowed:
    # the game boards colour and size pieces per element (a style attribute cannot run code).
    "style-src": [CSP.SELF],
    "style-src-elem": [CSP.SELF],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF],  # the push service worker /sw.js
    "manifest-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}


class SiteCSPMiddleware(ContentSecurityPolicyMiddleware):
    def process_response(self, request, response):
        from django.conf import settings

        for attr, name in (("_csp_config", "SECURE_CSP"), ("_csp_ro_config", "SECURE_CSP_REPORT_ONLY")):
            config = getattr(response, attr, None) or getattr(settings, name, None)
            if config and "connect-src" in config:
                try:
                    host = request.get_host()
                except DisallowedHost:
                    continue
                setattr(response, attr, {**config, "connect-src": [*config["connect-src"], f"ws://{host}",
                                                                   f"wss://{host}"]})
        return super().process_response(request, response)
