# Sourced by the bench scripts: what they share to start the demo server and the wrk scripts of
# the requests they measure.

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# demo_ready SERVER_OUT BASE [TRIES] [PAUSE]: waits until `serve --demo` printed "listening on" to
# SERVER_OUT (TRIES times PAUSE seconds, 400 x 0.05 by default), then sets DEMO_TOKEN (the demo
# token it printed) and DEMO_CHARGE (the first charge of BASE/v1/charges). Fails if it never did.
demo_ready() {
  local out=$1 base=$2 tries=${3:-400} pause=${4:-0.05}
  for _ in $(seq 1 "$tries"); do grep -q '^listening on' "$out" 2>/dev/null && break; sleep "$pause"; done
  grep -q '^listening on' "$out" || { echo "the server did not start (see $out)" >&2; return 1; }
  DEMO_TOKEN=$(sed -n 's/^demo token: //p' "$out")
  DEMO_CHARGE=$(curl -sf -H "Authorization: Bearer $DEMO_TOKEN" "$base/v1/charges?per_page=1" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
}

# write_wrk_scripts DIR TOKEN CHARGE: DIR/rest.lua (GET /v1/charges/{id}), DIR/call.lua
# (tools/call dunning_charges_get, 2025-06-18) and DIR/call2026.lua (the same in the 2026-07-28
# era, with its headers and envelope).
write_wrk_scripts() {
  local dir=$1 token=$2 charge=$3
  printf 'wrk.method = "GET"\nwrk.path = "/v1/charges/%s"\nwrk.headers["Authorization"] = "Bearer %s"\n' \
    "$charge" "$token" >"$dir/rest.lua"
  tool_call_script "$token" "$charge" 2025-06-18 "" "" >"$dir/call.lua"
  tool_call_script "$token" "$charge" 2026-07-28 \
    $'wrk.headers["Mcp-Method"] = "tools/call"\nwrk.headers["Mcp-Name"] = "dunning_charges_get"\n' \
    ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}' \
    >"$dir/call2026.lua"
}

# tool_call_script TOKEN CHARGE VERSION MORE_HEADERS MORE_PARAMS: a tools/call of the charge.
tool_call_script() {
  local token=$1 charge=$2 version=$3 headers=$4 params=$5
  cat <<LUA
wrk.method = "POST"
wrk.path = "/mcp"
wrk.headers["Authorization"] = "Bearer $token"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "$version"
${headers}wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dunning_charges_get","arguments":{"id":"$charge"}$params}}'
LUA
}
