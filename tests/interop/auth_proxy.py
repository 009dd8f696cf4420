#!/usr/bin/env python3
"""A tiny reverse proxy that signs every request with a bearer token.

The MCP conformance suite connects without credentials, while every request to the server
needs `Authorization: Bearer <token>`. This proxy sits between them on 127.0.0.1 and forwards
each request unchanged (method, path and query, headers including Host and Origin, body),
adding the Authorization header when the client sent none, and hands back the server's status,
headers and body unchanged. Start the server with `--public-url` set to this proxy's URL, so
the Origin and resource metadata the suite sees are the server's own.

Usage:
    KOBANA_DUNNING_TOKEN=kd_at_... auth_proxy.py --upstream http://127.0.0.1:PORT --listen 127.0.0.1:0

It prints `proxy listening on http://HOST:PORT` once it accepts connections (port 0 picks a
free one). Standard library only: the interop tests must not depend on more than the pinned
clients.
"""

from __future__ import annotations

import argparse
import http.client
import os
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Hop-by-hop headers (RFC 9110 section 7.6.1) describe one connection, not the message: they
# are not forwarded in either direction. Content-Length is recomputed from the body read.
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
}


def make_handler(upstream: urllib.parse.SplitResult, token: str, verbose: bool) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.1 so clients that keep connections alive (Node's fetch) are served properly;
        # every answer therefore carries an exact Content-Length.
        protocol_version = "HTTP/1.1"

        def _read_body(self) -> bytes | None:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                chunks = []
                while True:
                    size = int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
                    if size == 0:
                        # Trailers, if any, end with an empty line.
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        break
                    chunks.append(self.rfile.read(size))
                    self.rfile.readline()
                return b"".join(chunks)
            length = self.headers.get("Content-Length")
            return self.rfile.read(int(length)) if length else None

        def _forward(self) -> None:
            body = self._read_body()
            # A list, not a dict: repeated headers go through as they came.
            headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP]
            if not any(k.lower() == "host" for k, _ in headers):
                headers.append(("Host", upstream.netloc))
            if not any(k.lower() == "authorization" for k, _ in headers):
                headers.append(("Authorization", f"Bearer {token}"))
            if body is not None:
                headers.append(("Content-Length", str(len(body))))
            conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=120)
            try:
                # skip_host: the client's Host goes through as sent (the suite's DNS-rebinding
                # probes set their own).
                conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for name, value in headers:
                    conn.putheader(name, value)
                conn.endheaders(body)
                resp = conn.getresponse()
                data = resp.read()
                status, reason, resp_headers = resp.status, resp.reason, resp.getheaders()
            except OSError as err:
                status, reason, data = 502, "Bad Gateway", f"auth_proxy: upstream unreachable: {err}\n".encode()
                resp_headers = [("Content-Type", "text/plain")]
            finally:
                conn.close()
            self.send_response_only(status, reason)
            for name, value in resp_headers:
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            # 204 and 304 have no body and must not announce one.
            if status not in (204, 304) and self.command != "HEAD":
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if status not in (204, 304) and self.command != "HEAD":
                self.wfile.write(data)
            if verbose:
                sys.stderr.write(f"auth_proxy: {self.command} {self.path} -> {status}\n")

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _forward

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
            pass  # one line per request only with --verbose, from _forward

    return Handler


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", required=True, help="the server's base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--listen", default="127.0.0.1:0", help="address to listen on (default 127.0.0.1:0)")
    parser.add_argument("--verbose", action="store_true", help="log one line per request on stderr")
    args = parser.parse_args()

    # From the environment, not argv, so the token does not show in the process list.
    token = os.environ.get("KOBANA_DUNNING_TOKEN", "")
    if not token:
        parser.error("KOBANA_DUNNING_TOKEN must hold the bearer token to add")
    upstream = urllib.parse.urlsplit(args.upstream)
    if upstream.scheme != "http" or not upstream.hostname or not upstream.port:
        parser.error(f"--upstream must be http://HOST:PORT, got {args.upstream!r}")
    host, _, port = args.listen.rpartition(":")
    if host not in ("127.0.0.1", "localhost"):
        parser.error("--listen must be on 127.0.0.1: the proxy hands its bearer token to anyone who connects")

    server = ThreadingHTTPServer((host, int(port)), make_handler(upstream, token, args.verbose))
    server.daemon_threads = True
    bound_host, bound_port = server.server_address[:2]
    print(f"proxy listening on http://{bound_host}:{bound_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
