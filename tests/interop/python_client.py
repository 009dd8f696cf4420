#!/usr/bin/env python3
"""Drives the Kobana Dunning MCP endpoint with the official Python SDK (`mcp` 2.3.0).

Each mode is one real client connection the way an application would open it:
  legacy      the 2025 handshake (initialize); the client offers 2025-11-25, the server 2025-06-18
  auto        server/discover first, so the 2026-07-28 era, without the elicitation capability
  2026-07-28  the stateless era adopted directly, with an elicitation callback: destructive
              tools are confirmed (or declined) through the SDK's input_required round trip

Usage:
    KOBANA_DUNNING_TOKEN=kd_at_... python_client.py http://127.0.0.1:PORT/mcp [--mode MODE ...]

Prints one line per check and exits non-zero at the first failed one, naming it.
Run it with tests/interop/.venv/bin/python (setup.sh installs it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

MODES = ("legacy", "auto", "2026-07-28")
# What each mode must end up speaking: the server counter-offers 2025-06-18 to the 2025-11-25
# that legacy clients ask for; auto finds the stateless era through server/discover.
EXPECTED_VERSION = {"legacy": "2025-06-18", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


class CheckFailed(Exception):
    """A check of this script did not hold."""


def check(condition: object, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def ok(mode: str, message: str) -> None:
    print(f"ok   [{mode}] {message}", flush=True)


def text_of(result: types.CallToolResult) -> str:
    check(len(result.content) == 1, f"expected one content item, got {len(result.content)}")
    item = result.content[0]
    check(isinstance(item, types.TextContent), f"expected a text item, got {type(item).__name__}")
    return item.text


def json_of(result: types.CallToolResult, what: str) -> Any:
    text = text_of(result)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise CheckFailed(f"{what}: the text item is not JSON ({err}): {text[:300]}") from None


def tool_error(result: types.CallToolResult, code: str, what: str) -> dict[str, Any]:
    """The /v1-style error envelope of an isError result, checked to carry `code`."""
    check(result.is_error, f"{what}: expected isError, got a success: {text_of(result)[:300]}")
    error = json_of(result, what).get("error", {})
    check(error.get("code") == code, f"{what}: expected error code {code}, got {error}")
    return error


def tool_ok(result: types.CallToolResult, what: str) -> Any:
    check(not result.is_error, f"{what}: unexpected isError: {text_of(result)[:500]}")
    return json_of(result, what)


class Elicitation:
    """The user behind the 2026-07-28 client: answers each confirmation as told, and remembers
    what it was asked so the question itself can be checked."""

    def __init__(self) -> None:
        self.answer: str = "decline"
        self.messages: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.messages.append(getattr(params, "message", ""))
        if self.answer == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action=self.answer)


async def pending_charges(client: Client, count: int) -> list[str]:
    body = tool_ok(await client.call_tool("dunning_charges_list", {"status": "pending", "per_page": 50}), "list pending")
    # An agreement's installment is canceled only with its agreement: take charges of their own.
    ids = [charge["id"] for charge in body["data"] if charge["origin"] == "direct"]
    check(len(ids) >= count, f"the demo data should have {count} pending charges, found {len(ids)}")
    return ids[:count]


async def charge_status(client: Client, charge_id: str) -> str:
    body = tool_ok(await client.call_tool("dunning_charges_get", {"id": charge_id}), "dunning_charges_get")
    return body["data"]["status"]


async def common_checks(client: Client, mode: str) -> None:
    """What every mode must see alike: the catalogue, reads, resources and prompts."""
    check(
        client.protocol_version == EXPECTED_VERSION[mode],
        f"negotiated {client.protocol_version}, expected {EXPECTED_VERSION[mode]}",
    )
    ok(mode, f"connected, protocol {client.protocol_version}")

    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in ("dunning_me", "dunning_charges_list", "dunning_charges_cancel"):
        check(name in tools, f"tools/list lacks {name}: {sorted(tools)}")
    cancel = tools["dunning_charges_cancel"].annotations
    check(cancel is not None, "dunning_charges_cancel has no annotations")
    check(cancel.destructive_hint is True, f"dunning_charges_cancel destructiveHint: {cancel.destructive_hint}")
    check(cancel.open_world_hint is False, f"dunning_charges_cancel openWorldHint: {cancel.open_world_hint}")
    check(cancel.read_only_hint is False, f"dunning_charges_cancel readOnlyHint: {cancel.read_only_hint}")
    ok(mode, f"tools/list: {len(tools)} tools, dunning_charges_cancel destructive and closed-world")

    me = tool_ok(await client.call_tool("dunning_me", {}), "dunning_me")
    check(me["data"]["organization"]["environment"] == "sandbox", f"dunning_me: not the sandbox demo: {me}")
    ok(mode, "dunning_me: the sandbox demo organization")

    listing = tool_ok(
        await client.call_tool("dunning_charges_list", {"status": "pending,overdue", "per_page": 5}),
        "dunning_charges_list",
    )
    check(isinstance(listing.get("data"), list), f"dunning_charges_list: no data list: {listing}")
    check(isinstance(listing.get("meta"), dict), f"dunning_charges_list: no meta: {listing}")
    check(0 < len(listing["data"]) <= 5, f"dunning_charges_list: {len(listing['data'])} items for per_page 5")
    check(
        all(charge["status"] in ("pending", "overdue") for charge in listing["data"]),
        f"dunning_charges_list: status filter not applied: {[c['status'] for c in listing['data']]}",
    )
    ok(mode, f"dunning_charges_list: {len(listing['data'])} of {listing['meta'].get('total')} charges")

    # Reads are strict: a misspelt filter is named, never silently dropped.
    error = tool_error(
        await client.call_tool("dunning_charges_list", {"status": "overdue", "sort_dir": "asc"}),
        "VALIDATION_ERROR",
        "unknown argument",
    )
    fields = [f.get("field") for f in error.get("details", {}).get("fields", [])]
    check("sort_dir" in fields, f"unknown argument: the error does not name sort_dir: {error}")
    ok(mode, "an unknown read argument is a VALIDATION_ERROR naming it")

    resources = [str(r.uri) for r in (await client.list_resources()).resources]
    check("kobana://dunning/me" in resources, f"resources/list lacks kobana://dunning/me: {resources}")
    templates = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
    check(
        "kobana://dunning/charges/{id}" in templates,
        f"resources/templates/list lacks kobana://dunning/charges/{{id}}: {templates}",
    )
    read = await client.read_resource("kobana://dunning/me")
    check(len(read.contents) == 1, f"resources/read: {len(read.contents)} contents")
    content = read.contents[0]
    check(isinstance(content, types.TextResourceContents), "resources/read kobana://dunning/me: not text")
    check(content.mime_type == "application/json", f"resources/read: mimeType {content.mime_type}")
    check(json.loads(content.text)["data"]["organization"]["environment"] == "sandbox", "resources/read: not me")
    ok(mode, f"resources: {len(resources)} fixed, {len(templates)} templates, kobana://dunning/me read")

    prompts = [p.name for p in (await client.list_prompts()).prompts]
    check("dunning_daily_briefing" in prompts, f"prompts/list lacks dunning_daily_briefing: {prompts}")
    briefing = await client.get_prompt("dunning_daily_briefing")
    check(briefing.messages, "prompts/get dunning_daily_briefing: no messages")
    first = briefing.messages[0].content
    check(isinstance(first, types.TextContent) and "briefing" in first.text, "prompts/get: not the briefing")
    ok(mode, f"prompts: {len(prompts)} listed, dunning_daily_briefing rendered")


async def cannot_confirm(client: Client, mode: str) -> None:
    """A client that cannot collect a confirmation is refused, and the charge is untouched."""
    [charge] = await pending_charges(client, 1)
    error = tool_error(
        await client.call_tool("dunning_charges_cancel", {"id": charge}),
        "CONFIRMATION_REQUIRED",
        "dunning_charges_cancel without elicitation",
    )
    required = error.get("details", {}).get("required_capability")
    check(required == {"elicitation": {"form": {}}}, f"CONFIRMATION_REQUIRED details: {error}")
    check(await charge_status(client, charge) == "pending", "the refused cancel changed the charge")
    ok(mode, "dunning_charges_cancel is refused with CONFIRMATION_REQUIRED; the charge stays pending")


async def confirm_and_decline(client: Client, mode: str, user: Elicitation) -> None:
    """The 2026-07-28 confirmation round trip, once accepted and once declined."""
    confirmed, declined = await pending_charges(client, 2)

    user.answer = "accept"
    result = tool_ok(await client.call_tool("dunning_charges_cancel", {"id": confirmed}), "confirmed cancel")
    check(result["data"]["status"] == "canceled", f"confirmed cancel: {result['data'].get('status')}")
    check(len(user.messages) == 1, f"expected one confirmation question, got {user.messages}")
    check(confirmed in user.messages[0] and "Cancelar" in user.messages[0], f"question: {user.messages[0]}")
    check(await charge_status(client, confirmed) == "canceled", "dunning_charges_get: not canceled")
    ok(mode, f"confirmed cancel ran; the question was {user.messages[0]!r}")

    user.answer = "decline"
    tool_error(
        await client.call_tool("dunning_charges_cancel", {"id": declined}),
        "CONFIRMATION_DECLINED",
        "declined cancel",
    )
    check(len(user.messages) == 2, f"expected a second confirmation question, got {user.messages}")
    check(await charge_status(client, declined) == "pending", "the declined cancel changed the charge")
    ok(mode, "declined cancel is CONFIRMATION_DECLINED; the charge stays pending")


async def run_mode(url: str, token: str, mode: str) -> None:
    user = Elicitation()
    # The SDK's documented way to add headers: a preconfigured HTTP client.
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"},
        timeout=httpx2.Timeout(30.0, read=60.0),
    )
    async with http:
        client = Client(
            streamable_http_client(url, http_client=http),
            mode=mode,
            # Only the pinned stateless mode declares elicitation: auto shows the refusal a
            # 2026-07-28 client without it gets.
            elicitation_callback=user if mode == "2026-07-28" else None,
        )
        async with client:
            await common_checks(client, mode)
            if mode == "2026-07-28":
                await confirm_and_decline(client, mode, user)
            else:
                await cannot_confirm(client, mode)


def describe(err: BaseException) -> str:
    # anyio task groups wrap what failed inside them.
    while isinstance(err, BaseExceptionGroup) and len(err.exceptions) == 1:
        err = err.exceptions[0]
    return f"{type(err).__name__}: {err}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the MCP endpoint, e.g. http://127.0.0.1:8080/mcp")
    parser.add_argument("--mode", action="append", choices=MODES, help="a mode to run (default: all three)")
    parser.add_argument("--token", help="bearer token (default: $KOBANA_DUNNING_TOKEN)")
    args = parser.parse_args()
    token = args.token or os.environ.get("KOBANA_DUNNING_TOKEN", "")
    if not token:
        parser.error("a bearer token is required: --token or KOBANA_DUNNING_TOKEN")

    for mode in args.mode or MODES:
        try:
            asyncio.run(run_mode(args.url, token, mode))
        except CheckFailed as err:
            print(f"FAIL [{mode}] {err}", file=sys.stderr, flush=True)
            return 1
        except Exception as err:  # an SDK error is a failed interop check too
            print(f"FAIL [{mode}] {describe(err)}", file=sys.stderr, flush=True)
            return 1
    print("python_client: all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
