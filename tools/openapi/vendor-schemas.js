#!/usr/bin/env node
'use strict';
// Vendors the official GitBook response schemas the gateway serves in /openapi.json, so the gateway
// never reads a devDependency at run time.
//
// Routes name what they answer with `officialResponse('<official operationId>')` or
// `officialSchema('<component>')` (libs/gateway/*/src), and a request body they validate as the
// official one with `officialRequest('<official operationId>')` (from the newest release that has it);
// `officialLatestResponse('<official operationId>')` names the newest release's success response where
// it differs from 0.130.0's (both written out, with their components, from that release). This script finds those names, takes each
// operation's success response schema from @gitbook/api 0.130.0 (the release the API reference
// matches), or from 0.202.0 (`gitbook-api-latest`) for operations only that release has, plus every
// component schema they reference transitively (the document schemas from 0.202.0), converts OpenAPI
// 3.0 schemas to JSON Schema 2020-12 (OpenAPI 3.1), applies the errata below, and writes
// libs/gateway/http/src/generated/official-schemas.json.
//
//   node tools/openapi/vendor-schemas.js           (npm run openapi:vendor)
//   node tools/openapi/vendor-schemas.js --check   fails when the committed file is not up to date
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const output = path.join(root, 'libs/gateway/http/src/generated/official-schemas.json');
const scanned = path.join(root, 'libs/gateway');

/** In order of preference: an operation or component is taken from the first release that has it. */
const SOURCES = [
  { pkg: '@gitbook/api', dir: 'node_modules/@gitbook/api' },
  { pkg: 'gitbook-api-latest', dir: 'node_modules/gitbook-api-latest' },
].map((s) => {
  const dir = path.join(root, s.dir);
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'spec/openapi.json'), 'utf8'));
  return { ...s, version, spec };
});

const REF_PREFIX = '#/components/schemas/';

/**
 * Documents are read and written in the latest release's shape (columns at the top level, an
 * expandable's `defaultExpanded` …: docs/markdown.md): `JSONDocument` and every schema it references
 * are taken from 0.202.0 first. The gateway validates request documents against them
 * (libs/gateway/http/src/document-schema.ts), so they are vendored even where no response names them.
 */
const DOCUMENT_ROOT = 'JSONDocument';
const LATEST = SOURCES.find((s) => s.pkg === 'gitbook-api-latest');

/** What `OpenAPISpecContent.filesystem` holds: the official object, its values described (the refinement below). */
const OPENAPI_FILESYSTEM = {
  description: 'The files of the version keyed by file name, the entry first: each OpenAPI document (or part of one) with the references it makes.',
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['dir', 'isEntrypoint', 'references', 'filename', 'specification'],
    properties: {
      dir: { type: 'string' },
      isEntrypoint: { type: 'boolean' },
      references: { type: 'array', items: { type: 'string' } },
      filename: { type: 'string' },
      specification: { type: 'object' },
    },
  },
};

/**
 * Known defects of the official documents, corrected the way libs/shared/testing/src/official-spec.ts
 * corrects them for the e2e tests (each would reject a correct answer). Each leaves a `$comment`.
 */
const ERRATA = [
  {
    component: 'CustomizationThemeMode',
    note:
      "Completed: a published site's customizations follow 0.202.0 (GitBook's renderer reads them with it), whose " +
      "default theme mode may also be `system` (the visitor's own preference, the default here); 0.130.0 lists light and dark only.",
    apply(schema) {
      if (!Array.isArray(schema.enum) || schema.enum.includes('system')) return false;
      schema.enum = [...schema.enum, 'system'];
      return true;
    },
  },
  {
    component: 'SiteRedirectDestination',
    note:
      'Completed: site redirects follow 0.202.0 (they are not in the API reference), whose destinations also include ' +
      'an external URL (SiteRedirectDestinationExternal); 0.130.0 lists only sections, site spaces and pages.',
    apply(schema) {
      if (!Array.isArray(schema.oneOf) || schema.oneOf.some((s) => s.$ref?.endsWith('/SiteRedirectDestinationExternal'))) return false;
      schema.oneOf.push({ $ref: '#/components/schemas/SiteRedirectDestinationExternal' });
      return true;
    },
  },
  {
    component: 'SiteRedirectSourcePath',
    note:
      'Completed: site redirects follow 0.202.0, whose sources may end in a wildcard (`/guides/*`, `/guides*`) and ' +
      'take `+` in segments; the 0.130.0 pattern has neither, so it would reject the redirects 0.202.0 creates.',
    apply(schema) {
      const latest = SOURCES[1].spec.components.schemas.SiteRedirectSourcePath;
      if (!latest?.pattern || schema.pattern === latest.pattern) return false;
      schema.pattern = latest.pattern;
      return true;
    },
  },
  {
    operation: 'getOrganizationsForEmailDomain',
    note: 'Corrected: @gitbook/api 0.130.0 requires "organizaitons" (a typo); 0.202.0 requires "organizations".',
    apply(schema) {
      if (!Array.isArray(schema.required) || !schema.required.includes('organizaitons')) return false;
      schema.required = schema.required.map((r) => (r === 'organizaitons' ? 'organizations' : r));
      return true;
    },
  },
  {
    component: 'OrganizationSAMLProvider',
    note:
      'Corrected: the official schema requires ssoURL, entityID and certificate, yet a provider is created with a label ' +
      'alone and its `pending` status means "not yet fully configured": they are required of `active` providers only.',
    apply(schema) {
      const settings = ['ssoURL', 'entityID', 'certificate'];
      if (!Array.isArray(schema.required) || !settings.every((s) => schema.required.includes(s))) return false;
      schema.required = schema.required.filter((r) => !settings.includes(r));
      schema.if = { required: ['status'], properties: { status: { const: 'active' } } };
      schema.then = { required: settings };
      return true;
    },
  },
  {
    component: 'Space',
    note:
      'Corrected: @gitbook/api 0.130.0 requires `type` without defining it (its typed client has no such field); ' +
      '0.202.0 defines `type` as `styleguide`, for style-guide spaces only, and does not require it.',
    apply(schema) {
      if (!Array.isArray(schema.required) || !schema.required.includes('type') || schema.properties?.type) return false;
      schema.required = schema.required.filter((r) => r !== 'type');
      return true;
    },
  },
  {
    component: 'OpenAPISpecContent',
    note: 'Refined: `filesystem` (an object) holds the files of the version keyed by file name, each {dir, isEntrypoint, references, filename, specification}.',
    apply(schema) {
      if (schema.properties?.filesystem?.type !== 'object') return false;
      schema.properties.filesystem = OPENAPI_FILESYSTEM;
      return true;
    },
  },
  {
    component: 'DocumentInlineButton',
    note:
      'Corrected: 0.202.0 declares `data` as allOf[{label, kind, …}, oneOf[{ref}, {action}]] with additionalProperties:false ' +
      'on both branches, which no button can satisfy (they forbid label and kind); a button has a ref or an action, as meant.',
    apply(schema) {
      const branches = (schema.properties?.data?.allOf ?? []).flatMap((part) => part.oneOf ?? []).filter((b) => b.additionalProperties === false);
      if (!branches.length) return false;
      for (const b of branches) delete b.additionalProperties;
      return true;
    },
  },
  {
    component: 'DocumentTableRecord',
    note:
      'Corrected: 0.202.0 lists a record value as a oneOf of ContentRef and DocumentTableImageRecord, both of which take a url ' +
      'or file reference, so such a value (a cards target, an image cell) matches two; anyOf says what was meant.',
    apply(schema) {
      const values = schema.properties?.values?.additionalProperties;
      if (!values?.oneOf) return false;
      values.anyOf = values.oneOf;
      delete values.oneOf;
      return true;
    },
  },
  {
    component: 'RevisionSemanticChangePageEdited',
    note:
      'Corrected: the `attributes` variants are listed in a oneOf whose branches overlap (title, emoji and slug are in the ' +
      'document and the group variants alike), so a page whose title alone changed matches two; anyOf says what was meant.',
    apply(schema) {
      const attributes = schema.properties?.attributes;
      if (!attributes?.oneOf) return false;
      attributes.anyOf = attributes.oneOf;
      delete attributes.oneOf;
      return true;
    },
  },
];

/** The official names the routes use: officialResponse('…'), officialSchema('…') and officialRequest('…'). */
function usedNames() {
  const operations = new Set();
  const components = new Set();
  const requests = new Set();
  const latest = new Set();
  const visit = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'generated') visit(p);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')) {
        const text = fs.readFileSync(p, 'utf8');
        for (const m of text.matchAll(/\bofficial(Response|Schema|Request)\(\s*['"]([A-Za-z0-9_.-]+)['"]\s*\)/g)) {
          (m[1] === 'Response' ? operations : m[1] === 'Request' ? requests : components).add(m[2]);
        }
        for (const m of text.matchAll(/\bofficialLatestResponse\(\s*['"]([A-Za-z0-9_.-]+)['"]\s*\)/g)) latest.add(m[1]);
      }
    }
  };
  visit(scanned);
  return { operations: [...operations].sort(), components: [...components].sort(), requests: [...requests].sort(), latest: [...latest].sort() };
}

function findOperation(operationId, sources = SOURCES) {
  for (const source of sources) {
    for (const [p, item] of Object.entries(source.spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op && typeof op === 'object' && op.operationId === operationId) return { source, method, path: p, op };
      }
    }
  }
  throw new Error(`no official release has an operation ${operationId}`);
}

function successResponse(operationId, op) {
  const statuses = Object.keys(op.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort();
  for (const status of statuses) {
    const schema = op.responses[status]?.content?.['application/json']?.schema;
    if (schema) return { status: Number(status), schema };
  }
  throw new Error(`the official ${operationId} has no JSON success response (statuses ${statuses.join(', ')}): declare no schema`);
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);

/**
 * One OpenAPI 3.0 Schema Object → JSON Schema 2020-12: `nullable` becomes a null type (a nullable
 * `$ref` an anyOf with null), boolean exclusive bounds become numeric ones, `example` becomes
 * `examples`. Idempotent on schemas that are already 2020-12 (0.202.0's).
 */
function toJsonSchema(node) {
  if (typeof node === 'boolean' || node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(toJsonSchema);
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(k) && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, toJsonSchema(s)]));
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(toJsonSchema);
    else if (SCHEMA_VALUES.has(k)) out[k] = toJsonSchema(v);
    else if (k === 'example') out.examples = [v];
    // Erratum: a discriminator without a mapping implies the variants' schema names as its values
    // ('RevisionTypeEdits'), which the official schemas never send ('edits'). Dropped: `oneOf`
    // alone decides, and tools that trust the discriminator do not reject valid answers.
    else if (k === 'discriminator' && v && typeof v === 'object' && !v.mapping) continue;
    else out[k] = v;
  }
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ]) {
    if (out[bound] === true) {
      out[bound] = out[limit];
      delete out[limit];
    } else if (out[bound] === false) delete out[bound];
  }
  const nullable = out.nullable;
  delete out.nullable;
  if (nullable !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    return out;
  }
  if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
    return out;
  }
  // A nullable $ref, allOf …: the schema, or null. Annotations stay outside.
  const annotations = {};
  for (const k of ['description', 'title', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'default']) {
    if (k in out) {
      annotations[k] = out[k];
      delete out[k];
    }
  }
  return { ...annotations, anyOf: [out, { type: 'null' }] };
}

function refsOf(node, into) {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        if (!v.startsWith(REF_PREFIX)) throw new Error(`unsupported reference ${v}`);
        into.add(v.slice(REF_PREFIX.length));
      } else refsOf(v, into);
    }
  }
  return into;
}

/** `node` with every reference written out from `source`'s components (converted); throws on recursion. */
function inlined(source, node, trail) {
  if (Array.isArray(node)) return node.map((n) => inlined(source, n, trail));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.slice(REF_PREFIX.length);
    if (trail.includes(name)) throw new Error(`${name} is recursive: it cannot be written out`);
    const { $ref: _ref, ...annotations } = node;
    return { ...inlined(source, toJsonSchema(JSON.parse(JSON.stringify(source.spec.components.schemas[name]))), [...trail, name]), ...toJsonSchema(annotations) };
  }
  return toJsonSchema(Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlined(source, v, trail)])));
}

function sorted(obj) {
  return Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, obj[k]]),
  );
}

function build() {
  const { operations: operationIds, components: componentNames, requests: requestIds, latest: latestIds } = usedNames();
  const applied = new Set();
  const operations = {};
  const requests = {};
  const pending = new Set(componentNames);
  for (const operationId of requestIds) {
    // Request bodies follow the newest release (what current clients send).
    const { source, op } = findOperation(operationId, [...SOURCES].reverse());
    const official = op.requestBody?.content?.['application/json']?.schema;
    if (!official) throw new Error(`the official ${operationId} has no JSON request body`);
    // Written out from the operation's own release: a request schema stands alone, and its
    // components may differ by name from the other release's (SiteCustomizationSettings).
    requests[operationId] = { release: source.version, schema: inlined(source, official, []) };
  }
  const latestResponses = {};
  for (const operationId of latestIds) {
    const { source, method, path: p, op } = findOperation(operationId, [...SOURCES].reverse());
    const { status, schema } = successResponse(operationId, op);
    latestResponses[operationId] = { release: source.version, method, path: p, status, schema: inlined(source, schema, []) };
  }
  for (const operationId of operationIds) {
    const { source, method, path: p, op } = findOperation(operationId);
    const { status, schema: official } = successResponse(operationId, op);
    const schema = toJsonSchema(JSON.parse(JSON.stringify(official)));
    for (const e of ERRATA.filter((x) => x.operation === operationId)) {
      if (!e.apply(schema)) throw new Error(`erratum for ${operationId} no longer applies: ${e.note}`);
      schema.$comment = e.note;
      applied.add(e);
    }
    operations[operationId] = { release: source.version, method, path: p, status, schema };
    refsOf(schema, pending);
  }
  const schemas = {};
  const origin = {};
  pending.add(DOCUMENT_ROOT);
  const documentNames = new Set([DOCUMENT_ROOT]);
  for (const queue = [DOCUMENT_ROOT]; queue.length;) {
    for (const r of refsOf(LATEST.spec.components.schemas[queue.pop()], new Set())) {
      if (documentNames.has(r)) continue;
      documentNames.add(r);
      queue.push(r);
    }
  }
  while (pending.size) {
    const [name] = pending;
    pending.delete(name);
    if (schemas[name]) continue;
    const source = documentNames.has(name) ? LATEST : SOURCES.find((s) => s.spec.components?.schemas?.[name]);
    if (!source) throw new Error(`no official release has a component schema ${name}`);
    const schema = toJsonSchema(JSON.parse(JSON.stringify(source.spec.components.schemas[name])));
    for (const e of ERRATA.filter((x) => x.component === name)) {
      if (!e.apply(schema)) throw new Error(`erratum for ${name} no longer applies: ${e.note}`);
      schema.$comment = e.note;
      applied.add(e);
    }
    schemas[name] = schema;
    origin[name] = source.version;
    for (const r of refsOf(schema, new Set())) if (!schemas[r]) pending.add(r);
  }
  return {
    $comment: 'GENERATED by tools/openapi/vendor-schemas.js (npm run openapi:vendor) from the official GitBook OpenAPI documents. Do not edit.',
    sources: Object.fromEntries(SOURCES.map((s) => [s.pkg, s.version])),
    errata: ERRATA.filter((e) => applied.has(e)).map((e) => ({ ...(e.operation ? { operation: e.operation } : { component: e.component }), note: e.note })),
    operations: sorted(operations),
    ...(Object.keys(requests).length ? { requests: sorted(requests) } : {}),
    ...(Object.keys(latestResponses).length ? { latestResponses: sorted(latestResponses) } : {}),
    schemas: sorted(schemas),
    schemaReleases: sorted(origin),
  };
}

function main() {
  const text = `${JSON.stringify(build(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(output) ? fs.readFileSync(output, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(root, output)} is not up to date: run npm run openapi:vendor`);
      process.exit(1);
    }
    return;
  }
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, text);
  const doc = JSON.parse(text);
  console.log(`${path.relative(root, output)}: ${Object.keys(doc.operations).length} operations, ${Object.keys(doc.schemas).length} component schemas`);
}

if (require.main === module) main();

module.exports = { build, toJsonSchema };
