import type { Document, DocumentBlock, DocumentNode } from './types';

/** The block types that show part of an OpenAPI spec. */
export const API_BLOCK_TYPES = new Set(['swagger', 'openapi-operation', 'openapi-webhook', 'openapi-schemas']);

/** How an API block names its spec: the organization's spec slug, or a URL (a `swagger` block's). */
export type ApiSpecName = { slug: string } | { url: string };

export const apiSpecKey = (name: ApiSpecName) => ('slug' in name ? `slug:${name.slug}` : `url:${name.url}`);

/** The spec an API block names, when it names one the reader could look up. */
export function apiSpecNameOf(block: DocumentBlock): ApiSpecName | undefined {
  const data = block.data ?? {};
  const ref = data.ref as { kind?: string; spec?: unknown; url?: unknown } | undefined;
  if (ref?.kind === 'openapi' && typeof ref.spec === 'string' && ref.spec) return { slug: ref.spec };
  const url = ref?.kind === 'url' && typeof ref.url === 'string' ? ref.url : typeof data.url === 'string' ? data.url : undefined;
  return url && /^https?:\/\//i.test(url) ? { url } : undefined;
}

const TAG = /^\{%-?\s*(openapi(?:-operation|-webhook|-schemas)?)\s+(.*?)\s*-?%\}$/s;
const ATTR = /([\w-]+)="([^"]*)"/g;

/** A paragraph's text, links' text included. */
function paragraphText(block: DocumentBlock): string | undefined {
  if (block.type !== 'paragraph') return undefined;
  let out = '';
  const walk = (nodes: DocumentNode[] | undefined) => {
    for (const n of nodes ?? []) {
      if (n.object === 'text') out += n.leaves.map((l) => l.text).join('');
      else walk(n.nodes);
    }
  };
  walk(block.nodes);
  return out.trim();
}

/** The block a Git-synced `{% openapi … %}` tag stands for (GitBook's two forms: `src=` a URL, or `spec=` a slug). */
function blockOfTag(name: string, attrs: Record<string, string>, key: string | undefined): DocumentBlock | undefined {
  const ref = attrs.spec ? { kind: 'openapi', spec: attrs.spec } : attrs.src ? { kind: 'url', url: attrs.src } : undefined;
  if (!ref) return undefined;
  const type = name === 'openapi' ? (ref.kind === 'openapi' ? 'openapi-operation' : 'swagger') : name;
  const data: Record<string, unknown> = { ref };
  if (attrs.path) data.path = attrs.path;
  if (attrs.method) data.method = attrs.method.toLowerCase();
  if (attrs.name) data.name = attrs.name;
  if (attrs.schemas)
    data.schemas = attrs.schemas
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return { object: 'block', type, key, data, isVoid: true, nodes: [] } as unknown as DocumentBlock;
}

/**
 * GitBook's Markdown writes API blocks as `{% openapi src="…" path="…" method="…" %}` (or
 * `{% openapi-operation spec="…" … %}`) … `{% endopenapi %}`; the Markdown converter keeps such tags as
 * paragraphs of text. Here they become the block they stand for: the opening paragraph, what follows
 * it (the link GitBook writes) and the closing paragraph, up to three paragraphs after the opening.
 */
export function liftApiBlocks(nodes: DocumentNode[]): DocumentNode[] {
  if (!nodes.some((n) => n.object === 'block' && n.type === 'paragraph')) return nodes;
  let out: DocumentNode[] | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const text = node.object === 'block' && node.type === 'paragraph' && node.nodes?.length ? paragraphText(node) : undefined;
    const m = text?.startsWith('{%') ? TAG.exec(text) : null;
    if (!m) {
      out?.push(node);
      continue;
    }
    const attrs = Object.fromEntries([...m[2].matchAll(ATTR)].map((a) => [a[1], a[2]]));
    const lifted = blockOfTag(m[1], attrs, (node as DocumentBlock).key);
    if (!lifted) {
      out?.push(node);
      continue;
    }
    out ??= nodes.slice(0, i);
    out.push(lifted);
    const end = new RegExp(`^\\{%-?\\s*end${m[1]}\\s*-?%\\}$`);
    for (let j = i + 1; j <= i + 3 && j < nodes.length; j++) {
      const t = nodes[j].object === 'block' ? paragraphText(nodes[j] as DocumentBlock) : undefined;
      if (t !== undefined && end.test(t)) {
        i = j;
        break;
      }
    }
  }
  return out ?? nodes;
}

/** Every spec the API blocks of these documents name (fragments and nested blocks included), once each. */
export function apiSpecNamesIn(docs: Array<Document | undefined>): ApiSpecName[] {
  const found = new Map<string, ApiSpecName>();
  const walk = (nodes: DocumentNode[] | undefined) => {
    for (const n of liftApiBlocks(nodes ?? [])) {
      if (n.object !== 'block') continue;
      if (API_BLOCK_TYPES.has(n.type)) {
        const name = apiSpecNameOf(n);
        if (name) found.set(apiSpecKey(name), name);
      }
      walk(n.nodes);
      for (const f of n.fragments ?? []) walk(f.nodes);
    }
  };
  for (const d of docs) walk(d?.nodes);
  return [...found.values()];
}
