'use strict';
// Decides whether the apps need building: a fingerprint of everything the bundles are made from (the
// path, size and modification time of every file under apps/ and libs/, the package and TypeScript
// settings, the build script). `npm start` builds only when it differs from the last build's.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const root = path.resolve(__dirname, '..', '..');
const stampFile = path.join(root, 'dist/apps/.sources-fingerprint');
const SKIP = new Set(['node_modules', 'dist', '.cache', 'coverage']);

function walk(dir, hash) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIP.has(e.name)) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full, hash);
    else if (e.isFile()) {
      const st = fs.statSync(full);
      hash.update(`${path.relative(root, full)}\0${st.size}\0${st.mtimeMs}\n`);
    }
  }
}

function sourcesFingerprint() {
  const hash = crypto.createHash('sha256');
  for (const dir of ['apps', 'libs']) walk(path.join(root, dir), hash);
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tools/build/build-apps.js']) {
    const st = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    hash.update(`${file}\0${st?.size}\0${st?.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** Builds the apps unless their sources are unchanged since the last build; answers whether it built. */
async function buildIfChanged() {
  const { buildApps } = require('./build-apps');
  const fingerprint = sourcesFingerprint();
  const last = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8') : undefined;
  if (last === fingerprint && fs.existsSync(path.join(root, 'dist/apps/telemetry.js'))) return false;
  await buildApps();
  fs.writeFileSync(stampFile, fingerprint);
  return true;
}

module.exports = { sourcesFingerprint, buildIfChanged };
