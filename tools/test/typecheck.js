#!/usr/bin/env node
'use strict';
// The typecheck of every project (each project.json with a `typecheck` target, through its own
// tsconfig.json). Jest (@swc/jest) and the build (esbuild) strip types without checking them, so this
// is where a type error fails CI. Projects whose compiler options are the same are checked as one
// TypeScript program (the libraries they share are checked once, not once per project); each error is
// counted against the project that holds its file. `node tools/test/typecheck.js [project|path …]`
// checks the projects named or holding the paths given (all by default); exit status 1 on any error.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..', '..');

/** Every project with a typecheck target: { name, dir (relative), tsconfig (absolute) }. */
function typecheckProjects() {
  const found = [];
  const walk = (dir, depth) => {
    const file = path.join(dir, 'project.json');
    if (fs.existsSync(file)) {
      const project = JSON.parse(fs.readFileSync(file, 'utf8'));
      const command = project.targets?.typecheck?.options?.command ?? '';
      const tsconfig = command.match(/tsc -p (\S+)/)?.[1];
      if (tsconfig) found.push({ name: project.name, dir: path.relative(root, dir), tsconfig: path.join(root, tsconfig) });
      return;
    }
    if (depth === 0) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && e.name !== 'node_modules') walk(path.join(dir, e.name), depth - 1);
  };
  for (const [dir, depth] of [
    ['apps', 1],
    ['libs', 2],
    ['deploy', 0],
    ['tools', 1],
  ])
    walk(path.join(root, dir), depth);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The projects named, or holding one of the paths, or containing one (all when none given). */
function select(projects, wanted) {
  if (!wanted.length) return projects;
  return projects.filter((p) =>
    wanted.some((w) => {
      if (w === p.name) return true;
      const rel = path.relative(root, path.resolve(w));
      return rel === p.dir || rel.startsWith(p.dir + path.sep) || p.dir.startsWith(rel + path.sep) || rel === '';
    }),
  );
}

/**
 * Where the build info of one group of projects (one TypeScript program) is kept between runs:
 * .cache/typecheck/, one file per set of compiler options. A run checks again only the files that
 * changed and those whose types depend on them; the others' diagnostics are the ones recorded.
 */
function buildInfoFile(options) {
  const key = require('node:crypto').createHash('sha256').update(JSON.stringify(options)).digest('hex').slice(0, 16);
  return path.join(root, '.cache', 'typecheck', `${key}.tsbuildinfo`);
}

const format = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

/**
 * Typechecks `projects`; answers one entry per project: { name, errors: [formatted diagnostics] },
 * plus one named "(workspace)" when a diagnostic belongs to no project (a missing type library).
 */
function typecheck(projects) {
  const groups = new Map();
  for (const p of projects) {
    const parsed = ts.getParsedCommandLineOfConfigFile(p.tsconfig, { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!parsed) throw new Error(`cannot read ${p.tsconfig}`);
    const { configFilePath: _path, ...options } = parsed.options;
    const key = JSON.stringify(options);
    if (!groups.has(key)) groups.set(key, { options, members: [] });
    groups.get(key).members.push({ ...p, files: parsed.fileNames, configErrors: parsed.errors });
  }
  const errors = new Map(projects.map((p) => [p.name, []]));
  const orphan = [];
  for (const { options, members } of groups.values()) {
    const owner = new Map();
    for (const m of members) for (const f of m.files) owner.set(path.resolve(f), m.name);
    for (const m of members) errors.get(m.name).push(...m.configErrors.map((d) => ts.formatDiagnostic(d, format)));
    const builder = ts.createIncrementalProgram({ rootNames: [...owner.keys()], options: { ...options, incremental: true, tsBuildInfoFile: buildInfoFile(options) } });
    const diagnostics = [
      ...builder.getConfigFileParsingDiagnostics(),
      ...builder.getOptionsDiagnostics(),
      ...builder.getGlobalDiagnostics(),
      ...builder.getSyntacticDiagnostics(),
      ...builder.getSemanticDiagnostics(),
    ];
    // With noEmit, this writes the build info alone: what was checked, and with what result.
    builder.emit();
    for (const d of diagnostics) {
      const text = ts.formatDiagnostic(d, format).trimEnd();
      const name = d.file && (owner.get(path.resolve(d.file.fileName)) ?? members.find((m) => path.resolve(d.file.fileName).startsWith(path.join(root, m.dir) + path.sep))?.name);
      if (name) errors.get(name).push(text);
      else orphan.push(text);
    }
  }
  const results = projects.map((p) => ({ name: p.name, errors: errors.get(p.name) }));
  if (orphan.length) results.push({ name: '(workspace)', errors: orphan });
  return results;
}

function main() {
  const projects = select(typecheckProjects(), process.argv.slice(2));
  const results = typecheck(projects);
  for (const r of results) if (r.errors.length) console.error(`typecheck ${r.name}: ${r.errors.length} error(s)\n${r.errors.join('\n')}`);
  const failed = results.filter((r) => r.errors.length).length;
  console.log(`typecheck: ${results.length - failed} project(s) passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

module.exports = { typecheckProjects, select, typecheck };

if (require.main === module) main();
