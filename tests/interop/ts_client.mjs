#!/usr/bin/env node
// Drives the Kobana Dunning MCP endpoint with the official TypeScript SDK client
// (@modelcontextprotocol/client 2.4.0), in the two ways an application opens it:
//   legacy  the 2025 handshake (initialize, then one GET the server answers 405); destructive
//           tools are refused with CONFIRMATION_REQUIRED, since a 2025 client cannot confirm
//   auto    server/discover first, so the 2026-07-28 era; with an elicitation/create handler and
//           the elicitation capability, a destructive tool is confirmed through input_required
//
// Usage:
//   KOBANA_DUNNING_TOKEN=kd_at_... node ts_client.mjs http://127.0.0.1:PORT/mcp [legacy|auto ...]
//
// Prints one line per check and exits non-zero at the first failed one, naming it. Runs on the
// machine's Node 20 or on node_modules/.bin/node (22); setup.sh installs the packages.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const MODES = ['legacy', 'auto'];
// legacy offers 2025-11-25 and takes the server's 2025-06-18; auto finds the stateless era.
const EXPECTED = {
  legacy: { era: 'legacy', version: '2025-06-18' },
  auto: { era: 'modern', version: '2026-07-28' },
};

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function ok(mode, message) {
  console.log(`ok   [${mode}] ${message}`);
}

function jsonOf(result, what) {
  check(result.content?.length === 1, `${what}: expected one content item, got ${JSON.stringify(result.content)}`);
  const [item] = result.content;
  check(item.type === 'text', `${what}: expected a text item, got ${item.type}`);
  try {
    return JSON.parse(item.text);
  } catch (err) {
    throw new CheckFailed(`${what}: the text item is not JSON (${err.message}): ${item.text.slice(0, 300)}`);
  }
}

function toolOk(result, what) {
  check(!result.isError, `${what}: unexpected isError: ${JSON.stringify(result.content).slice(0, 500)}`);
  return jsonOf(result, what);
}

function toolError(result, code, what) {
  check(result.isError === true, `${what}: expected isError, got ${JSON.stringify(result.content).slice(0, 300)}`);
  const error = jsonOf(result, what).error ?? {};
  check(error.code === code, `${what}: expected error code ${code}, got ${JSON.stringify(error)}`);
  return error;
}

async function pendingCharge(client) {
  const body = toolOk(
    await client.callTool({ name: 'dunning_charges_list', arguments: { status: 'pending', per_page: 50 } }),
    'list pending',
  );
  // An agreement's installment is canceled only with its agreement: take a charge of its own.
  const own = body.data.filter((c) => c.origin === 'direct');
  check(own.length >= 1, 'the demo data should have a pending charge of its own');
  return own[0].id;
}

async function chargeStatus(client, id) {
  const body = toolOk(await client.callTool({ name: 'dunning_charges_get', arguments: { id } }), 'dunning_charges_get');
  return body.data.status;
}

async function commonChecks(client, mode) {
  const expected = EXPECTED[mode];
  check(client.getProtocolEra() === expected.era, `era ${client.getProtocolEra()}, expected ${expected.era}`);
  check(
    client.getNegotiatedProtocolVersion() === expected.version,
    `negotiated ${client.getNegotiatedProtocolVersion()}, expected ${expected.version}`,
  );
  check(client.getServerVersion()?.name === 'kobana-dunning', `serverInfo: ${JSON.stringify(client.getServerVersion())}`);
  ok(mode, `connected, ${expected.era} era, protocol ${expected.version}`);

  const { tools } = await client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of ['dunning_me', 'dunning_charges_list', 'dunning_charges_cancel']) {
    check(byName.has(name), `tools/list lacks ${name}`);
  }
  const cancel = byName.get('dunning_charges_cancel').annotations ?? {};
  check(cancel.destructiveHint === true, `dunning_charges_cancel destructiveHint: ${cancel.destructiveHint}`);
  check(cancel.openWorldHint === false, `dunning_charges_cancel openWorldHint: ${cancel.openWorldHint}`);
  ok(mode, `tools/list: ${tools.length} tools, dunning_charges_cancel destructive and closed-world`);

  const me = toolOk(await client.callTool({ name: 'dunning_me', arguments: {} }), 'dunning_me');
  check(me.data.organization.environment === 'sandbox', `dunning_me: not the sandbox demo: ${JSON.stringify(me)}`);
  ok(mode, 'dunning_me: the sandbox demo organization');

  const listing = toolOk(
    await client.callTool({ name: 'dunning_charges_list', arguments: { status: 'pending,overdue', per_page: 5 } }),
    'dunning_charges_list',
  );
  check(Array.isArray(listing.data) && listing.meta, `dunning_charges_list: no data/meta: ${JSON.stringify(listing)}`);
  check(listing.data.length > 0 && listing.data.length <= 5, `dunning_charges_list: ${listing.data.length} items`);
  ok(mode, `dunning_charges_list: ${listing.data.length} of ${listing.meta.total} charges`);

  const read = await client.readResource({ uri: 'kobana://dunning/me' });
  check(read.contents.length === 1 && read.contents[0].mimeType === 'application/json', 'resources/read: shape');
  check(JSON.parse(read.contents[0].text).data.organization.environment === 'sandbox', 'resources/read: not me');
  ok(mode, 'resources/read kobana://dunning/me');

  const prompt = await client.getPrompt({ name: 'dunning_daily_briefing' });
  const first = prompt.messages[0]?.content;
  check(first?.type === 'text' && first.text.includes('briefing'), `prompts/get: ${JSON.stringify(prompt).slice(0, 300)}`);
  ok(mode, 'prompts/get dunning_daily_briefing');
}

async function run(url, token, mode) {
  const questions = [];
  const client = new Client(
    { name: 'kobana-dunning-interop', version: '1.0.0' },
    {
      versionNegotiation: { mode },
      // Declaring form elicitation is what lets the server ask instead of refusing.
      ...(mode === 'auto' ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (mode === 'auto') {
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    await commonChecks(client, mode);
    const charge = await pendingCharge(client);
    const result = await client.callTool({ name: 'dunning_charges_cancel', arguments: { id: charge } });
    if (mode === 'legacy') {
      toolError(result, 'CONFIRMATION_REQUIRED', 'dunning_charges_cancel on a 2025 client');
      check((await chargeStatus(client, charge)) === 'pending', 'the refused cancel changed the charge');
      ok(mode, 'dunning_charges_cancel is refused with CONFIRMATION_REQUIRED; the charge stays pending');
    } else {
      const canceled = toolOk(result, 'confirmed cancel');
      check(canceled.data.status === 'canceled', `confirmed cancel: ${canceled.data.status}`);
      check(questions.length === 1 && questions[0].includes(charge), `questions asked: ${JSON.stringify(questions)}`);
      check((await chargeStatus(client, charge)) === 'canceled', 'dunning_charges_get: not canceled');
      ok(mode, `confirmed cancel ran; the question was ${JSON.stringify(questions[0])}`);
    }
  } finally {
    await client.close();
  }
}

async function main() {
  const [url, ...modes] = process.argv.slice(2);
  const token = process.env.KOBANA_DUNNING_TOKEN;
  if (!url || !token) {
    console.error('usage: KOBANA_DUNNING_TOKEN=kd_at_... node ts_client.mjs URL [legacy|auto ...]');
    process.exit(2);
  }
  for (const mode of modes.length ? modes : MODES) {
    if (!MODES.includes(mode)) {
      console.error(`unknown mode ${mode}: expected one of ${MODES.join(', ')}`);
      process.exit(2);
    }
    try {
      await run(url, token, mode);
    } catch (err) {
      const message = err instanceof CheckFailed ? err.message : `${err?.name}: ${err?.message ?? err}`;
      console.error(`FAIL [${mode}] ${message}`);
      process.exit(1);
    }
  }
  console.log('ts_client: all checks passed');
}

await main();
