'use strict';
// Jest's CommonJS runtime cannot load ES-module-only packages (the unified/remark family, file-type):
// Node 20.19+ requires them natively, Jest does not. This transformer compiles a node_modules file to
// CommonJS only when its package declares "type": "module" (or the file is .mjs); every other file passes
// through untouched, so CommonJS packages keep their exact semantics.
const fs = require('node:fs');
const path = require('node:path');
const { createTransformer } = require('@swc/jest');

const swc = createTransformer({ jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } });
const typeOfDir = new Map();

function packageType(dir) {
  if (typeOfDir.has(dir)) return typeOfDir.get(dir);
  const manifest = path.join(dir, 'package.json');
  let type;
  if (fs.existsSync(manifest)) type = JSON.parse(fs.readFileSync(manifest, 'utf8')).type || 'commonjs';
  else type = path.dirname(dir) === dir ? 'commonjs' : packageType(path.dirname(dir));
  typeOfDir.set(dir, type);
  return type;
}

function isModule(filename) {
  return filename.endsWith('.mjs') || packageType(path.dirname(filename)) === 'module';
}

module.exports = {
  canInstrument: false,
  getCacheKey(source, filename, options) {
    return `${isModule(filename) ? 'esm' : 'cjs'}:${swc.getCacheKey(source, filename, options)}`;
  },
  process(source, filename, options) {
    return isModule(filename) ? swc.process(source, filename, options) : { code: source };
  },
};
