'use strict';
// Jest runs each test file in its own realm (a vm context) but hands it Node's `structuredClone`,
// whose copies belong to Node's main realm: their prototype is not the test realm's Object.prototype.
// Libraries that check for plain objects by prototype (@scalar/openapi-parser resolves `$ref`s only
// in such objects) then see no objects at all in a copy, and answer differently under Jest than in
// the service. This setup file gives the test realm a structuredClone whose plain objects and arrays
// are its own; anything else is cloned by Node's as before. Only the test projects that need it load it.
const nodeClone = globalThis.structuredClone;

function cloneInRealm(value, seen = new Map()) {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out = [];
    seen.set(value, out);
    for (const item of value) out.push(cloneInRealm(item, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto.constructor?.name !== 'Object') return nodeClone(value);
  const out = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = cloneInRealm(value[key], seen);
  return out;
}

globalThis.structuredClone = (value, options) => (options ? nodeClone(value, options) : cloneInRealm(value));
