"""Security headers on every HTTP answer: pages, static files, the API and its errors.

An ASGI middleware rather than a route decorator, so that nothing the app answers (a 404 from
the static files, a 422 from validation, a 500) goes out without them. The policy is strict:
scripts, styles, images and connections only from the server itself; no inline script or style
(the web client keeps its code in /assets and places things with classes, not style="");
no plugins, no <base>, no framing by another site.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        # data: for the favicon drawn in index.html
        "img-src 'self' data:",
        # 'self' covers the table WebSocket (ws:/wss: on the same host)
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Not no-referrer: under it a browser sends "Origin: null" with the page's own POSTs, which
    # the API refuses as another site's; same-origin sends nothing to other sites.
    "Referrer-Policy": "same-origin",
    # For browsers that predate frame-ancestors.
    "X-Frame-Options": "DENY",
}


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response of ``app``, and
    ``Strict-Transport-Security`` to those served over HTTPS.

    HSTS only there: sent over plain HTTP it means nothing (a browser ignores it, RFC 6797), and
    a server tried out at http://127.0.0.1 must not tell a browser to insist on HTTPS. Behind a
    proxy the scheme is the one the proxy says (``X-Forwarded-Proto``, read from the proxies in
    ``TRUCO_PROXIES`` only).
    """

    def __init__(
        self, app: ASGIApp, headers: dict[str, str] | None = None, hsts_seconds: int = 0
    ) -> None:
        self.app = app
        self.headers = SECURITY_HEADERS if headers is None else headers
        self.secure = {**self.headers}
        if hsts_seconds > 0:
            self.secure["Strict-Transport-Security"] = f"max-age={hsts_seconds}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                wanted = self.secure if scope.get("scheme") == "https" else self.headers
                for name, value in wanted.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def add_security_headers(app: Starlette, hsts_seconds: int = 0) -> None:
    """Wrap ``app``'s whole middleware stack in :class:`SecurityHeaders`.

    Outside Starlette's ServerErrorMiddleware (which ``add_middleware`` would put it inside), so
    that a 500 carries the headers too.
    """
    build = app.build_middleware_stack

    def build_secured() -> ASGIApp:
        return SecurityHeaders(build(), hsts_seconds=hsts_seconds)

    app.build_middleware_stack = build_secured  # type: ignore[method-assign]
