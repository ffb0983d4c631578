import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { SystemUnderTest } from '@bindery/shared/testing';
import { http, HttpResult } from './http-client';

type Json = Record<string, unknown>;
type Document = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>>; components: { schemas: Json } };
const BASE = 'https://bindery.test/components';

/**
 * The response schemas the served /openapi.json declares (JSON Schema 2020-12, with the document's
 * components), and the operations whose answers were checked against them.
 */
export class DeclaredResponses {
  private doc!: Document;
  private ajv!: Ajv2020;
  private readonly checked = new Set<string>();

  /** Reads the system's /openapi.json and compiles its components. */
  async load(sut: SystemUnderTest): Promise<void> {
    this.doc = (await http(sut.baseUrl).get('/openapi.json')).body;
    const ajv = addFormats(new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true }));
    ajv.addFormat('emoji', true);
    ajv.addFormat('icon', true);
    // OpenAPI's own annotation (the official Revision, Page … schemas name their variants with it).
    ajv.addKeyword({ keyword: 'discriminator', schemaType: 'object' });
    // Vendor extensions (`x-…`) are annotations too.
    const extensions = new Set<string>();
    JSON.stringify(this.doc.components, (key, value: unknown) => (key.startsWith('x-') && extensions.add(key), value));
    for (const keyword of extensions) ajv.addKeyword(keyword);
    ajv.addSchema({ $id: BASE, $defs: rebase(this.doc.components.schemas) });
    this.ajv = ajv;
  }

  /** The validator of the body declared for this answer. */
  readonly declared = (method: string, template: string, status: number): ValidateFunction => {
    const schema = this.doc.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`/openapi.json declares no ${status} body for ${method.toUpperCase()} ${template}`);
    return this.ajv.compile(rebase(schema));
  };

  /** Asserts the status, and the content type declared for an answer that is not JSON. */
  readonly expectContentType = (res: { status: number; headers: Headers }, method: string, template: string, status: number): void => {
    const declared = Object.keys(this.doc.paths[template]?.[method]?.responses[String(status)]?.content ?? {});
    expect({ status: res.status, type: res.headers.get('content-type')?.split(';')[0] }).toEqual({ status, type: declared[0] });
    this.checked.add(`${method.toUpperCase()} ${template}`);
  };

  /** Asserts the status, and that the body validates against the declared schema. */
  readonly expect = (res: HttpResult, method: string, template: string, status: number): { id: string; status?: string } => {
    expect({ status: res.status, body: res.status === status ? undefined : res.body }).toEqual({ status, body: undefined });
    const validate = this.declared(method, template, status);
    if (!validate(res.body)) {
      throw new Error(`${method.toUpperCase()} ${template} (${status}) does not match /openapi.json: ${JSON.stringify(validate.errors?.slice(0, 5))}\n${JSON.stringify(res.body)}`);
    }
    this.checked.add(`${method.toUpperCase()} ${template}`);
    return res.body as { id: string; status?: string };
  };

  /** The operations that answer with a body and were not checked yet, sorted. */
  unchecked(): string[] {
    const withBody = Object.entries(this.doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => Object.entries(op.responses).some(([status, r]) => /^2\d\d$/.test(status) && r.content))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    return withBody.filter((op) => !this.checked.has(op)).sort();
  }
}

/** The schema with its component references pointing into the compiled components. */
const rebase = (node: unknown): Json =>
  JSON.parse(JSON.stringify(node), (k, v) => (k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${BASE}#/$defs/`) : v));
