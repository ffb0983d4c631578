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
  // Property names follow json_name, so a message and its REST shape agree field for field.
  'useJsonName=true',
].join(',');

function protoFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return protoFiles(p);
      return e.name.endsWith('.proto') ? [path.relative(protoDir, p)] : [];
    })
    .sort();
}

function generate(target) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  execFileSync(
    process.execPath,
    [
      path.join(protocPkg, 'protoc.cjs'),
      `--plugin=protoc-gen-ts_proto=${plugin}`,
      `--ts_proto_out=${target}`,
      `--ts_proto_opt=${OPTIONS}`,
      `-I${protoDir}`,
      ...protoFiles(protoDir),
    ],
    { cwd: protoDir, stdio: 'inherit' },
  );
  for (const [proto, parts] of partsByFile()) {
    fs.writeFileSync(path.join(target, `${proto.replace(/\.proto$/, '')}.all.ts`), wholeModuleSource(proto, parts));
  }
}

/**
 * A large .proto is split into parts beside it, `<file>.<part>.proto` (same package): every file that
 * has parts, with the parts, in order.
 */
function partsByFile() {
  const files = protoFiles(protoDir);
  const found = new Map();
  for (const proto of files) {
    const m = proto.match(/^(.*\/[^/.]+)\.[^/]+\.proto$/);
    if (!m) continue;
    const whole = `${m[1]}.proto`;
    if (!files.includes(whole)) throw new Error(`${proto} is a part of ${whole}, which does not exist`);
    found.set(whole, [...(found.get(whole) ?? []), proto]);
  }
  return found;
}

/** The module that exports a file and its parts together: what its consumers import, as before the split. */
function wholeModuleSource(proto, parts) {
  const base = (p) => `./${path.posix.basename(p).replace(/\.proto$/, '')}`;
  const lines = [`// ${proto} with its parts, as one module (see tools/proto/generate.js); never edited by hand.`];
  for (const p of [proto, ...parts]) lines.push(`export * from '${base(p)}';`);
  return lines.join('\n') + '\n';
}

const camel = (s) => s.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase());
const pascal = (s) => camel(s).replace(/^./, (c) => c.toUpperCase());

/**
 * The name a generated module is exported under: bindery/<svc>/v1/<svc>.proto → <svc>V1,
 * bindery/<svc>/v1/<file>.proto → <svc><File>V1, bindery/events/<svc>/v1/events.proto → <svc>EventsV1.
 */
function exportName(protoPath) {
  const parts = protoPath.replace(/\.proto$/, '').split('/');
  if (parts[0] !== 'bindery') return undefined;
  // a part of a split file is exported with that file (its .all module)
  if (parts[parts.length - 1].includes('.')) return undefined;
  if (parts[1] === 'events') return `${camel(parts[2])}Events${pascal(parts[3])}`;
  const [, svc, version, file] = parts;
  if (svc === 'common') return undefined;
  return file === svc ? `${camel(svc)}${pascal(version)}` : `${camel(svc)}${pascal(file)}${pascal(version)}`;
}

/** libs/shared/contracts/src/index.ts: every generated module, so a new .proto needs no hand edit. */
function indexSource() {
  const lines = ['// The generated gRPC and event contracts (see tools/proto/generate.js); never edited by hand.', "export * from './generated/grpc/health/v1/health';"];
  // The shared messages (pages, runs) are exported flat: every service uses them.
  for (const proto of protoFiles(protoDir).filter((p) => p.startsWith('bindery/common/'))) {
    lines.push(`export * from './generated/${proto.replace(/\.proto$/, '')}';`);
  }
  const split = partsByFile();
  for (const proto of protoFiles(protoDir)) {
    const name = exportName(proto);
    const module = proto.replace(/\.proto$/, '') + (split.has(proto) ? '.all' : '');
    if (name) lines.push(`export * as ${name} from './generated/${module}';`);
  }
  // The one hand-written mapping beside them: a GitBook document's JSON ⇄ its message.
  lines.push("export * from './document-message';");
  return lines.join('\n') + '\n';
}
const indexFile = path.join(root, 'libs/shared/contracts/src/index.ts');

function listFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
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
    if (!fs.existsSync(indexFile) || fs.readFileSync(indexFile, 'utf8') !== indexSource()) stale.push('index.ts');
    return stale;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function generateAll() {
  generate(outDir);
  fs.writeFileSync(indexFile, indexSource());
}

module.exports = { generate: generateAll, check };

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const stale = check();
    if (stale.length) {
      console.error(`generated contracts are stale (run npm run proto:gen): ${stale.join(', ')}`);
      process.exit(1);
    }
    console.log('generated contracts are up to date');
  } else {
    generateAll();
    console.log(`generated ${listFiles(outDir).length} files into ${path.relative(root, outDir)}`);
  }
}
