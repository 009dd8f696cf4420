#!/usr/bin/env node
// Reads the demo organization's open charges over /v1 and decodes each charge's Pix code with an
// independent BR Code parser (pix-utils, from the npm registry): its CRC must hold, and its key,
// amount and txid must be the organization's key, the charge's balance and the charge's txid.
//
// Usage:
//   KOBANA_DUNNING_TOKEN=kd_at_... node pix_decode.mjs http://127.0.0.1:PORT
//
// Prints one line per charge and exits non-zero at the first failed check, naming it.

import { parsePix, hasError } from 'pix-utils';

const [base] = process.argv.slice(2);
const token = process.env.KOBANA_DUNNING_TOKEN;
if (!base || !token) {
  console.error('usage: KOBANA_DUNNING_TOKEN=... node pix_decode.mjs <server URL>');
  process.exit(2);
}

function fail(message) {
  console.error(`FAILED: ${message}`);
  process.exit(1);
}

async function get(path) {
  const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (answer.status !== 200) fail(`GET ${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).data;
}

const me = await get('/v1/me');
const account = me.organization.pix;
if (!account) fail('the demo organization has no Pix account');
const charges = await get('/v1/charges?status=pending,overdue&per_page=100');
if (charges.length === 0) fail('the demo organization has no open charge');

for (const charge of charges) {
  if (!charge.pix) fail(`${charge.id} offers no Pix code`);
  const pix = parsePix(charge.pix.emv);
  if (hasError(pix)) fail(`${charge.id}: pix-utils refuses its code (${pix.message}): ${charge.pix.emv}`);
  if (pix.type !== 'STATIC') fail(`${charge.id}: a ${pix.type} code, not a static one`);
  if (pix.pixKey !== account.key) fail(`${charge.id}: key ${pix.pixKey}, the organization's is ${account.key}`);
  if (Math.round(pix.transactionAmount * 100) !== Math.round(charge.balance * 100)) {
    fail(`${charge.id}: amount ${pix.transactionAmount}, the balance is ${charge.balance}`);
  }
  if (pix.txid !== charge.pix.txid) fail(`${charge.id}: txid ${pix.txid}, the charge says ${charge.pix.txid}`);
  console.log(`ok ${charge.id}: ${pix.pixKey} R$ ${pix.transactionAmount.toFixed(2)} txid ${pix.txid}`);
}

// A changed digit breaks the CRC, which the parser checks on its own.
const code = charges[0].pix.emv;
const at = code.indexOf('5802BR') - 2;
const changed = code.slice(0, at) + (code[at] === '1' ? '2' : '1') + code.slice(at + 1);
if (!hasError(parsePix(changed))) fail('pix-utils took a code with a changed digit');
console.log(`ok: ${charges.length} codes decoded; a changed digit is refused`);
