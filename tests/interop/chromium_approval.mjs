#!/usr/bin/env node
// Issue 11's browser acceptance: headless Chromium (Debian's chromium with chromium-driver,
// spoken to over the W3C WebDriver protocol) signs in through the real pages, consents to an
// OAuth client, and approves a destructive call through its approval_url; the client is the
// TypeScript SDK 1.32.2 with the token that sign-in gave it. Screenshots of the sign-in, consent
// and approval pages, at a phone's 360 px, go to the directory given, for people to look at.
//
// Usage:
//   KOBANA_DUNNING_DEMO_EMAIL=... KOBANA_DUNNING_DEMO_PASSWORD=... \
//     node chromium_approval.mjs http://127.0.0.1:PORT SCREENSHOT_DIR
//
// Prints one line per check and exits non-zero at the first failed one, naming it.

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function ok(message) {
  console.log(`ok   ${message}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/// A port nothing listens on now.
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/// chromedriver and one headless Chromium session, spoken to over WebDriver.
class Browser {
  static async start() {
    const port = await freePort();
    const driver = spawn('chromedriver', [`--port=${port}`], { stdio: 'ignore' });
    const browser = new Browser(`http://127.0.0.1:${port}`, driver);
    for (let i = 0; ; i++) {
      try {
        const status = await browser.call('GET', '/status');
        if (status.ready) break;
      } catch (err) {
        if (i > 100) throw err;
      }
      await sleep(100);
    }
    const session = await browser.call('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'chrome',
          'goog:chromeOptions': {
            binary: '/usr/bin/chromium',
            args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=360,800', '--lang=pt-BR'],
          },
        },
      },
    });
    browser.session = session.sessionId;
    return browser;
  }

  constructor(base, driver) {
    this.base = base;
    this.driver = driver;
    this.session = null;
  }

  async call(method, path, body) {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${JSON.stringify(json.value).slice(0, 300)}`);
    return json.value;
  }

  s(path) {
    return `/session/${this.session}${path}`;
  }

  async go(url) {
    await this.call('POST', this.s('/url'), { url });
  }

  async url() {
    return this.call('GET', this.s('/url'));
  }

  async run(script, ...args) {
    return this.call('POST', this.s('/execute/sync'), { script, args });
  }

  async find(css) {
    const found = await this.call('POST', this.s('/element'), { using: 'css selector', value: css });
    check(found && found[ELEMENT], `no element ${css}: ${JSON.stringify(found)}`);
    return found[ELEMENT];
  }

  async type(css, text) {
    await this.call('POST', this.s(`/element/${await this.find(css)}/value`), { text });
  }

  /// Clicks, then waits until the page it leads to has loaded.
  async clickAndWait(css) {
    // A mark on this document: the next one lacks it.
    await this.run('document.documentElement.dataset.kdSeen = "1"');
    await this.call('POST', this.s(`/element/${await this.find(css)}/click`), {});
    for (let i = 0; i < 100; i++) {
      const state = await this.run(
        'return [document.documentElement.dataset.kdSeen || "", document.readyState].join(",")',
      );
      if (state === ',complete') return;
      await sleep(100);
    }
    throw new CheckFailed(`clicking ${css} did not lead to a new page`);
  }

  async text() {
    return this.run('return document.body.innerText');
  }

  /// Whether the page fits the window's width (no horizontal scroll at 360 px).
  async fitsWidth() {
    return this.run('return document.documentElement.scrollWidth <= window.innerWidth');
  }

  async screenshot(file) {
    writeFileSync(file, Buffer.from(await this.call('GET', this.s('/screenshot')), 'base64'));
  }

  async stop() {
    if (this.session) {
      await this.call('DELETE', this.s('')).catch(() => {});
    }
    this.driver.kill();
  }
}

/// A loopback redirect URI that takes one authorization response.
async function callback() {
  let resolve;
  const received = new Promise((r) => {
    resolve = r;
  });
  const server = createServer((req, res) => {
    resolve(new URL(req.url, 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { uri: `http://127.0.0.1:${server.address().port}/callback`, received, server };
}

async function main() {
  const [base, shots] = process.argv.slice(2);
  const email = process.env.KOBANA_DUNNING_DEMO_EMAIL;
  const password = process.env.KOBANA_DUNNING_DEMO_PASSWORD;
  if (!base || !shots || !email || !password) {
    console.error('usage: KOBANA_DUNNING_DEMO_EMAIL=… KOBANA_DUNNING_DEMO_PASSWORD=… node chromium_approval.mjs BASE_URL DIR');
    process.exit(2);
  }
  mkdirSync(shots, { recursive: true });
  const redirect = await callback();
  const browser = await Browser.start();
  try {
    // An OAuth client registers, and sends its user to /authorize with PKCE.
    const registered = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Assistente de teste', redirect_uris: [redirect.uri] }),
    });
    check(registered.status === 201, `registration: ${registered.status}`);
    const { client_id: clientId } = await registered.json();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL('/authorize', base);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirect.uri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'dunning.read dunning.write',
      resource: `${base}/mcp`,
      state: 'st-chromium',
    })) {
      authorize.searchParams.set(k, v);
    }

    await browser.go(authorize.href);
    check((await browser.text()).includes('Entrar'), 'the sign-in page');
    check(await browser.fitsWidth(), 'the sign-in page scrolls sideways at 360 px');
    await browser.screenshot(join(shots, 'signin.png'));
    await browser.type('#email', email);
    await browser.type('#password', password);
    await browser.clickAndWait('button[type="submit"]');
    ok('signed in through the sign-in page');

    const consent = await browser.text();
    check(consent.includes('Assistente de teste') && consent.includes('Permitir'), `the consent page: ${consent.slice(0, 300)}`);
    check(await browser.fitsWidth(), 'the consent page scrolls sideways at 360 px');
    await browser.screenshot(join(shots, 'consent.png'));
    await browser.clickAndWait('button[name="decision"][value="allow"]');
    const answer = await redirect.received;
    check(answer.searchParams.get('state') === 'st-chromium', `callback: ${answer}`);
    ok('consented; the client got its code');

    const token = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: answer.searchParams.get('code'),
        redirect_uri: redirect.uri,
        client_id: clientId,
        code_verifier: verifier,
        resource: `${base}/mcp`,
      }).toString(),
    });
    check(token.status === 200, `token: ${token.status} ${await token.clone().text()}`);
    const { access_token: accessToken } = await token.json();

    // The client (SDK 1.32.2, 2025-06-18) tries a destructive tool and is given the link.
    const client = new Client({ name: 'kobana-dunning-chromium', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
      }),
    );
    try {
      const list = await client.callTool({ name: 'dunning_charges_list', arguments: { status: 'pending', per_page: 1 } });
      const charge = JSON.parse(list.content[0].text).data[0].id;
      const cancel = () => client.callTool({ name: 'dunning_charges_cancel', arguments: { id: charge } });
      const refused = JSON.parse((await cancel()).content[0].text).error;
      check(refused.code === 'CONFIRMATION_REQUIRED', `cancel without approval: ${JSON.stringify(refused)}`);
      const approvalUrl = refused.details.approval_url;
      ok(`cancel without approval refused, with ${approvalUrl}`);

      // The person opens it in the browser already signed in, and approves.
      await browser.go(approvalUrl);
      const page = await browser.text();
      check(page.includes(`Cancelar a cobrança “${charge}”`), `the approval page: ${page.slice(0, 300)}`);
      check(await browser.fitsWidth(), 'the approval page scrolls sideways at 360 px');
      await browser.screenshot(join(shots, 'approval.png'));
      await browser.clickAndWait('button[name="decision"][value="approve"]');
      check((await browser.text()).includes('Aprovado por você'), 'after approving');
      await browser.screenshot(join(shots, 'approved.png'));
      ok('approved on the approval page');

      const ran = await cancel();
      check(!ran.isError, `cancel after approval: ${JSON.stringify(ran.content).slice(0, 300)}`);
      check(JSON.parse(ran.content[0].text).data.status === 'canceled', 'cancel after approval did not cancel');
      ok('cancel after approval ran');
    } finally {
      await client.close();
    }
  } finally {
    await browser.stop();
    redirect.server.close();
  }
  console.log(`chromium_approval: all checks passed; screenshots in ${shots}`);
}

try {
  await main();
} catch (err) {
  const message = err instanceof CheckFailed ? err.message : `${err?.name}: ${err?.message ?? err}`;
  console.error(`FAIL ${message}`);
  process.exit(1);
}
