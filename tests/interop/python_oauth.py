#!/usr/bin/env python3
"""Signs in to Kobana Dunning with the official Python SDK's OAuth client (`mcp` 2.3.0).

The SDK's `OAuthClientProvider` (an httpx2 auth) does what an assistant does when it is given
only the server's URL: gets the 401, discovers the protected-resource and authorization-server
metadata, registers (RFC 7591), sends the user to /authorize with PKCE S256 and the resource,
checks the RFC 9207 `iss` of the redirect, exchanges the code, and refreshes when the token
expires. The user's browser is played here by an httpx2 client that fetches the server's own
pages and submits their forms (sign-in, then consent) exactly as a person would, cookies and
CSRF fields included; it reads the final redirect instead of following it.

Checks: tools/list shows exactly the tools of the scopes the user's role could grant; a refresh
rotates both tokens; a token issued for the REST API (`resource=<base>/v1`) is refused at /mcp;
replaying a rotated refresh token revokes the grant, so the current access token stops working.

Usage:
    python_oauth.py http://127.0.0.1:PORT/mcp EMAIL PASSWORD EXPECTED_TOOLS.json

Prints one line per check and exits non-zero at the first failed one, naming it.
Run it with tests/interop/.venv/bin/python (setup.sh installs it).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import secrets
import sys
import time
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

# Nothing listens here: the browser stand-in reads the redirect to it instead of following it.
REDIRECT = "http://127.0.0.1:53682/callback"


class CheckFailed(Exception):
    """A check of this script did not hold."""


def check(condition: object, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def ok(message: str) -> None:
    print(f"ok   {message}", flush=True)


class Forms(HTMLParser):
    """The forms of a page: their action and their inputs' names and values."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append({"action": attributes.get("action", ""), "fields": {}, "buttons": []})
        elif tag == "input" and self.forms and "name" in attributes:
            self.forms[-1]["fields"][attributes["name"]] = attributes.get("value", "")
        elif tag == "button" and self.forms and "name" in attributes:
            self.forms[-1]["buttons"].append((attributes["name"], attributes.get("value", "")))


def forms_of(html: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


class Browser:
    """The user's browser: cookies, pages, forms; never JavaScript."""

    def __init__(self, email: str, password: str) -> None:
        self.email = email
        self.password = password
        self.http = httpx2.AsyncClient(follow_redirects=False, timeout=30.0)
        self.pages_seen: list[str] = []

    async def authorize(self, url: str) -> dict[str, str]:
        """Follows an authorization URL through the pages to the client's redirect; returns the
        redirect's query parameters."""
        response = await self.http.get(url)
        for _ in range(8):
            if response.status_code in (302, 303):
                location = response.headers["location"]
                if location.startswith(REDIRECT):
                    return {k: v[0] for k, v in parse_qs(urlparse(location).query).items()}
                check(location.startswith("/"), f"the server redirected the browser off-site: {location}")
                response = await self.http.get(urljoin(url, location))
                continue
            check(response.status_code == 200, f"page {response.url}: HTTP {response.status_code}: {response.text[:300]}")
            html = response.text
            check('name="viewport"' in html, "a page without the viewport meta tag")
            forms = forms_of(html)
            signin = next((f for f in forms if f["action"] == "/signin"), None)
            consent = next((f for f in forms if f["action"] == "/authorize"), None)
            if signin is not None:
                self.pages_seen.append("sign-in")
                check(signin["fields"].get("csrf"), "the sign-in form has no csrf field")
                fields = dict(signin["fields"], email=self.email, password=self.password)
                response = await self.http.post(urljoin(url, "/signin"), data=fields)
            elif consent is not None:
                self.pages_seen.append("consent")
                check(consent["fields"].get("csrf"), "the consent form has no csrf field")
                check(("decision", "allow") in consent["buttons"], f"no allow button on the consent page: {html[:500]}")
                fields = dict(consent["fields"], decision="allow")
                response = await self.http.post(urljoin(url, "/authorize"), data=fields)
            else:
                raise CheckFailed(f"a page with neither the sign-in nor the consent form: {html[:500]}")
        raise CheckFailed("the browser went round in circles")


class Memory(TokenStorage):
    """Tokens and the client registration, kept in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


async def initialize_status(http: httpx2.AsyncClient, url: str, token: str) -> int:
    """The HTTP status of an initialize sent with `token`."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}
    response = await http.post(
        url,
        json=body,
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
    )
    return response.status_code


async def run(url: str, email: str, password: str, expected: set[str]) -> None:
    base = f"{urlparse(url).scheme}://{urlparse(url).netloc}"
    browser = Browser(email, password)
    storage = Memory()
    redirect: dict[str, str] = {}

    async def redirect_handler(authorization_url: str) -> None:
        query = parse_qs(urlparse(authorization_url).query)
        check(query.get("code_challenge_method") == ["S256"], f"the SDK did not use S256: {authorization_url}")
        check(query.get("resource") == [url], f"the SDK named another resource: {query.get('resource')}")
        redirect.clear()
        redirect.update(await browser.authorize(authorization_url))

    async def callback_handler() -> AuthorizationCodeResult:
        check("code" in redirect, f"the redirect carried no code: {redirect}")
        return AuthorizationCodeResult(code=redirect["code"], state=redirect.get("state"), iss=redirect.get("iss"))

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="Kobana interop (Python SDK)",
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )

    async with httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(30.0, read=60.0)) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            check(storage.client_info is not None, "the SDK did not register")
            check(storage.client_info.client_id.startswith("cli_"), f"client_id {storage.client_info.client_id}")
            ok(f"registered as {storage.client_info.client_id}")
            check(browser.pages_seen == ["sign-in", "consent"], f"pages: {browser.pages_seen}")
            check(redirect.get("iss") == base, f"the redirect's iss: {redirect.get('iss')}")
            ok("signed in and consented through the pages; the redirect carried code, state and iss")
            first = storage.tokens
            check(first is not None and first.refresh_token, "no refresh token")
            ok(f"code exchanged with PKCE: scope {first.scope!r}, expires_in {first.expires_in}")

            tools = {tool.name for tool in (await client.list_tools()).tools}
            check(tools == expected, f"tools/list: missing {sorted(expected - tools)}, extra {sorted(tools - expected)}")
            ok(f"tools/list shows exactly the {len(tools)} tools of the granted scopes")

            # Past its expiry, the SDK refreshes before the next request.
            provider.context.token_expiry_time = time.time() - 1
            tools = {tool.name for tool in (await client.list_tools()).tools}
            second = storage.tokens
            check(second is not None and second.access_token != first.access_token, "the access token was not refreshed")
            check(second.refresh_token != first.refresh_token, "the refresh token did not rotate")
            check(tools == expected, "tools/list changed after the refresh")
            ok("refreshed: new access token, rotated refresh token, same tools")

    client_id = storage.client_info.client_id
    async with httpx2.AsyncClient(timeout=30.0) as http:
        # The same client asks for the REST API (RFC 8707 resource): that token is not for /mcp.
        verifier, challenge = pkce()
        query = urlencode(
            {
                "response_type": "code",
                "client_id": client_id,
                "redirect_uri": REDIRECT,
                "state": "api",
                "code_challenge": challenge,
                "code_challenge_method": "S256",
                "resource": f"{base}/v1",
            }
        )
        answer = await browser.authorize(f"{base}/authorize?{query}")
        check(answer.get("state") == "api", f"state: {answer}")
        token = await http.post(
            f"{base}/token",
            data={
                "grant_type": "authorization_code",
                "client_id": client_id,
                "code": answer["code"],
                "code_verifier": verifier,
                "redirect_uri": REDIRECT,
                "resource": f"{base}/v1",
            },
        )
        check(token.status_code == 200, f"token for /v1: {token.status_code} {token.text}")
        api_token = token.json()["access_token"]
        check(await initialize_status(http, url, api_token) == 401, "a token for /v1 was accepted at /mcp")
        me = await http.get(f"{base}/v1/me", headers={"Authorization": f"Bearer {api_token}"})
        check(me.status_code == 200, f"the /v1 token at /v1/me: {me.status_code}")
        ok("a token for another audience (/v1) is refused at /mcp and works at /v1")

        # The first refresh token was rotated away: presenting it again revokes the grant.
        check(await initialize_status(http, url, second.access_token) == 200, "the current token should work")
        replay = await http.post(
            f"{base}/token",
            data={"grant_type": "refresh_token", "client_id": client_id, "refresh_token": first.refresh_token},
        )
        check(replay.status_code == 400 and replay.json().get("error") == "invalid_grant", f"replay: {replay.text}")
        check(replay.headers.get("cache-control") == "no-store", "token errors must not be cached")
        check(await initialize_status(http, url, second.access_token) == 401, "the grant's access token still works")
        after = await http.post(
            f"{base}/token",
            data={"grant_type": "refresh_token", "client_id": client_id, "refresh_token": second.refresh_token},
        )
        check(after.status_code == 400, f"the newest refresh token outlived its grant: {after.text}")
        ok("a replayed refresh token is refused and revokes the grant: its access and refresh tokens stop working")
    await browser.http.aclose()


def describe(err: BaseException) -> str:
    while isinstance(err, BaseExceptionGroup) and len(err.exceptions) == 1:
        err = err.exceptions[0]
    return f"{type(err).__name__}: {err}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the MCP endpoint, e.g. http://127.0.0.1:8080/mcp")
    parser.add_argument("email")
    parser.add_argument("password")
    parser.add_argument("expected_tools", help="a JSON file listing the tool names the user's role grants")
    args = parser.parse_args()
    with open(args.expected_tools, encoding="utf-8") as f:
        expected = set(json.load(f))
    try:
        asyncio.run(run(args.url, args.email, args.password, expected))
    except CheckFailed as err:
        print(f"FAIL {err}", file=sys.stderr, flush=True)
        return 1
    except Exception as err:  # an SDK error is a failed interop check too
        print(f"FAIL {describe(err)}", file=sys.stderr, flush=True)
        return 1
    print("python_oauth: all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
