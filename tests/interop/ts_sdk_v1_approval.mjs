#!/usr/bin/env node
// The approval's acceptance: the TypeScript SDK 1.32.2 client (@modelcontextprotocol/sdk, the v1
// line most desktop assistants embed), speaking the 2025-06-18 revision, cannot cancel a charge
// without approval, and cancels it after a person approves it through the link it was given.
//
// The person is played over plain HTTP, as a browser without JavaScript would: open the link,
// get sent to the sign-in page, sign in with the demo user (its form and csrf field), come back
// to the approval page, press "Aprovar" (its form and csrf field).
//
// Usage:
//   KOBANA_DUNNING_TOKEN=kd_at_... KOBANA_DUNNING_DEMO_EMAIL=... KOBANA_DUNNING_DEMO_PASSWORD=... \
//     node ts_sdk_v1_approval.mjs http://127.0.0.1:PORT/mcp
//
// Prints one line per check and exits non-zero at the first failed one, naming it.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function ok(message) {
  console.log(`ok   ${message}`);
}

function jsonOf(result, what) {
  check(result.content?.length === 1, `${what}: expected one content item, got ${JSON.stringify(result.content)}`);
  const [item] = result.content;
  check(item.type === 'text', `${what}: expected a text item, got ${item.type}`);
  return JSON.parse(item.text);
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

/// A browser's cookie jar and the pages it fetches (no redirect followed: each is checked).
class Browser {
  constructor(origin) {
    this.origin = origin;
    this.cookies = new Map();
  }

  async fetch(path, init = {}) {
    const url = path.startsWith('http') ? path : `${this.origin}${path}`;
    const headers = { ...(init.headers ?? {}) };
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair.trim().split('=');
      check(
        attributes.some((a) => a.trim().toLowerCase() === 'httponly'),
        `cookie ${name} is not HttpOnly: ${line}`,
      );
      if (value === '' || attributes.some((a) => a.trim().toLowerCase() === 'max-age=0')) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }

  async post(path, fields) {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/// The value of the hidden `csrf` field of the page's form.
function csrfOf(html, what) {
  const match = html.match(/name="csrf" value="([^"]+)"/);
  check(match, `${what}: no csrf field in the form`);
  return match[1];
}

/// Signs in through the sign-in page and approves on the approval page, as a person would.
async function approveAsPerson(approvalUrl, email, password, chargeId) {
  const url = new URL(approvalUrl);
  const browser = new Browser(url.origin);

  let page = await browser.fetch(url.pathname);
  check(page.status === 303, `the approval page without a session: expected 303, got ${page.status}`);
  const signIn = new URL(page.location, url.origin);
  check(signIn.origin === url.origin && signIn.pathname === '/signin', `sent to ${page.location}, not the sign-in page`);
  check(signIn.searchParams.get('next') === url.pathname, `sign-in next: ${signIn.searchParams.get('next')}`);
  ok(`opening ${url.pathname} signed out leads to the sign-in page, coming back afterwards`);

  page = await browser.fetch(signIn.pathname + signIn.search);
  check(page.status === 200, `sign-in page: ${page.status}`);
  page = await browser.post('/signin', {
    csrf: csrfOf(page.html, 'sign-in page'),
    email,
    password,
    next: signIn.searchParams.get('next'),
  });
  check(page.status === 303 && page.location === url.pathname, `sign-in: ${page.status} to ${page.location}`);
  ok('signed in as the demo user through the sign-in form');

  page = await browser.fetch(url.pathname);
  check(page.status === 200, `approval page: ${page.status}: ${page.html.slice(0, 300)}`);
  check(page.html.includes('name="viewport"'), 'approval page: no viewport meta');
  check(page.html.includes(`Cancelar a cobrança “${chargeId}”`), 'approval page: not the question of this charge');
  check(!/<script/i.test(page.html), 'approval page: it needs no JavaScript');
  ok('the approval page asks the pt-BR question of this charge');

  page = await browser.post(url.pathname, { csrf: csrfOf(page.html, 'approval page'), decision: 'approve' });
  check(page.status === 303 && page.location === url.pathname, `approve: ${page.status} to ${page.location}`);
  page = await browser.fetch(url.pathname);
  check(page.status === 200 && page.html.includes('Aprovado'), `after approving: ${page.html.slice(0, 300)}`);
  ok('approved through the page form');
}

async function main() {
  const [mcpUrl] = process.argv.slice(2);
  const token = process.env.KOBANA_DUNNING_TOKEN;
  const email = process.env.KOBANA_DUNNING_DEMO_EMAIL;
  const password = process.env.KOBANA_DUNNING_DEMO_PASSWORD;
  if (!mcpUrl || !token || !email || !password) {
    console.error('usage: KOBANA_DUNNING_TOKEN=… KOBANA_DUNNING_DEMO_EMAIL=… KOBANA_DUNNING_DEMO_PASSWORD=… node ts_sdk_v1_approval.mjs URL');
    process.exit(2);
  }
  const client = new Client({ name: 'kobana-dunning-interop-v1', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    check(transport.protocolVersion === '2025-06-18', `negotiated ${transport.protocolVersion}, expected 2025-06-18`);
    check(client.getServerVersion()?.name === 'kobana-dunning', `serverInfo: ${JSON.stringify(client.getServerVersion())}`);
    ok('SDK 1.32.2 connected with protocol 2025-06-18');

    const listing = toolOk(
      await client.callTool({ name: 'dunning_charges_list', arguments: { status: 'pending', per_page: 50 } }),
      'list pending',
    );
    // An agreement's installment is canceled only with its agreement: take a charge of its own.
    const own = listing.data.filter((c) => c.origin === 'direct');
    check(own.length >= 1, 'the demo data should have a pending charge of its own');
    const charge = own[0].id;
    const status = async () =>
      toolOk(await client.callTool({ name: 'dunning_charges_get', arguments: { id: charge } }), 'get').data.status;
    const cancel = () => client.callTool({ name: 'dunning_charges_cancel', arguments: { id: charge } });

    const refused = toolError(await cancel(), 'CONFIRMATION_REQUIRED', 'cancel without approval');
    const approvalUrl = refused.details?.approval_url;
    check(typeof approvalUrl === 'string' && approvalUrl.includes('/approvals/apr_'), `approval_url: ${approvalUrl}`);
    check(refused.message.includes(approvalUrl), 'the message gives the model the link');
    check((await status()) === 'pending', 'the refused cancel changed the charge');
    ok(`cancel without approval: CONFIRMATION_REQUIRED with ${approvalUrl}; the charge stays pending`);

    const again = toolError(await cancel(), 'CONFIRMATION_REQUIRED', 'cancel again before approval');
    check(again.details?.approval_url === approvalUrl, 'a retry before the decision keeps the same link');
    check((await status()) === 'pending', 'a retry before approval changed the charge');
    ok('a retry before the decision is refused with the same link');

    await approveAsPerson(approvalUrl, email, password, charge);

    const canceled = toolOk(await cancel(), 'cancel after approval');
    check(canceled.data.status === 'canceled', `cancel after approval: ${canceled.data.status}`);
    check((await status()) === 'canceled', 'dunning_charges_get: not canceled');
    ok('cancel after approval ran');

    const used = toolError(await cancel(), 'CONFIRMATION_REQUIRED', 'cancel once more');
    check(used.details?.approval_url !== approvalUrl, 'a used approval is not handed out again');
    ok('the approval ran the call once: the same call again needs a new approval');
  } finally {
    await client.close();
  }
  console.log('ts_sdk_v1_approval: all checks passed');
}

try {
  await main();
} catch (err) {
  const message = err instanceof CheckFailed ? err.message : `${err?.name}: ${err?.message ?? err}`;
  console.error(`FAIL ${message}`);
  process.exit(1);
}
