"""Serving the app: werkzeug's threaded server with timeouts, and where a tablet finds it.

Every connection gets ``SOCKET_TIMEOUT_S`` (app config) on its socket: a client that
sends half a request, or stops reading the live stream, is dropped after that long
instead of holding a thread for ever. With ``--host 0.0.0.0`` the server prints the
machine's address on the local network, and a QR code of it, rather than 127.0.0.1,
which a tablet cannot open.

>>> lan_url("127.0.0.1", 8000)
'http://127.0.0.1:8000/'
>>> print(qr_text("http://192.168.1.20:8000/").splitlines()[0][:10])
██████████
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import logging
import socket
from typing import Any

from flask import Flask
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler
from werkzeug.serving import make_server as werkzeug_server

from tracker.rulespec import text_of as rules_text

#: Addresses that mean "every interface".
ANY_HOST = ("0.0.0.0", "", "::")
#: A private address no packet is sent to: connecting a UDP socket to it only asks the
#: kernel which interface (and so which address) would reach the local network.
_PROBE = ("10.255.255.255", 1)


def make_server(app: Flask, host: str, port: int) -> BaseWSGIServer:
    """A threaded server for ``app`` whose sockets time out (``SOCKET_TIMEOUT_S``)."""
    timeout = float(app.config.get("SOCKET_TIMEOUT_S") or 0) or None

    class Handler(WSGIRequestHandler):
        """Werkzeug's handler with a socket timeout (socketserver applies it in setup)."""

    Handler.timeout = timeout
    return werkzeug_server(host, port, app, threaded=True, request_handler=Handler)


def lan_address() -> str:
    """This machine's address on the local network, or 127.0.0.1 without one."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        address = str(probe.getsockname()[0])
        if not ipaddress.ip_address(address).is_unspecified:
            return address
    with contextlib.suppress(OSError):
        address = socket.gethostbyname(socket.gethostname())
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return "127.0.0.1"


def lan_url(host: str, port: int) -> str:
    """The address to open from another device: the LAN address for ``0.0.0.0``."""
    shown = lan_address() if host in ANY_HOST else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with block characters, for a terminal."""
    import qrcode

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def qr_svg(url: str) -> bytes:
    """A QR code of ``url`` as an SVG image (for the page)."""
    import qrcode
    import qrcode.image.svg

    image: Any = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg: bytes = image.to_string()
    return svg


def serve(app: Flask, host: str, port: int, *, banner: str = "") -> int:
    """Serve ``app`` until interrupted; prints where to open it (and a QR code of that
    when listening on every interface) and the referee's token."""
    # One log line per request is noise here: the video and the live stream never end.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        print(f"uno-table: cannot listen on {host}:{port}: {exc}", flush=True)
        return 2
    url = lan_url(host, server.server_port)
    app.config["PUBLIC_URL"] = url
    token = app.config["REFEREE_TOKEN"]
    service = app.extensions["uno_table"]["service"]
    match = service.match
    if banner:
        print(banner, flush=True)
    players = ", ".join(match.players).encode("utf-8", "backslashreplace").decode()
    print(f"Match {match.id} ({rules_text(service.game.rules)}): {players}", flush=True)
    print(f"Database: {app.config['DATABASE']}", flush=True)
    if host in ANY_HOST:
        print("The referee's tablet (same network): scan this, or open the link below", flush=True)
        with contextlib.suppress(UnicodeEncodeError):
            print(qr_text(f"{url}?token={token}"), end="", flush=True)
    print(f"Spectators: {url}", flush=True)
    print(f"Referee:    {url}?token={token}", flush=True)
    print(f"Referee token: {token}", flush=True)
    return serve_until_interrupted(server)


def serve_until_interrupted(server: BaseWSGIServer) -> int:
    """Serve until Ctrl-C, then close the listening socket; the exit status (0)."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
