'use strict';
// The per-operation part of the fuzzer's Schemathesis configuration, read off the served /openapi.json.

/** Schemathesis's own list for positive_data_acceptance: answers that do not say "your valid request is wrong". */
const ACCEPTED = ['2xx', '3xx', '401', '403', '404', '409', '429', '5xx'];

/**
 * How long a request may take before Schemathesis reports it (a request that never answers is a
 * failure naming its operation, not a run that stalls): the gateway answers every request within its
 * budget (REQUEST_BUDGET_MS, 10 s by default), and the imports within theirs (IMPORT_BUDGET_MS,
 * 10 min, and 30 s more for a change request's), which the served document does not say.
 */
const REQUEST_TIMEOUT_S = 30;
const LONG_OPERATIONS = [{ path: /\/content\/import$/, timeoutS: 11 * 60 }];

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The schema a local `$ref` (`#/components/schemas/X`) names, if any. */
function resolve(doc, ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc);
}

/**
 * What a schema reaches through its local references: how many schemas, and whether a reference
 * leads back to itself (a recursive schema, such as the official JSONDocument's nodes).
 */
function reach(doc, schema) {
  const state = new Map(); // ref → 'open' while its schema is walked, then 'done'
  const found = { recursive: false, schemas: 0 };
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref') visit(value);
      else if (state.get(value) === 'open') found.recursive = true;
      else if (!state.has(value)) {
        state.set(value, 'open');
        found.schemas += 1;
        visit(resolve(doc, value));
        state.set(value, 'done');
      }
    }
  };
  visit(schema);
  return found;
}

/**
 * Two of Schemathesis's phases do not end on a request body whose schema is recursive through many
 * schemas (the official JSONDocument: 106 schemas, a node holds nodes of any of ~30 kinds): the
 * examples phase assembles bodies from the examples inside the schema by following every path through
 * its references, exponentially many, and sends nothing; the coverage phase derives every boundary
 * value of every node kind (for a comment's body: 12,918 cases after 150 s, unfinished) before it
 * sends the first. Both are left out for the operations whose request body reaches such a recursion;
 * the fuzzing and stateful phases still generate their bodies. A small recursion (a redirect's
 * destination, a search filter: one schema) is covered as any other body.
 */
const MANY_SCHEMAS = 20;

function recursiveBody(doc, op) {
  return Object.values(op.requestBody?.content ?? {}).some((media) => {
    const { recursive, schemas } = reach(doc, media.schema);
    return recursive && schemas >= MANY_SCHEMAS;
  });
}

/**
 * The per-operation settings of the served document:
 * - the refusals of schema-valid requests no schema can express (an id in the body that names
 *   nothing, a state that forbids the change: RouteSpec.refusals), which positive_data_acceptance
 *   expects besides ACCEPTED (every other refusal of a schema-valid request is still a failure);
 * - no examples or coverage phase where they do not end (recursiveBody);
 * - a longer request timeout for the operations whose budget is longer.
 * Answers the TOML `[[operations]]` sections and the operations of each kind.
 */
function operationSettings(doc) {
  const sections = [];
  const refusing = [];
  const recursiveBodies = [];
  for (const [path, methods] of Object.entries(doc.paths ?? {}))
    for (const [method, op] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const lines = [];
      const declared = Object.keys(op.responses ?? {}).filter((s) => /^4\d\d$/.test(s) && !ACCEPTED.includes(s));
      if (declared.length) {
        refusing.push(label);
        lines.push(`checks.positive_data_acceptance.expected-statuses = ${JSON.stringify([...ACCEPTED, ...declared])}`);
      }
      if (recursiveBody(doc, op)) {
        recursiveBodies.push(label);
        lines.push('phases.examples.enabled = false', 'phases.coverage.enabled = false');
      }
      const long = LONG_OPERATIONS.find((l) => l.path.test(path));
      if (long) lines.push(`request-timeout = ${long.timeoutS}`);
      if (lines.length) sections.push(`[[operations]]\ninclude-operation-id = ${JSON.stringify(op.operationId)}\n${lines.join('\n')}\n`);
    }
  return { sections, refusing, recursiveBodies };
}

module.exports = { ACCEPTED, REQUEST_TIMEOUT_S, operationSettings, reach };
