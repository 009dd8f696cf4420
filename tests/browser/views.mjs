#!/usr/bin/env node
// The MCP App views' browser acceptance: a host page built on the pinned SDK's AppBridge shows
// each view in a sandboxed iframe (`sandbox="allow-scripts"`) under the extension's default CSP,
// in headless Chromium (Debian's, driven by playwright-core), with real results of the real
// server. The MCP traffic goes from the host page through Node to the server; the view talks
// only to the host, and any request leaving its frame fails the run.
//
// For each view: call its tool, read the view (resources/read), hand the result to the view
// through the bridge, and check what a person sees (the debtor's name, R$ amounts, DD/MM/AAAA
// dates, the next step); no console error; axe-core finds no serious or critical violation in
// light and dark; screenshots at 1024 and 360 px, light and dark, go to the directory given.
//
// Usage:
//   KOBANA_DUNNING_TOKEN=kd_at_... node views.mjs http://127.0.0.1:PORT SCREENSHOT_DIR
// KOBANA_DUNNING_CHROMIUM names the browser (default /usr/bin/chromium).
//
// Prints one line per check (`ok   ...`), `confirming: <charge>` and `approval: <url>` for the
// notification the server asked to confirm, `paused: <charge>` for the one the view paused, one
// `screenshot: <path>` per file, and exits non-zero at the first failed check, naming it.

import { readFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const HOST_ORIGIN = 'http://host.invalid';
const WIDTHS = [1024, 360];
const THEMES = ['light', 'dark'];
const VIEW_BUDGET = 64 * 1024;
// The flags Debian's chromium needs on a machine without outside network.
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

// --- MCP over plain HTTP, as a 2025-06-18 client (destructive tools go through approval) -----

class Mcp {
  constructor(origin, token) {
    this.url = `${origin}/mcp`;
    this.token = token;
    this.id = 0;
    this.methods = [];
  }

  async request(method, params) {
    this.methods.push(method);
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.token}`,
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

  // The whole CallToolResult, as a host hands it to a view.
  async tool(name, args) {
    const result = await this.request('tools/call', { name, arguments: args });
    check(result.content?.length === 1 && result.content[0].type === 'text', `${name}: ${JSON.stringify(result).slice(0, 300)}`);
    return result;
  }

  async json(name, args) {
    const result = await this.tool(name, args);
    check(!result.isError, `${name}: unexpected error ${result.content[0].text.slice(0, 300)}`);
    return JSON.parse(result.content[0].text);
  }
}

// --- The views, as the server serves them -----------------------------------------------------

// The view's HTML through resources/read, as a host reads it.
async function readView(mcp, name) {
  const uri = `ui://kobana-dunning/${name}`;
  const result = await mcp.request('resources/read', { uri });
  const content = result.contents?.[0];
  check(content?.uri === uri, `resources/read ${uri}: ${JSON.stringify(result).slice(0, 300)}`);
  check(content.mimeType === 'text/html;profile=mcp-app', `${uri}: mimeType ${content.mimeType}`);
  const html = content.text ?? Buffer.from(content.blob, 'base64').toString('utf8');
  check(Buffer.byteLength(html) <= VIEW_BUDGET, `${uri} is ${Buffer.byteLength(html)} B, over ${VIEW_BUDGET} B`);
  // No external origin of any kind: no URL at all in a src, href, url() or import.
  const external = /\b(?:src|href)\s*=\s*["']?(?!#|data:)[^"'\s>]+|url\(\s*["']?(?!data:|#)[^)]+\)|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i.exec(html);
  check(!external, `${uri} references something outside itself: ${external && external[0]}`);
  const domains = Object.values(content._meta?.ui?.csp ?? {}).flat();
  check(!domains.length, `${uri} asks for CSP domains: ${JSON.stringify(content._meta?.ui?.csp)}`);
  return html;
}

// --- The host page --------------------------------------------------------------------------

// The module specifiers the app bridge imports, transitively, resolved the way a browser
// bundler would (package exports, "browser" before "import"), for the host page's import map.
function importMap() {
  const modules = join(HERE, 'node_modules');
  const conditions = ['browser', 'import', 'default'];
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (!target || typeof target !== 'object') return null;
    for (const c of conditions) if (c in target) return pick(target[c]);
    return null;
  };
  const resolveBare = (specifier) => {
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    const sub = `.${specifier.slice(name.length)}`;
    const pkg = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8'));
    let target = null;
    if (pkg.exports) {
      const exp = typeof pkg.exports === 'string' || !Object.keys(pkg.exports).some((k) => k.startsWith('.')) ? { '.': pkg.exports } : pkg.exports;
      target = pick(exp[sub]);
    } else if (sub === '.') {
      target = pkg.module || pkg.main || 'index.js';
    }
    check(target, `cannot resolve ${specifier} for the browser`);
    return join(modules, name, target);
  };
  const imports = {};
  const seen = new Set();
  const queue = [resolveBare('@modelcontextprotocol/ext-apps/app-bridge')];
  imports['@modelcontextprotocol/ext-apps/app-bridge'] = queue[0];
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    // Static imports and re-exports only: dynamic import() is loaded on demand, never here.
    for (const m of source.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+)["']/g)) {
      const specifier = m[1];
      if (specifier.startsWith('node:')) continue;
      const path = specifier.startsWith('.') ? resolve(dirname(file), specifier) : resolveBare(specifier);
      if (!specifier.startsWith('.')) imports[specifier] = path;
      queue.push(path);
    }
  }
  const url = (path) => `${HOST_ORIGIN}/node_modules/${path.slice(modules.length + 1)}`;
  return { imports: Object.fromEntries(Object.entries(imports).map(([k, v]) => [k, url(v)])), modules };
}

async function openHost(browser, mcp, failures) {
  const { imports, modules } = importMap();
  const hostHtml = readFileSync(join(HERE, 'views_host.html'), 'utf8').replace(
    '<!-- IMPORT_MAP -->',
    `<script type="importmap">${JSON.stringify({ imports })}</script>`,
  );
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') failures.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
  // The host page and its modules are served here; the view's frame may request nothing at all.
  await page.route('**/*', async (route) => {
    const request = route.request();
    const frame = request.frame();
    if (frame !== page.mainFrame()) {
      failures.push(`the view's frame requested ${request.url()}`);
      return route.abort('blockedbyclient');
    }
    const url = new URL(request.url());
    if (url.origin !== HOST_ORIGIN) {
      failures.push(`the host page requested ${request.url()}`);
      return route.abort('blockedbyclient');
    }
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: hostHtml });
    const file = resolve(modules, `.${decodeURIComponent(url.pathname).replace(/^\/node_modules/, '')}`);
    check(file.startsWith(modules), `outside node_modules: ${url.pathname}`);
    return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: readFileSync(file) });
  });
  await page.exposeFunction('kdMcp', (method, params) => mcp.request(method, params));
  await page.goto(`${HOST_ORIGIN}/`);
  await page.waitForFunction(() => window.kdReady === true);
  ok(`host page loaded the pinned AppBridge (${Object.keys(imports).length} module specifiers)`);
  return page;
}

// --- Looking at a view -------------------------------------------------------------------------

async function mount(page, view) {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.evaluate((v) => window.kdMount(v), view);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  check(frame, 'the view has a frame');
  await page.waitForFunction(() => window.kdLog.initialized === 1);
  // Loaded: nothing is busy any more.
  await frame.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, null, { timeout: 15000 });
  return frame;
}

async function text(frame) {
  return (await frame.evaluate(() => document.body.innerText)).replace(/\u00a0/g, ' ');
}

function brl(value) {
  return new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value).replace(/\u00a0/g, ' ');
}

function ddmmyyyy(iso) {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

const axeSource = readFileSync(join(HERE, 'node_modules/axe-core/axe.min.js'), 'utf8');

async function axe(frame, label) {
  if (!(await frame.evaluate(() => typeof window.axe === 'object'))) await frame.evaluate(axeSource);
  const result = await frame.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  check(!bad.length, `${label}: axe-core found ${bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('; ')}`);
  ok(`${label}: axe-core finds no serious or critical violation (${result.violations.length} minor)`);
}

// The cumulative layout shift inside the view since it loaded (Chromium's layout-shift entries),
// checked against the 0.1 that counts as good.
async function noLayoutShift(frame, name) {
  const { total, sources } = await frame.evaluate(
    () =>
      new Promise((done) => {
        let total = 0;
        const sources = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            total += e.value;
            for (const s of e.sources || []) sources.push(`${s.node?.id || s.node?.nodeName} ${JSON.stringify(s.previousRect)}→${JSON.stringify(s.currentRect)}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => done({ total, sources }), 100);
      }),
  );
  check(total < 0.1, `${name}: the layout shifted by ${total.toFixed(3)} when the data arrived: ${sources.join('; ')}`);
  ok(`${name}: cumulative layout shift ${total.toFixed(3)} while the data arrived`);
}

// The host has sized the frame to the view's content (its size-changed), and both painted.
async function settled(page, frame) {
  const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (let i = 0; i < 50; i++) {
    await frame.evaluate(painted);
    const wanted = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const given = await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
    if (Math.abs(wanted - given) <= 1) return page.evaluate(painted);
    await page.waitForTimeout(50);
  }
  throw new CheckFailed('the host never sized the view to its content (ui/notifications/size-changed)');
}

const shots = [];

// Both themes at both widths; the view fits each width without horizontal scrolling.
async function screenshots(page, frame, name, dir) {
  for (const theme of THEMES) {
    await page.evaluate((t) => window.kdTheme(t), theme);
    await frame.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await frame.waitForFunction((w) => document.documentElement.clientWidth === w, width);
      await settled(page, frame);
      const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      check(overflow <= 0, `${name} at ${width} px scrolls sideways by ${overflow} px`);
      if (width === 1024) await axe(frame, `${name} (${theme})`);
      // The window as tall as the page, so the screenshot needs no resize while it is taken
      // (which can leave the view's frame unpainted).
      const height = Math.max(800, Math.ceil(await page.evaluate(() => document.documentElement.scrollHeight)));
      await page.setViewportSize({ width, height });
      await settled(page, frame);
      const path = join(dir, `view-${name}-${theme}-${width}.png`);
      await page.screenshot({ path });
      shots.push(path);
    }
  }
  ok(`${name}: fits 1024 and 360 px, light and dark (4 screenshots)`);
}

// --- The scenario -----------------------------------------------------------------------------

async function chargeTimeline(page, mcp, dir) {
  const listed = await mcp.json('dunning_charges_list', { dunning_status: 'awaiting_decision', status: 'overdue', per_page: 1, sort_by: 'due_date', sort_order: 'desc' });
  const id = listed.data[0].id;
  const result = await mcp.tool('dunning_charges_get', { id });
  const charge = JSON.parse(result.content[0].text).data;
  const frame = await mount(page, { html: await readView(mcp, 'charge-timeline'), tool: 'dunning_charges_get', args: { id }, result, theme: 'light' });
  const seen = await text(frame);
  for (const expected of [charge.debtor_name, brl(charge.amount), brl(charge.balance), ddmmyyyy(charge.due_date), 'Vencida', 'Aguardando decisão', charge.pending_decision.step_name]) {
    check(seen.includes(expected), `charge-timeline shows ${JSON.stringify(expected)}:\n${seen}`);
  }
  const next = await frame.evaluate(() => document.querySelector('[aria-current="step"]')?.innerText.replace(/\u00a0/g, ' '));
  check(next && next.includes(charge.pending_decision.step_name) && next.includes('Próxima etapa'), `the next step is highlighted: ${next}`);
  check(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/.test(next), `the next step carries its date and time: ${next}`);
  ok(`charge-timeline: ${charge.debtor_name}, ${brl(charge.balance)}, due ${ddmmyyyy(charge.due_date)}, next step "${charge.pending_decision.step_name}"`);
  const steps = await frame.evaluate(() => [...document.querySelectorAll('#timeline li')].map((li) => li.innerText));
  check(steps.some((s) => /Enviada|enviada/.test(s)), `charge-timeline shows sent steps: ${steps.join(' | ')}`);
  ok(`charge-timeline: ${steps.length} entries on the line, read through the host (notifications, events, the policy's schedule)`);
  const called = await page.evaluate(() => window.kdLog.calls.map((c) => c.name));
  for (const name of ['dunning_notifications_list', 'dunning_events_list', 'dunning_collection_policies_preview']) {
    check(called.includes(name), `charge-timeline read ${name} through the host: ${called}`);
  }
  await noLayoutShift(frame, 'charge-timeline');
  await screenshots(page, frame, 'charge-timeline', dir);

  // A destructive action: the server answers with its confirmation flow (an approval link).
  await page.evaluate(() => { window.kdLog.calls = []; });
  await frame.getByRole('button', { name: 'Notificar devedor' }).click();
  await frame.waitForFunction(() => /aprova/i.test(document.getElementById('announce').innerText));
  const notify = await page.evaluate(() => window.kdLog.calls.find((c) => c.name === 'dunning_charges_notify'));
  check(notify && notify.arguments.id === id && notify.arguments.channel === 'email', `the button called dunning_charges_notify: ${JSON.stringify(notify)}`);
  const refusal = JSON.parse(notify.result.content[0].text).error;
  check(notify.result.isError && refusal.code === 'CONFIRMATION_REQUIRED' && refusal.details.approval_url, `the server asked for confirmation: ${JSON.stringify(refusal)}`);
  const announced = (await frame.locator('#announce').innerText()).replace(/\u00a0/g, ' ');
  check(announced.includes(refusal.details.approval_url), `the view shows the server's message: ${announced}`);
  await frame.getByRole('button', { name: 'Abrir a aprovação' }).click();
  await page.waitForFunction((url) => window.kdLog.links.includes(url), refusal.details.approval_url);
  ok(`charge-timeline: "Notificar devedor" sent tools/call dunning_charges_notify; the server answered CONFIRMATION_REQUIRED and the view opened ${refusal.details.approval_url} through the host`);
  console.log(`confirming: ${id}`);
  console.log(`approval: ${refusal.details.approval_url}`);

  // An ordinary action on a charge whose régua runs: it runs, and the view shows the charge as
  // it is now.
  const active = (await mcp.json('dunning_charges_list', { dunning_status: 'active', status: 'overdue', per_page: 1, sort_by: 'due_date', sort_order: 'desc' })).data[0].id;
  const running = await mount(page, { html: await readView(mcp, 'charge-timeline'), tool: 'dunning_charges_get', args: { id: active }, result: await mcp.tool('dunning_charges_get', { id: active }), theme: 'light' });
  const upcoming = await running.evaluate(() => document.querySelector('[aria-current="step"]')?.innerText.replace(/\u00a0/g, ' '));
  check(upcoming && upcoming.includes('Próxima etapa') && /\d{2}\/\d{2}\/\d{4}/.test(upcoming), `an active charge's next planned step is highlighted: ${upcoming}`);
  await running.getByRole('button', { name: 'Pausar régua' }).click();
  await running.getByRole('button', { name: 'Retomar régua' }).waitFor();
  const paused = await text(running);
  check(paused.includes('Régua pausada'), `after pausing, the view shows the pause: ${paused}`);
  // Once the view has reloaded the charge, the keyboard is on what it says happened.
  await running.waitForFunction(() => document.activeElement?.id === 'announce', null, { timeout: 10000 });
  ok(`charge-timeline: next step "${upcoming.split('\n')[0]}"; "Pausar régua" paused the charge through the host and the view, reloaded, offers "Retomar régua"`);
  console.log(`paused: ${active}`);
}

async function debtorOverview(page, mcp, dir) {
  // The debtor with the most open charges, so every part of the view has something to show.
  const charges = await mcp.json('dunning_charges_list', { status: 'pending,overdue', per_page: 100 });
  const counts = new Map();
  for (const c of charges.data.filter((c) => c.status === 'overdue')) counts.set(c.debtor_id, 0);
  for (const c of charges.data) if (counts.has(c.debtor_id)) counts.set(c.debtor_id, counts.get(c.debtor_id) + 1);
  const debtorId = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const result = await mcp.tool('dunning_debtors_get', { id: debtorId });
  const debtor = JSON.parse(result.content[0].text).data;
  const open = await mcp.json('dunning_charges_list', { debtor_id: debtorId, status: 'pending,overdue', per_page: 100 });
  const html = await readView(mcp, 'debtor-overview');
  const frame = await mount(page, { html, tool: 'dunning_debtors_get', args: { id: debtorId }, result, theme: 'light' });
  const seen = await text(frame);
  for (const expected of [debtor.name, brl(debtor.summary.open_amount), brl(debtor.summary.overdue_amount), 'A vencer', '1 a 30 dias', '31 a 60 dias', '61 a 90 dias', 'Mais de 90 dias', ddmmyyyy(open.data[0].due_date)]) {
    check(seen.includes(expected), `debtor-overview shows ${JSON.stringify(expected)}:\n${seen}`);
  }
  check(/Última mensagem: .+ em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}|Nenhuma mensagem enviada/.test(seen), `debtor-overview shows the last message: ${seen}`);
  const rows = await frame.locator('#charges tbody tr').count();
  check(rows === open.data.length, `debtor-overview lists ${open.data.length} open charges, shows ${rows}`);
  ok(`debtor-overview: ${debtor.name}, ${brl(debtor.summary.open_amount)} open, ${rows} open charges by age, channels and last message`);
  await noLayoutShift(frame, 'debtor-overview');
  await screenshots(page, frame, 'debtor-overview', dir);

  // The statement's answer describes a PDF: the view finds the debtor from the call's arguments.
  const statement = await mcp.tool('dunning_debtors_statement', { id: debtorId });
  const again = await mount(page, { html, tool: 'dunning_debtors_statement', args: { id: debtorId }, result: statement, theme: 'light' });
  const shown = await text(again);
  check(shown.includes(debtor.name) && shown.includes('Extrato em PDF'), `debtor-overview for the statement: ${shown}`);
  ok('debtor-overview: also shows dunning_debtors_statement (the debtor read through the host)');
}

async function agreementSimulator(page, mcp, dir) {
  const charges = await mcp.json('dunning_charges_list', { status: 'overdue', dunning_status: 'active', per_page: 100 });
  const chargeId = charges.data.sort((a, b) => b.balance - a.balance)[0].id;
  const today = (await mcp.json('dunning_me', {})).data.organization.today;
  const first = new Date(Date.parse(`${today}T12:00:00Z`) + 10 * 86400000).toISOString().slice(0, 10);
  const args = { charge_ids: [chargeId], installments_count: 6, first_due_date: first };
  const result = await mcp.tool('dunning_agreements_simulate', args);
  const six = JSON.parse(result.content[0].text).data;
  const debtor = (await mcp.json('dunning_debtors_get', { id: six.debtor_id })).data;
  const frame = await mount(page, { html: await readView(mcp, 'agreement-simulator'), tool: 'dunning_agreements_simulate', args, result, theme: 'light' });
  await frame.waitForFunction((name) => document.getElementById('who').innerText.includes(name), debtor.name);
  let seen = await text(frame);
  for (const expected of [debtor.name, brl(six.total_amount), brl(six.installments[0].amount), ddmmyyyy(six.installments[0].due_date)]) {
    check(seen.includes(expected), `agreement-simulator shows ${JSON.stringify(expected)}:\n${seen}`);
  }
  check((await frame.locator('#schedule tbody tr').count()) === 6, 'agreement-simulator shows 6 installments');
  ok(`agreement-simulator: ${debtor.name}, 6 installments of ${brl(six.installments[0].amount)}, total ${brl(six.total_amount)}`);
  await noLayoutShift(frame, 'agreement-simulator');

  // 6 → 10 installments: the view asks the server again and shows its answer.
  await page.evaluate(() => { window.kdLog.calls = []; });
  check((await frame.getByRole('textbox', { name: 'Primeiro vencimento' }).inputValue()) === ddmmyyyy(first), 'the first due date reads DD/MM/AAAA');
  // By keyboard, as a person would: focus the field, replace 6 with 10.
  const installments = frame.getByRole('spinbutton', { name: 'Parcelas' });
  await installments.focus();
  await installments.selectText();
  await page.keyboard.type('10');
  await frame.waitForFunction(() => document.querySelectorAll('#schedule tbody tr').length === 10);
  const resimulated = await page.evaluate(() => window.kdLog.calls.filter((c) => c.name === 'dunning_agreements_simulate'));
  check(resimulated.length >= 1 && resimulated.at(-1).arguments.installments_count === 10, `re-simulated through the host: ${JSON.stringify(resimulated.map((c) => c.arguments))}`);
  const ten = (await mcp.json('dunning_agreements_simulate', { ...args, installments_count: 10 })).data;
  seen = await text(frame);
  const total = (await frame.locator('[data-total]').innerText()).replace(/\u00a0/g, ' ');
  check(total === brl(ten.total_amount), `the total is the API's ${brl(ten.total_amount)}: ${total}`);
  check(seen.includes(brl(ten.installments[9].amount)) && seen.includes(ddmmyyyy(ten.installments[9].due_date)), `the 10th installment is the API's: ${seen}`);
  ok(`agreement-simulator: 6 → 10 installments re-simulated through the host; shows the API's total ${total} and 10th installment on ${ddmmyyyy(ten.installments[9].due_date)}`);
  await screenshots(page, frame, 'agreement-simulator', dir);

  // "Criar acordo" sends the same terms; creating one is confirmed by the server.
  await frame.getByRole('button', { name: 'Criar acordo' }).click();
  await frame.waitForFunction(() => /aprova/i.test(document.getElementById('announce').innerText));
  const created = await page.evaluate(() => window.kdLog.calls.find((c) => c.name === 'dunning_agreements_create'));
  check(created && created.arguments.installments_count === 10 && created.arguments.first_due_date === first && created.arguments.charge_ids[0] === chargeId, `Criar acordo sent the terms on screen: ${JSON.stringify(created?.arguments)}`);
  check(created.result.isError && JSON.parse(created.result.content[0].text).error.code === 'CONFIRMATION_REQUIRED', 'the server asked for confirmation');
  ok('agreement-simulator: "Criar acordo" called dunning_agreements_create with the same terms; the server asked for confirmation');
}

async function portfolio(page, mcp, dir) {
  const result = await mcp.tool('dunning_portfolio_get', {});
  const p = JSON.parse(result.content[0].text).data;
  const frame = await mount(page, { html: await readView(mcp, 'portfolio'), tool: 'dunning_portfolio_get', args: {}, result, theme: 'light' });
  const seen = await text(frame);
  const overdue = p.by_status.find((s) => s.status === 'overdue');
  for (const expected of [brl(p.open.balance_sum), brl(overdue.balance_sum), ddmmyyyy(p.today), 'Mais de 90 dias', 'WhatsApp', brl(p.recovered[0].amount_sum)]) {
    check(seen.includes(expected), `portfolio shows ${JSON.stringify(expected)}:\n${seen}`);
  }
  // The charges per step of the régua, when the answer has them.
  for (const step of p.by_step ?? []) {
    check(seen.includes(step.name ?? 'Etapa removida'), `portfolio shows the step ${JSON.stringify(step.name)}:\n${seen}`);
  }
  const bars = await frame.locator('#ages svg.bar').count();
  check(bars === p.by_age.length, `one bar per age bucket: ${bars}`);
  check((await frame.locator('#recovered svg polyline').count()) === 1, 'a line of recoveries');
  ok(`portfolio: ${brl(p.open.balance_sum)} open on ${ddmmyyyy(p.today)}, ${bars} bars by age, a line of ${p.recovered.length} months recovered`);
  await noLayoutShift(frame, 'portfolio');
  await screenshots(page, frame, 'portfolio', dir);
}

// A tool's error result: the view says what the server said.
async function errorState(page, mcp) {
  const result = await mcp.tool('dunning_charges_get', { id: 'chg_00000000000000000000000000000000' });
  check(result.isError, 'a missing charge is an error result');
  const message = JSON.parse(result.content[0].text).error.message;
  const frame = await mount(page, { html: await readView(mcp, 'charge-timeline'), tool: 'dunning_charges_get', args: { id: 'chg_00000000000000000000000000000000' }, result, theme: 'light' });
  const alert = await frame.getByRole('alert').innerText();
  check(alert.includes(message), `the error state shows the server's message ${JSON.stringify(message)}: ${alert}`);
  ok(`charge-timeline: an error result shows its message ("${message}")`);
}

// The default CSP is in force in the view's frame: an image from elsewhere is refused.
async function cspEnforced(page, mcp) {
  const result = await mcp.tool('dunning_portfolio_get', {});
  const frame = await mount(page, { html: await readView(mcp, 'portfolio'), tool: 'dunning_portfolio_get', args: {}, result, theme: 'light' });
  const directive = await frame.evaluate(
    () =>
      new Promise((done) => {
        document.addEventListener('securitypolicyviolation', (e) => done(e.effectiveDirective));
        const probe = new Image();
        probe.src = 'https://example.invalid/probe.png';
        setTimeout(() => done(null), 2000);
      }),
  );
  check(directive === 'img-src', `the frame's CSP refused an outside image: ${directive}`);
  ok('the default CSP is enforced in the view frame (an outside image is refused by img-src)');
}

async function main() {
  const [origin, dir] = process.argv.slice(2);
  const token = process.env.KOBANA_DUNNING_TOKEN;
  if (!origin || !dir || !token) {
    console.error('usage: KOBANA_DUNNING_TOKEN=… node views.mjs ORIGIN DIR');
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  const executablePath = process.env.KOBANA_DUNNING_CHROMIUM || '/usr/bin/chromium';
  const mcp = new Mcp(origin, token);
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  const failures = [];
  try {
    ok(`launched ${executablePath} ${browser.version()} headless`);
    const page = await openHost(browser, mcp, failures);
    const steps = [chargeTimeline, debtorOverview, agreementSimulator, portfolio, errorState];
    for (const step of steps) {
      await step(page, mcp, dir);
      check(!failures.length, `${step.name}: ${failures.join('\n')}`);
    }
    ok('no console error and no request from any view frame');
    // Last: the probe's refusal is (rightly) logged as a console error.
    await cspEnforced(page, mcp);
  } finally {
    await browser.close();
  }
  for (const path of shots) console.log(`screenshot: ${path}`);
  console.log('views: all checks passed');
}

main().catch((err) => {
  console.error(`FAIL ${err.message}`);
  if (!(err instanceof CheckFailed) && err?.stack) console.error(err.stack);
  process.exit(1);
});
