#!/usr/bin/env node
'use strict';
// `node tools/checks/import-cycles.js [dir…]`: the import cycles among the TypeScript files under
// libs/ (or the given directories), type-only imports included; workspace aliases (@bindery/…) are
// resolved through tsconfig.base.json. Also the cycles among their projects (a folder holding a
// project.json), which files alone can miss: a.ts of P imports Q and b.ts of Q imports P. Prints each
// cycle (a strongly connected set of files or projects) and exits 1 when there is one.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function filesUnder(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'generated' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// Resolves a workspace alias through tsconfig.base.json's `paths`, exact (`@x/y`) or with one `*`
// (`@bindery/*` → `libs/*/src/index.ts`).
function aliases() {
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const entries = Object.entries(compilerOptions.paths ?? {}).map(([k, [v]]) => [k, v]);
  return (spec) => {
    for (const [pattern, target] of entries) {
      const star = pattern.indexOf('*');
      if (star < 0) {
        if (spec === pattern) return path.join(root, target);
        continue;
      }
      const head = pattern.slice(0, star);
      const tail = pattern.slice(star + 1);
      if (spec.startsWith(head) && spec.endsWith(tail) && spec.length >= head.length + tail.length)
        return path.join(root, target.replace('*', spec.slice(head.length, spec.length - tail.length)));
    }
    return undefined;
  };
}

function resolveFile(base) {
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return undefined;
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Each file's imports that are workspace files. */
function importGraph(files, alias) {
  const graph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const deps = new Set();
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2];
      let target;
      if (spec.startsWith('.')) target = resolveFile(path.resolve(path.dirname(file), spec));
      else {
        const aliased = alias(spec);
        if (aliased) target = resolveFile(aliased);
      }
      if (target && target !== file) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan, iterative). */
function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    const work = [[start, 0]];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const deps = graph.get(v) ?? [];
      if (i < deps.length) {
        frame[1] += 1;
        const w = deps[i];
        if (!graph.has(w)) continue;
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === idx.get(v)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

/** The cycles among the files under `dirs` (relative to the workspace, or absolute), each as workspace-relative paths. */
function importCycles(dirs = ['libs']) {
  const files = dirs.flatMap((d) => filesUnder(path.resolve(root, d)));
  return cycles(importGraph(files, aliases())).map((c) => c.map((f) => path.relative(root, f)));
}

/** The folder of the nearest project.json above `file` (below the workspace's root), or undefined. */
function projectOf(file, cache) {
  for (let dir = path.dirname(file); dir !== root && dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!cache.has(dir)) cache.set(dir, fs.existsSync(path.join(dir, 'project.json')));
    if (cache.get(dir)) return dir;
  }
  return undefined;
}

/** The cycles among the projects holding the files under `dirs`, each as workspace-relative project folders. */
function projectCycles(dirs = ['libs']) {
  const files = dirs.flatMap((d) => filesUnder(path.resolve(root, d)));
  const cache = new Map();
  const graph = new Map();
  for (const [file, deps] of importGraph(files, aliases())) {
    const from = projectOf(file, cache);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dep of deps) {
      const to = projectOf(dep, cache);
      if (to && to !== from) graph.get(from).add(to);
    }
  }
  const lists = new Map([...graph].map(([k, v]) => [k, [...v]]));
  return cycles(lists).map((c) => c.map((d) => path.relative(root, d)));
}

module.exports = { importCycles, projectCycles, aliases };

if (require.main === module) {
  const dirs = process.argv.slice(2);
  const found = importCycles(dirs.length ? dirs : undefined);
  for (const c of found) console.log(`cycle of ${c.length} files:\n  ${c.join('\n  ')}`);
  console.log(`${found.length} import cycle${found.length === 1 ? '' : 's'}`);
  const projects = projectCycles(dirs.length ? dirs : undefined);
  for (const c of projects) console.log(`cycle of ${c.length} projects:\n  ${c.join('\n  ')}`);
  console.log(`${projects.length} project cycle${projects.length === 1 ? '' : 's'}`);
  process.exit(found.length || projects.length ? 1 : 0);
}
