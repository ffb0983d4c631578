import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { ContentRef, Document, DocumentFragment, DocumentNode, ToDocumentOptions } from '../types';

/** Test-only helpers: the corpus, resolvers that invert the default hrefs, and spec validators. */

export const CORPUS_DIR = join(__dirname, '..', 'corpus');

export function corpus(): Array<{ name: string; markdown: string }> {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((name) => ({ name, markdown: readFileSync(join(CORPUS_DIR, name), 'utf8') }));
}

/**
 * Resolvers for authored Markdown (relative `.md` paths, `.gitbook/assets/…`) and for the printer's default hrefs
 * (`/pages/<id>`, `/pages/<id>#a`, `/files/<id>`), so a printed document parses back to the same references.
 */
export const resolvers: Required<ToDocumentOptions> = {
  resolveLink(href: string): ContentRef | null {
    const [path, anchor] = href.split('#');
    const page = path.startsWith('/pages/') ? path.slice('/pages/'.length) : /\.md$/.test(path) && !path.includes('missing') ? pageId(path) : null;
    if (!page) return null;
    return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
  },
  resolveFile(src: string) {
    if (src.startsWith('/files/')) return { kind: 'file', file: src.slice('/files/'.length) };
    const m = /\.gitbook\/assets\/(.+)$/.exec(src);
    return m ? { kind: 'file', file: fileId(m[1]) } : null;
  },
  resolveReusableContent(path: string): ContentRef | null {
    const m = /^\/reusable-content\/(.+)$/.exec(path) ?? /\.gitbook\/includes\/(.+)\.md$/.exec(path);
    return m ? { kind: 'reusable-content', reusableContent: m[1] } : null;
  },
};

function pageId(path: string): string {
  return (
    'p-' +
    path
      .replace(/^(\.\.?\/)+/, '')
      .replace(/(\/README)?\.md$/, '')
      .replace(/[^a-z0-9]+/gi, '-')
      .toLowerCase()
  );
}

function fileId(name: string): string {
  return (
    'f-' +
    decodeURIComponent(name)
      .replace(/[^a-z0-9]+/gi, '-')
      .toLowerCase()
  );
}

type Spec = { components: Record<string, unknown> };

/**
 * 0.202.0 declares a button's data as `allOf[{label, kind, …}, oneOf[{ref} with additionalProperties:false, …]]`:
 * read literally no button can validate (the second branch forbids label and kind). The intended meaning — a button
 * has a ref or an action — is kept by dropping that `additionalProperties`.
 */
function patchButton(spec: Spec): Spec {
  const copy = JSON.parse(JSON.stringify(spec)) as Spec;
  const button = (copy.components as { schemas: Record<string, { properties?: { data?: { allOf?: Array<{ oneOf?: Array<Record<string, unknown>> }> } } }> }).schemas
    .DocumentInlineButton;
  for (const part of button?.properties?.data?.allOf ?? []) for (const branch of part.oneOf ?? []) delete branch.additionalProperties;
  return copy;
}

/**
 * 0.202.0 lets a table record value be a `ContentRef` or a `DocumentTableImageRecord` in a `oneOf`, and both accept a
 * url or file ref: a cards target pointing at a URL (or an image column holding a bare ref) matches two branches and
 * fails. Reading it as `anyOf` keeps what was meant (a value of one of those shapes).
 */
function patchRecordValues(spec: Spec): Spec {
  const record = (spec.components as { schemas: Record<string, { properties?: { values?: { additionalProperties?: Record<string, unknown> } } }> }).schemas.DocumentTableRecord;
  const values = record?.properties?.values?.additionalProperties;
  if (values?.oneOf) {
    values.anyOf = values.oneOf;
    delete values.oneOf;
  }
  return spec;
}

function validatorFor(spec: Spec, id: string): ValidateFunction {
  spec = patchRecordValues(patchButton(spec));
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ $id: id, components: spec.components });
  return ajv.getSchema(`${id}#/components/schemas/JSONDocument`)!;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const validateLatest = validatorFor(require('gitbook-api-latest/spec/openapi.json'), 'gitbook-0.202');
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const validateLegacy = validatorFor(require('@gitbook/api/spec/openapi.json'), 'gitbook-0.130');

/** Node types (`block:hint`, `inline:link`, `mark:bold`, `fragment:caption`) present in a document. */
export function nodeTypes(document: Document): Set<string> {
  const types = new Set<string>();
  const visit = (node: DocumentNode | DocumentFragment) => {
    if (node.object === 'text') node.leaves.forEach((l) => l.marks.forEach((m) => types.add(`mark:${m.type}`)));
    else if (node.object === 'fragment') types.add(`fragment:${node.fragment.startsWith('r') ? 'table-cell' : node.fragment}`);
    else types.add(`${node.object}:${node.type}`);
    if ('nodes' in node && node.nodes) (node.nodes as Array<DocumentNode | DocumentFragment>).forEach(visit);
    if ('fragments' in node && node.fragments) node.fragments.forEach(visit);
  };
  document.nodes.forEach(visit);
  return types;
}

export function countBlocks(document: Document): number {
  let n = 0;
  const visit = (node: DocumentNode | DocumentFragment) => {
    if (node.object === 'block') n++;
    if ('nodes' in node && node.nodes) (node.nodes as Array<DocumentNode | DocumentFragment>).forEach(visit);
    if ('fragments' in node && node.fragments) node.fragments.forEach(visit);
  };
  document.nodes.forEach(visit);
  return n;
}
