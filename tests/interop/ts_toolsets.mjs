#!/usr/bin/env node
// Connects the official TypeScript SDK client (@modelcontextprotocol/client 2.4.0) to the narrower
// MCP paths, in both eras (legacy: the 2025 handshake; auto: server/discover, 2026-07-28), and
// checks that each lists exactly the tools expected, runs one of them, and answers a tool outside
// it as an unknown tool.
//
// Usage:
//   KOBANA_DUNNING_TOKEN=kd_at_... KOBANA_DUNNING_EXPECTED='{"/mcp/readonly": ["dunning_me", ...]}' \
//     node ts_toolsets.mjs http://127.0.0.1:PORT
//
// KOBANA_DUNNING_EXPECTED maps each path to the tool names the server's table puts there (the
// Rust test computes them). Prints one line per check and exits non-zero at the first failed one.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const MODES = ['legacy', 'auto'];
// A tool on each path, and one on none of them (a write: never on a read-only path).
const RUNS = 'dunning_charges_list';
const OUTSIDE = 'dunning_webhooks_create';

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

async function run(base, path, expected, token, mode) {
  const client = new Client({ name: 'kobana-dunning-interop', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(path, base), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const where = `[${mode}] ${path}`;
  try {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    const want = [...expected].sort();
    const missing = want.filter((name) => !names.includes(name));
    const extra = names.filter((name) => !want.includes(name));
    check(
      missing.length === 0 && extra.length === 0,
      `${where}: tools/list lacks ${JSON.stringify(missing)} and has ${JSON.stringify(extra)} besides`,
    );
    console.log(`ok   ${where}: tools/list has the ${names.length} tools expected`);

    const listed = await client.callTool({ name: RUNS, arguments: { per_page: 1 } });
    check(!listed.isError, `${where}: ${RUNS}: ${JSON.stringify(listed.content).slice(0, 300)}`);
    console.log(`ok   ${where}: ${RUNS} runs`);

    let refused = null;
    try {
      const result = await client.callTool({ name: OUTSIDE, arguments: { url: 'https://example.com/hook' } });
      refused = { result };
    } catch (err) {
      refused = { err };
    }
    check(
      refused.err && refused.err.code === -32602 && String(refused.err.message).includes(`Unknown tool: ${OUTSIDE}`),
      `${where}: ${OUTSIDE} should be an unknown tool (-32602), got ${JSON.stringify(refused.result ?? { code: refused.err?.code, message: refused.err?.message })}`,
    );
    console.log(`ok   ${where}: ${OUTSIDE} is an unknown tool here (-32602)`);
  } finally {
    await client.close();
  }
}

async function main() {
  const [base] = process.argv.slice(2);
  const token = process.env.KOBANA_DUNNING_TOKEN;
  const expected = JSON.parse(process.env.KOBANA_DUNNING_EXPECTED ?? 'null');
  if (!base || !token || !expected) {
    console.error('usage: KOBANA_DUNNING_TOKEN=... KOBANA_DUNNING_EXPECTED={path: [tools]} node ts_toolsets.mjs BASE_URL');
    process.exit(2);
  }
  for (const [path, names] of Object.entries(expected)) {
    for (const mode of MODES) {
      try {
        await run(base, path, names, token, mode);
      } catch (err) {
        const message = err instanceof CheckFailed ? err.message : `${err?.name}: ${err?.message ?? err}`;
        console.error(`FAIL [${mode}] ${path}: ${message}`);
        process.exit(1);
      }
    }
  }
  console.log('ts_toolsets: all checks passed');
}

await main();
