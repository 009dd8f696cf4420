#!/usr/bin/env node
// The sign-in's browser acceptance: a person signs in through the real pages in headless Chromium
// (Debian's, driven by playwright-core), approves a destructive MCP call through its
// approval_url, allows an OAuth client on the consent page, and disconnects it on the
// connections page. Screenshots of the sign-in, approval, consent and connections pages go to the
// directory given, for people to look at.
//
// The person's browser runs with JavaScript off: the pages must work without it. Each page is
// also opened on a 360 px phone (a mobile viewport, JavaScript on only to measure it), which must
// honour the viewport meta tag and show no horizontal scroll.
//
// Usage:
//   KOBANA_DUNNING_TOKEN=kd_at_... KOBANA_DUNNING_DEMO_EMAIL=... KOBANA_DUNNING_DEMO_PASSWORD=... \
//     node sign_in_and_approve.mjs http://127.0.0.1:PORT SCREENSHOT_DIR
// KOBANA_DUNNING_CHROMIUM names the browser (default /usr/bin/chromium).
//
// Prints one line per check (`ok   ...`), `charge: <id>`, `approval: <approval_url>`, one
// `screenshot: <path>` per file, and exits non-zero at the first failed check, naming it.

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const PHONE_WIDTH = 360;
const DESKTOP = { width: 1024, height: 768 };
// The flags Debian's chromium needs on a machine without outside network: without the
// background-networking ones it keeps trying to reach its vendor's hosts.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function ok(message) {
  console.log(`ok   ${message}`);
}

// --- MCP over plain HTTP, as a 2025-06-18 client that cannot confirm in-band ------------------

class Mcp {
  constructor(origin, token) {
    this.url = `${origin}/mcp`;
    this.token = token;
    this.id = 0;
  }

  async request(method, params, token = this.token) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
    });
    const text = await response.text();
    check(response.status === 200, `${method}: HTTP ${response.status}: ${text.slice(0, 300)}`);
    const body = JSON.parse(text);
    check(body.result, `${method}: no result: ${text.slice(0, 300)}`);
    return body.result;
  }

  /// A tool's result: `{ isError, json }` (its single text item, parsed).
  async call(name, args) {
    const result = await this.request('tools/call', { name, arguments: args });
    check(result.content?.length === 1 && result.content[0].type === 'text', `${name}: ${JSON.stringify(result)}`);
    return { isError: result.isError === true, json: JSON.parse(result.content[0].text) };
  }

  async ok(name, args) {
    const r = await this.call(name, args);
    check(!r.isError, `${name}: unexpected error ${JSON.stringify(r.json).slice(0, 300)}`);
    return r.json;
  }

  async refused(name, args, code) {
    const r = await this.call(name, args);
    check(r.isError && r.json.error?.code === code, `${name}: expected ${code}, got ${JSON.stringify(r.json).slice(0, 300)}`);
    return r.json.error;
  }
}

// --- The browser ------------------------------------------------------------------------------

const shots = [];

async function screenshot(page, dir, name) {
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  shots.push(path);
}

/// Opens `url` on a 360 px phone carrying the person's cookies (a context of its own, so the
/// person's browser is untouched), checks that the page fits, and takes its screenshot.
async function onPhone(browser, person, url, dir, name) {
  const phone = await browser.newContext({
    storageState: await person.storageState(),
    viewport: { width: PHONE_WIDTH, height: 740 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    locale: 'pt-BR',
  });
  try {
    const page = await phone.newPage();
    const response = await page.goto(url);
    check(response.status() === 200, `${name} on a phone: HTTP ${response.status()}`);
    const fit = await page.evaluate(() => {
      const controls = [...document.querySelectorAll('input:not([type=hidden]), button, label')];
      return {
        layoutWidth: window.innerWidth,
        scrollWidth: document.documentElement.scrollWidth,
        bodyScrollWidth: document.body.scrollWidth,
        overflowing: controls
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((e) => e.outerHTML.slice(0, 120)),
      };
    });
    // Without `<meta name="viewport" content="width=device-width">`, a phone lays the page out
    // 980 px wide and shrinks it: unreadable, however the CSS is written.
    check(fit.layoutWidth === PHONE_WIDTH, `${name} on a phone: laid out ${fit.layoutWidth} px wide (viewport meta?)`);
    check(
      fit.scrollWidth <= PHONE_WIDTH && fit.bodyScrollWidth <= PHONE_WIDTH,
      `${name} on a phone: scrolls sideways (scrollWidth ${fit.scrollWidth}, body ${fit.bodyScrollWidth} > ${PHONE_WIDTH})`,
    );
    check(fit.overflowing.length === 0, `${name} on a phone: controls past the right edge: ${fit.overflowing.join(' | ')}`);
    await screenshot(page, dir, `${name}-${PHONE_WIDTH}`);
    ok(`${name} fits a ${PHONE_WIDTH} px phone: no horizontal scroll (scrollWidth ${fit.scrollWidth})`);
  } finally {
    await phone.close();
  }
}

/// The page's visible text, whitespace collapsed.
async function textOf(page) {
  return (await page.locator('body').innerText()).replace(/\s+/g, ' ');
}

async function checkCookies(context, origin) {
  const cookies = await context.cookies(origin);
  check(cookies.length >= 2, `expected the browser and session cookies, got ${cookies.map((c) => c.name)}`);
  for (const c of cookies) {
    check(c.httpOnly, `cookie ${c.name} is not HttpOnly`);
    check(c.sameSite === 'Lax', `cookie ${c.name} is SameSite=${c.sameSite}, not Lax`);
    // The server's public URL is http here: Secure would make the browser drop the cookie.
    check(!c.secure, `cookie ${c.name} is Secure on an http origin`);
  }
  ok(`cookies ${cookies.map((c) => c.name).join(', ')}: HttpOnly, SameSite=Lax`);
}

// --- OAuth: a loopback client -------------------------------------------------------------------

function base64url(bytes) {
  return Buffer.from(bytes).toString('base64url');
}

/// A listener on a free loopback port standing in for a native client's redirect URI: it
/// answers a small page and remembers each request's URL.
async function loopbackClient() {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>client</title><p>The client got its answer.</p>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, redirectUri: `http://127.0.0.1:${server.address().port}/callback` };
}

async function postForm(url, fields) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, json: await response.json() };
}

// --- The scenario -------------------------------------------------------------------------------

async function approveThroughTheLink(browser, person, mcp, origin, email, password, dir) {
  const listing = await mcp.ok('dunning_charges_list', { status: 'pending', per_page: 50 });
  // An agreement's installment is canceled only with its agreement: take a charge of its own.
  const own = listing.data.filter((c) => c.origin === 'direct');
  check(own.length >= 1, 'the demo data should have a pending charge of its own');
  const charge = own[0].id;
  console.log(`charge: ${charge}`);
  const get = async () => (await mcp.ok('dunning_charges_get', { id: charge })).data;
  const cancel = { id: charge };

  // (1) The destructive call, refused with a link.
  const refusal = await mcp.refused('dunning_charges_cancel', cancel, 'CONFIRMATION_REQUIRED');
  const approvalUrl = refusal.details?.approval_url;
  check(typeof approvalUrl === 'string', `no details.approval_url: ${JSON.stringify(refusal)}`);
  console.log(`approval: ${approvalUrl}`);
  const approvalPath = new URL(approvalUrl).pathname;
  check(approvalUrl === `${origin}${approvalPath}` && /^\/approvals\/apr_\w+$/.test(approvalPath), `approval_url: ${approvalUrl}`);
  check((await get()).status === 'pending', 'the refused cancel changed the charge');
  ok(`dunning_charges_cancel without approval: CONFIRMATION_REQUIRED, approval_url ${approvalUrl}`);

  // (2) The link, signed out: the sign-in page, which will come back to the link.
  const page = await person.newPage();
  let response = await page.goto(approvalUrl);
  check(response.status() === 200, `opening the link: HTTP ${response.status()}`);
  const signIn = new URL(page.url());
  check(signIn.origin === origin && signIn.pathname === '/signin', `the link led to ${page.url()}, not the sign-in page`);
  check(signIn.searchParams.get('next') === approvalPath, `sign-in next=${signIn.searchParams.get('next')}`);
  check((await page.locator('meta[name="viewport"]').getAttribute('content'))?.includes('width=device-width'), 'sign-in: no viewport meta');
  check((await page.locator('form input[type="hidden"][name="csrf"]').count()) === 1, 'sign-in: the form has no csrf field');
  await screenshot(page, dir, 'sign-in');
  ok(`the link, signed out, shows the sign-in page (${signIn.pathname}?next=${approvalPath})`);
  await onPhone(browser, person, page.url(), dir, 'sign-in');

  // A wrong password first: the page says so, and nobody is signed in.
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(`${password}-wrong`);
  await Promise.all([page.waitForNavigation(), page.locator('form button[type="submit"]').first().click()]);
  check(new URL(page.url()).pathname === '/signin', `a wrong password led to ${page.url()}`);
  check((await textOf(page)).includes('E-mail ou senha incorretos.'), 'a wrong password: no error on the page');
  const afterWrong = (await person.cookies(origin)).map((c) => c.name);
  check(!afterWrong.includes('kd_session'), `a wrong password started a session: ${afterWrong}`);
  ok('a wrong password: the sign-in page again, saying so, and no session');

  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await Promise.all([page.waitForNavigation(), page.locator('form button[type="submit"]').first().click()]);

  // (3) Back on the link: the approval page asks the pt-BR question of this charge.
  check(page.url() === approvalUrl, `after signing in: ${page.url()}, not ${approvalUrl}`);
  let text = await textOf(page);
  check(text.includes(`Cancelar a cobrança “${charge}”`), `the approval page does not ask about ${charge}: ${text.slice(0, 400)}`);
  check(text.includes(`Conectado como ${email}`), 'the approval page does not say who is signed in');
  check(text.includes('dunning_charges_cancel'), 'the approval page does not name the tool');
  await checkCookies(person, origin);
  await screenshot(page, dir, 'approval');
  ok('signed in with JavaScript off; the approval page asks about this charge');
  await onPhone(browser, person, approvalUrl, dir, 'approval');

  check((await get()).status === 'pending', 'signing in changed the charge');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: /Aprovar/ }).click()]);
  check(page.url() === approvalUrl, `after approving: ${page.url()}`);
  text = await textOf(page);
  check(text.includes('Aprovado por você') && text.includes('Approved by you'), `after approving, the page says: ${text.slice(0, 400)}`);
  check((await page.getByRole('button').count()) === 0, 'an approved request still offers buttons');
  await screenshot(page, dir, 'approved');
  ok('pressed Aprovar: the page says "Aprovado por você" / "Approved by you" and offers no more buttons');
  check((await get()).status === 'pending', 'approving ran the call by itself');

  // (4) The same call again runs, once.
  const canceled = await mcp.ok('dunning_charges_cancel', cancel);
  check(canceled.data.id === charge && canceled.data.status === 'canceled', `the retried cancel: ${JSON.stringify(canceled.data)}`);
  const after = await get();
  check(after.status === 'canceled', `the charge is ${after.status} after the approved cancel`);
  ok(`the same call after approval ran: ${charge} is canceled (version ${after.version})`);

  const again = await mcp.refused('dunning_charges_cancel', cancel, 'CONFIRMATION_REQUIRED');
  check(again.details?.approval_url && again.details.approval_url !== approvalUrl, 'the used approval was handed out again');
  const still = await get();
  check(still.version === after.version && still.status === 'canceled', `a second identical call changed the charge: ${JSON.stringify(still)}`);
  ok('a second identical call does not run: it needs a new approval, and the charge is unchanged');

  response = await page.goto(approvalUrl);
  check(response.status() === 200, `the used approval's page: HTTP ${response.status()}`);
  text = await textOf(page);
  check(text.includes('e executado') && text.includes('and done'), `the used approval's page says: ${text.slice(0, 400)}`);
  ok('the approval page now says the approved call was done');
  await page.close();
  return charge;
}

async function allowOnTheConsentPage(browser, person, mcp, origin, email, dir) {
  const client = await loopbackClient();
  try {
    const registered = await fetch(`${origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Assistente no Navegador', redirect_uris: [client.redirectUri] }),
    });
    const registration = await registered.json();
    check(registered.status === 201 && registration.client_id, `register: ${registered.status} ${JSON.stringify(registration)}`);
    const verifier = base64url(randomBytes(32));
    const challenge = base64url(createHash('sha256').update(verifier).digest());
    const state = base64url(randomBytes(12));
    const authorize = new URL('/authorize', origin);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: registration.client_id,
      redirect_uri: client.redirectUri,
      scope: 'dunning.read dunning.write',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${origin}/mcp`,
    })) {
      authorize.searchParams.set(name, value);
    }

    // (5) Signed in already: /authorize shows the consent page straight away.
    const page = await person.newPage();
    const response = await page.goto(authorize.href);
    check(response.status() === 200, `consent page: HTTP ${response.status()}`);
    check(new URL(page.url()).pathname === '/authorize', `consent page at ${page.url()}`);
    const text = await textOf(page);
    check(text.includes('Assistente no Navegador quer acessar a sua conta'), `consent page: no client name: ${text.slice(0, 400)}`);
    check(text.includes(`Conectado como ${email}`), 'consent page: does not say who is signed in');
    for (const words of ['Ver devedores, cobranças', 'View debtors, charges', 'Criar e alterar devedores', 'Create and change debtors']) {
      check(text.includes(words), `consent page: the scopes are not described ("${words}")`);
    }
    check((await page.locator('form input[type="hidden"][name="csrf"]').count()) === 1, 'consent: the form has no csrf field');
    await screenshot(page, dir, 'consent');
    ok('/authorize, signed in, shows the consent page with the scopes in pt-BR and English');
    await onPhone(browser, person, authorize.href, dir, 'consent');

    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(client.redirectUri)),
      page.getByRole('button', { name: /Permitir/ }).click(),
    ]);
    const back = new URL(page.url());
    check(`${back.origin}${back.pathname}` === client.redirectUri, `redirected to ${page.url()}`);
    const code = back.searchParams.get('code');
    check(code?.startsWith('kd_ac_'), `no code in ${page.url()}`);
    check(back.searchParams.get('state') === state, `state came back as ${back.searchParams.get('state')}`);
    check(back.searchParams.get('iss') === origin, `iss came back as ${back.searchParams.get('iss')}, not ${origin}`);
    // (The browser also asks the listener for /favicon.ico.)
    const callbacks = client.seen.filter((url) => url.startsWith('/callback'));
    check(callbacks.length === 1 && callbacks[0] === `${back.pathname}${back.search}`, `the client saw ${client.seen}`);
    ok('pressed Permitir: the browser went to the redirect URI with code, state and iss');

    // The code is good: it exchanges with the verifier for a token MCP accepts. (Replaying it
    // would revoke the grant, so that waits until the end.)
    const exchange = {
      grant_type: 'authorization_code',
      client_id: registration.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
    };
    const token = await postForm(`${origin}/token`, exchange);
    check(token.status === 200 && token.json.access_token, `token: ${token.status} ${JSON.stringify(token.json)}`);
    check(token.json.scope === 'dunning.read dunning.write', `granted scope: ${token.json.scope}`);
    const tools = await mcp.request('tools/list', {}, token.json.access_token);
    const names = tools.tools.map((t) => t.name);
    check(names.includes('dunning_charges_get') && names.includes('dunning_charges_cancel'), `tools/list: ${names}`);
    ok(`the code exchanged with the PKCE verifier for a token (${token.json.scope}) that lists ${names.length} tools`);

    // (6) The connected client on /connections, and disconnecting it revokes its token.
    const connections = `${origin}/connections`;
    const shown = await page.goto(connections);
    check(shown.status() === 200 && page.url() === connections, `connections: HTTP ${shown.status()} at ${page.url()}`);
    const listed = page.locator('.card .card', { hasText: 'Assistente no Navegador' });
    check((await listed.count()) === 1, `connections: the client is not listed once: ${(await textOf(page)).slice(0, 400)}`);
    await screenshot(page, dir, 'connections');
    ok('/connections lists the client just allowed');
    await onPhone(browser, person, connections, dir, 'connections');
    await Promise.all([page.waitForNavigation(), listed.getByRole('button', { name: /Desconectar/ }).click()]);
    check(page.url() === connections, `after disconnecting: ${page.url()}`);
    check((await page.locator('.card .card', { hasText: 'Assistente no Navegador' }).count()) === 0, 'the client is still listed');
    const revoked = await fetch(mcp.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.json.access_token}`,
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    check(revoked.status === 401, `the disconnected client's token: HTTP ${revoked.status}`);
    ok("pressed Desconectar: the client is gone from the page and its token is refused (401)");
    const replay = await postForm(`${origin}/token`, exchange);
    check(replay.status === 400 && replay.json.error === 'invalid_grant', `a replayed code: ${replay.status} ${JSON.stringify(replay.json)}`);
    ok('the code, used once, is refused the second time');
    await page.close();
  } finally {
    client.server.close();
  }
}

async function main() {
  const [origin, dir] = process.argv.slice(2);
  const token = process.env.KOBANA_DUNNING_TOKEN;
  const email = process.env.KOBANA_DUNNING_DEMO_EMAIL;
  const password = process.env.KOBANA_DUNNING_DEMO_PASSWORD;
  if (!origin || !dir || !token || !email || !password) {
    console.error('usage: KOBANA_DUNNING_TOKEN=… KOBANA_DUNNING_DEMO_EMAIL=… KOBANA_DUNNING_DEMO_PASSWORD=… node sign_in_and_approve.mjs ORIGIN DIR');
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  const executablePath = process.env.KOBANA_DUNNING_CHROMIUM || '/usr/bin/chromium';
  // playwright gives each launch a fresh, empty profile directory, and removes it afterwards.
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    ok(`launched ${executablePath} ${browser.version()} headless`);
    const person = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false, locale: 'pt-BR' });
    const mcp = new Mcp(origin, token);
    await approveThroughTheLink(browser, person, mcp, origin, email, password, dir);
    await allowOnTheConsentPage(browser, person, mcp, origin, email, dir);
    await person.close();
  } finally {
    await browser.close();
  }
  for (const path of shots) console.log(`screenshot: ${path}`);
  console.log('sign_in_and_approve: all checks passed');
}

try {
  await main();
} catch (err) {
  const message = err instanceof CheckFailed ? err.message : `${err?.name}: ${err?.message ?? err}`;
  console.error(`FAIL ${message}`);
  if (!(err instanceof CheckFailed) && err?.stack) console.error(err.stack);
  process.exit(1);
}
