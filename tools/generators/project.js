#!/usr/bin/env node
'use strict';
// Creates a project with the workspace's conventions:
//   node tools/generators/project.js lib <scope> <name> <type>   → libs/<scope>/<name>, imported as @bindery/<scope>/<name>
//   node tools/generators/project.js app <name> <scope>          → apps/<name>
// Each project gets project.json (tags + test/lint/typecheck targets), tsconfig.json and jest.config.cjs.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function write(file, content) {
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function targets(dir) {
  return {
    test: { executor: 'nx:run-commands', options: { command: `jest -c ${dir}/jest.config.cjs --passWithNoTests`, cwd: '{workspaceRoot}' } },
    lint: { executor: 'nx:run-commands', options: { command: `eslint ${dir} && prettier --check ${dir}`, cwd: '{workspaceRoot}' } },
    typecheck: { executor: 'nx:run-commands', options: { command: `tsc -p ${dir}/tsconfig.json --noEmit`, cwd: '{workspaceRoot}' } },
  };
}

function scaffold(dir, name, tags, extraTargets = {}) {
  const abs = path.join(root, dir);
  const depth = dir
    .split('/')
    .map(() => '..')
    .join('/');
  write(
    path.join(abs, 'project.json'),
    JSON.stringify(
      {
        name,
        $schema: `${depth}/node_modules/nx/schemas/project-schema.json`,
        sourceRoot: `${dir}/src`,
        projectType: dir.startsWith('apps/') ? 'application' : 'library',
        tags,
        targets: { ...targets(dir), ...extraTargets },
      },
      null,
      2,
    ) + '\n',
  );
  write(
    path.join(abs, 'tsconfig.json'),
    JSON.stringify(
      {
        extends: `${depth}/tsconfig.base.json`,
        compilerOptions: { types: ['node', 'jest'] },
        include: ['src/**/*.ts'],
      },
      null,
      2,
    ) + '\n',
  );
  write(path.join(abs, 'jest.config.cjs'), `module.exports = {\n  ...require('${depth}/jest.preset.cjs'),\n  displayName: '${name}',\n  rootDir: __dirname,\n};\n`);
}

/** A library: libs/<scope>/<name>, reached as @bindery/<scope>/<name> through the wildcard alias of tsconfig.base.json. */
function createLib(scope, name, type) {
  const dir = `libs/${scope}/${name}`;
  scaffold(dir, `${scope}-${name}`, [`scope:${scope}`, `type:${type}`]);
  write(path.join(root, dir, 'src/index.ts'), '');
  return dir;
}

function createApp(name, scope) {
  const dir = `apps/${name}`;
  const type = name.endsWith('-e2e') ? 'e2e' : 'app';
  scaffold(
    dir,
    name,
    [`scope:${scope}`, `type:${type}`],
    type === 'app' ? { build: { executor: 'nx:run-commands', options: { command: `node tools/build/build-apps.js ${name}`, cwd: '{workspaceRoot}' } } } : {},
  );
  return dir;
}

module.exports = { createLib, createApp, write, root };

const [kind, ...args] = require.main === module ? process.argv.slice(2) : ['--as-module'];
if (kind === '--as-module') {
  // required by another generator
} else if (kind === 'lib') {
  const [scope, name, type] = args;
  if (!scope || !name || !type) throw new Error('usage: project.js lib <scope> <name> <type>');
  createLib(scope, name, type);
} else if (kind === 'app') {
  const [name, scope] = args;
  if (!name || !scope) throw new Error('usage: project.js app <name> <scope>');
  createApp(name, scope);
} else {
  throw new Error('usage: project.js lib|app …');
}
