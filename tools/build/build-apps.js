'use strict';
// Bundles each app's TypeScript (and the workspace libraries it imports) into dist/apps/<app>/main.js.
// npm packages stay external so OpenTelemetry's require hooks can instrument them, except ES-module-only
// packages (the unified/remark family, file-type): esbuild's CommonJS interop would hand their namespace
// object to a default import, so they are bundled and converted instead.
const path = require('node:path');
const fs = require('node:fs');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..', '..');

function appEntries() {
  const apps = path.join(root, 'apps');
  const entries = {};
  for (const name of fs.readdirSync(apps)) {
    const main = path.join(apps, name, 'src', 'main.ts');
    if (fs.existsSync(main)) entries[`${name}/main`] = main;
  }
  entries.telemetry = path.join(root, 'libs/platform/telemetry/src/register.ts');
  return entries;
}

function isModulePackage(name) {
  const manifest = path.join(root, 'node_modules', name, 'package.json');
  return fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).type === 'module';
}

function externalPackages() {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.keys({ ...dependencies, ...devDependencies })
    .filter((name) => !isModulePackage(name))
    .flatMap((name) => [name, `${name}/*`]);
}

async function buildApps({ only } = {}) {
  const entryPoints = appEntries();
  if (only) for (const key of Object.keys(entryPoints)) if (!key.startsWith(`${only}/`) && key !== 'telemetry') delete entryPoints[key];
  await esbuild.build({
    entryPoints,
    outdir: path.join(root, 'dist/apps'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: externalPackages(),
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
}

module.exports = { buildApps };

if (require.main === module) {
  const only = process.argv[2];
  buildApps({ only }).catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
