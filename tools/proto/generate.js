#!/usr/bin/env node
'use strict';
// Generates TypeScript for @grpc/grpc-js from proto/ with ts-proto, into libs/shared/contracts.
// `--check` regenerates into a temporary folder and fails when the committed code differs.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const protoDir = path.join(root, 'proto');
const outDir = path.join(root, 'libs/shared/contracts/src/generated');
const protocPkg = path.dirname(require.resolve('protoc/package.json'));
const plugin = path.join(root, 'node_modules/.bin/protoc-gen-ts_proto');

const OPTIONS = [
  'outputServices=grpc-js',
  'env=node',
  'esModuleInterop=true',
  'forceLong=number',
  'useDate=false',
  'useOptionals=none',
  'outputJsonMethods=true',
  'exportCommonSymbols=false',
].join(',');

function protoFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return protoFiles(p);
    return e.name.endsWith('.proto') ? [path.relative(protoDir, p)] : [];
  }).sort();
}

function generate(target) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  execFileSync(process.execPath, [
    path.join(protocPkg, 'protoc.cjs'),
    `--plugin=protoc-gen-ts_proto=${plugin}`,
    `--ts_proto_out=${target}`,
    `--ts_proto_opt=${OPTIONS}`,
    `-I${protoDir}`,
    ...protoFiles(protoDir),
  ], { cwd: protoDir, stdio: 'inherit' });
}

function listFiles(dir) {
  return fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

function check() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-proto-'));
  try {
    generate(tmp);
    const fresh = listFiles(tmp);
    const committed = fs.existsSync(outDir) ? listFiles(outDir) : [];
    const stale = [...new Set([...fresh, ...committed])].filter((f) => {
      const a = path.join(tmp, f);
      const b = path.join(outDir, f);
      return !fs.existsSync(a) || !fs.existsSync(b) || fs.readFileSync(a, 'utf8') !== fs.readFileSync(b, 'utf8');
    });
    return stale;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { generate: () => generate(outDir), check };

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const stale = check();
    if (stale.length) {
      console.error(`generated contracts are stale (run npm run proto:gen): ${stale.join(', ')}`);
      process.exit(1);
    }
    console.log('generated contracts are up to date');
  } else {
    generate(outDir);
    console.log(`generated ${listFiles(outDir).length} files into ${path.relative(root, outDir)}`);
  }
}
