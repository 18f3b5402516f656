"""Content-Security-Policy (Django's own middleware, settings.SECURE_CSP): scripts only from
our static files — no inline script, no on*= handler, no eval — so injected markup cannot run
code. The websocket is allowed to this very host: 'self' covers ws:/wss: in current browsers,
and the host's ws:// and wss:// origins are added for browsers that do not treat them so."""
from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.utils.csp import CSP, build_policy

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
            own = getattr(response, attr, None)
            config = own or getattr(settings, name, None)
            if config and "connect-src" in config:
                try:
                    host = request.get_host()
                except DisallowedHost:
                    continue
                if own is None and _without_nonce(config):  # the site's policy: built once per host
                    header = str(CSP.HEADER_ENFORCE if attr == "_csp_config" else CSP.HEADER_REPORT_ONLY)
                    if header not in response:
                        response.headers[header] = _site_policy(config, host)
                    continue
                setattr(response, attr, {**config, "connect-src": [*config["connect-src"], f"ws://{host}",
                                                                   f"wss://{host}"]})
        return super().process_response(request, response)


_built: dict = {}  # (id of a setting's config, host) -> (that config, header value)


def _without_nonce(config: dict) -> bool:
    return not any(CSP.NONCE in v for v in config.values() if isinstance(v, (list, tuple, set)))


def _site_policy(config: dict, host: str) -> str:
    """The header for ``config`` (a setting, without a nonce) with the host's websocket origins:
    the same text for every response, so kept (the config object is compared: a changed setting
    builds anew)."""
    key = (id(config), host)
    hit = _built.get(key)
    if hit is not None and hit[0] is config:
        return hit[1]
    policy = build_policy({**config, "connect-src": [*config["connect-src"], f"ws://{host}", f"wss://{host}"]})
    if len(_built) < 256:  # a few hosts (ALLOWED_HOSTS); a flood of odd ones is not kept
        _built[key] = (config, policy)
    return policy
