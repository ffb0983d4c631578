#!/usr/bin/env node
'use strict';
// Extracts the operations (method and path) of the API reference's "Endpoints" section into
// apps/gateway/src/contract/reference-operations.json, which the gateway's contract-coverage test
// reads. The reference is kept outside the repository; run this again when it changes:
//   node tools/contract/reference-operations.js <path to api-reference.md>
// `--check` compares with the committed file instead of writing it.
const fs = require('node:fs');
const path = require('node:path');

const OUT = path.resolve(__dirname, '../../apps/gateway/src/contract/reference-operations.json');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `prefix…` written as `.../<segment>/…`: the previous path up to where that segment starts. */
function underPrevious(rest, previous) {
  const segment = rest.split('/')[1];
  const at = [...previous.matchAll(new RegExp(`/${segment.replace(/[{}]/g, '\\$&')}(?=/|$)`, 'g'))].pop();
  if (!at) throw new Error(`cannot place .../${rest} under ${previous}`);
  return previous.slice(0, at.index) + rest;
}

function extract(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Endpoints');
  if (start < 0) throw new Error('no "## Endpoints" section');
  const ops = [];
  let base = '';
  let previous = '';
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line)) break;
    if (/^### /.test(line)) base = previous = '';
    const baseLine = line.match(/^Base: `([^`]+)`/);
    if (baseLine) base = baseLine[1];
    // Prose: "under `<base>` with these suffixes: `` (GET, …), `/import` (POST, …), …"
    const under = line.match(/under `([^`]+)` with these suffixes: (.*)$/);
    if (under) {
      for (const m of under[2].matchAll(/`([^`]*)` \((GET|POST|PUT|PATCH|DELETE)\b/g)) ops.push({ method: m[2], path: under[1] + m[1] });
      continue;
    }
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4) continue;
    const method = cells[1].split(/\s/)[0];
    if (!METHODS.includes(method)) continue;
    let p = cells[2].replace(/\s*\(.*\)\s*$/, '').replace(/\s+with .*$/, '');
    if (p.startsWith('same')) p = previous;
    else if (p === '' || p === '(none)') p = base;
    else if (p.startsWith('...')) p = underPrevious(p.slice(3), previous);
    else if (base && !p.startsWith('/v1/')) p = base + p;
    if (!p.startsWith('/v1/')) throw new Error(`unreadable path in: ${line}`);
    ops.push({ method, path: p });
    previous = p;
  }
  return ops;
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const source = args.find((a) => !a.startsWith('--'));
  if (!source) throw new Error('usage: reference-operations.js <api-reference.md> [--check]');
  const ops = extract(fs.readFileSync(source, 'utf8'));
  const keys = ops.map((o) => `${o.method} ${o.path}`);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) throw new Error(`listed twice: ${dup}`);
  const text = `${JSON.stringify(ops, null, 2)}\n`;
  if (check) {
    const same = fs.existsSync(OUT) && fs.readFileSync(OUT, 'utf8') === text;
    console.log(same ? `up to date: ${ops.length} operations` : `differs from the reference (${ops.length} operations there)`);
    process.exit(same ? 0 : 1);
  }
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, text);
  console.log(`wrote ${ops.length} operations to ${path.relative(process.cwd(), OUT)}`);
}

if (require.main === module) main();
module.exports = { extract };
