import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Validates responses against the official OpenAPI document: `@gitbook/api@0.130.0` (the release
 * the API reference matches) or 0.202.0 (installed as `gitbook-api-latest`) for operations only
 * the latest release has.
 */
export type SpecVersion = '0.130.0' | '0.202.0';

type Json = Record<string, unknown>;
const PACKAGES: Record<SpecVersion, string> = { '0.130.0': '@gitbook/api/spec/openapi.json', '0.202.0': 'gitbook-api-latest/spec/openapi.json' };

/**
 * Known defects of the official documents, corrected before use (each would reject a correct answer):
 * - getOrganizationsForEmailDomain requires "organizaitons" (a typo) instead of "organizations".
 * - OrganizationSAMLProvider requires ssoURL (a URI), entityID and certificate, yet a provider is
 *   created with a label alone and its `pending` status means "not yet fully configured": they are
 *   required of `active` providers only.
 * - Space (0.130.0) requires `type` without defining it (its typed client has no such field); 0.202.0
 *   defines `type` as `styleguide`, for style-guide spaces only, and does not require it.
 * - RevisionSemanticChangePageEdited (0.202.0) lists its `attributes` variants in a oneOf whose
 *   branches overlap (title, emoji and slug are in the document and the group variants alike), so a
 *   page whose title alone changed matches two: anyOf says what was meant.
 */
function applyErrata(spec: Json): void {
  const paths = spec.paths as Record<string, Record<string, Json>>;
  const op = paths['/email-domains/{emailDomain}/orgs']?.get as Json | undefined;
  const schema = (((op?.responses as Json)?.['200'] as Json)?.content as Json)?.['application/json'] as Json | undefined;
  const s = schema?.schema as { required?: string[] } | undefined;
  if (s?.required) s.required = s.required.map((r) => (r === 'organizaitons' ? 'organizations' : r));
  const saml = ((spec.components as Json)?.schemas as Json)?.OrganizationSAMLProvider as Json | undefined;
  const settings = ['ssoURL', 'entityID', 'certificate'];
  if (Array.isArray(saml?.required)) {
    saml.required = (saml.required as string[]).filter((r) => !settings.includes(r));
    Object.assign(saml, { if: { required: ['status'], properties: { status: { const: 'active' } } }, then: { required: settings } });
  }
  const space = ((spec.components as Json)?.schemas as Json)?.Space as { required?: string[]; properties?: Json } | undefined;
  if (space?.required && !space.properties?.type) space.required = space.required.filter((r) => r !== 'type');
  const edited = ((spec.components as Json)?.schemas as Json)?.RevisionSemanticChangePageEdited as { properties?: { attributes?: Json } } | undefined;
  const attributes = edited?.properties?.attributes;
  if (attributes?.oneOf) {
    attributes.anyOf = attributes.oneOf;
    delete attributes.oneOf;
  }
}

/** OpenAPI 3.0 schema → JSON Schema for ajv: local refs point into `id`, `nullable` becomes null-typed. */
function rewriteRefs(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, id));
  if (node && typeof node === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${id}${v}` : rewriteRefs(v, id);
    }
    if (out.nullable === true) {
      delete out.nullable;
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      else if (out.type === undefined) return { anyOf: [out, { type: 'null' }] };
    } else if (out.nullable === false) {
      delete out.nullable;
    }
    return out;
  }
  return node;
}

function collectFormats(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((n) => collectFormats(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === 'format' && typeof v === 'string') into.add(v);
      else collectFormats(v, into);
    }
  }
}

class OfficialSpec {
  private readonly ajv: Ajv;
  private readonly spec: Json;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly version: SpecVersion) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.spec = JSON.parse(JSON.stringify(require(PACKAGES[version])));
    applyErrata(this.spec);
    this.ajv = addFormats(new Ajv({ strict: false, allErrors: true, validateFormats: true }));
    const formats = new Set<string>();
    collectFormats(this.spec, formats);
    for (const f of formats) if (!this.ajv.formats[f]) this.ajv.addFormat(f, true);
    this.ajv.addSchema({ $id: 'spec.json', components: rewriteRefs(this.spec.components, 'spec.json') as Json });
  }

  /** The validator of one operation's response body; `path` as in the spec ("/orgs/{organizationId}"). */
  validator(method: string, path: string, status: number): ValidateFunction {
    const key = `${method} ${path} ${status}`;
    let v = this.cache.get(key);
    if (!v) {
      const op = (this.spec.paths as Record<string, Record<string, Json>>)[path]?.[method.toLowerCase()];
      if (!op) throw new Error(`the ${this.version} spec has no operation ${method.toUpperCase()} ${path}`);
      const response = (op.responses as Record<string, Json>)[String(status)];
      if (!response) throw new Error(`the ${this.version} spec has no ${status} response for ${method.toUpperCase()} ${path}`);
      const schema = ((response.content as Json)?.['application/json'] as Json)?.schema;
      v = this.ajv.compile(schema ? (rewriteRefs(schema, 'spec.json') as Json) : { not: {} });
      this.cache.set(key, v);
    }
    return v;
  }
}

const specs = new Map<SpecVersion, OfficialSpec>();

/** Throws with the spec's complaints when `body` is not a valid response of that operation. */
export function assertMatchesSpec(version: SpecVersion, method: string, path: string, status: number, body: unknown): void {
  let spec = specs.get(version);
  if (!spec) specs.set(version, (spec = new OfficialSpec(version)));
  const validate = spec.validator(method, path, status);
  if (!validate(body)) {
    throw new Error(`response of ${method.toUpperCase()} ${path} (${status}) does not match @gitbook/api@${version}: ${JSON.stringify(validate.errors?.slice(0, 12))}`);
  }
}

/** The error body every failure carries, with the status it was sent with. */
export function assertErrorBody(status: number, body: unknown): void {
  const e = (body as { error?: { code?: unknown; message?: unknown } })?.error;
  if (!e || e.code !== status || typeof e.message !== 'string' || !e.message) {
    throw new Error(`expected the error body with code ${status}, got ${JSON.stringify(body)}`);
  }
}
