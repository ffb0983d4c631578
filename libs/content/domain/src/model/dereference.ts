import type { Document, DocumentBlock, DocumentFragment, DocumentNode } from '@bindery/shared/markdown';

/**
 * `dereferenced` reads (0.202.0's `documentDereferenced`): a reusable-content block that names a
 * reusable content of the same space is replaced by the blocks of that content's document. Inlined
 * blocks take the including block's key as a prefix, so a content included twice keeps its keys
 * unique. A block naming another space, a reusable content the revision does not hold, or one already
 * being inlined (a content that includes itself, directly or not) stays as it is.
 */
export type ReusableDocumentOf = (reusableContentId: string) => Document | undefined;

type Ref = { kind?: unknown; reusableContent?: unknown; space?: unknown };

/** The id of the reusable content of `spaceId` this block includes, if it is such a block. */
export function includedReusableContent(node: DocumentNode, spaceId: string): string | undefined {
  if (node.object !== 'block' || node.type !== 'reusable-content') return undefined;
  const ref = (node.data?.ref ?? {}) as Ref;
  if (ref.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string') return undefined;
  if (ref.space !== undefined && ref.space !== spaceId) return undefined;
  return ref.reusableContent;
}

/** Every reusable content of `spaceId` the nodes include, at any depth of blocks and fragments. */
export function includedReusableContents(nodes: readonly DocumentNode[], spaceId: string, into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    const id = includedReusableContent(node, spaceId);
    if (id) into.add(id);
    if (node.object === 'text') continue;
    if (node.nodes) includedReusableContents(node.nodes, spaceId, into);
    for (const f of node.fragments ?? []) includedReusableContents(f.nodes, spaceId, into);
  }
  return into;
}

function rekeyed(node: DocumentNode, prefix: string): DocumentNode {
  const key = node.key !== undefined ? { key: `${prefix}-${node.key}` } : {};
  if (node.object === 'text') return { ...node, ...key };
  return {
    ...node,
    ...key,
    ...(node.nodes ? { nodes: node.nodes.map((n) => rekeyed(n, prefix)) } : {}),
    ...(node.fragments
      ? {
          fragments: node.fragments.map((f) => ({
            ...f,
            ...(f.key !== undefined ? { key: `${prefix}-${f.key}` } : {}),
            nodes: f.nodes.map((n) => rekeyed(n, prefix) as DocumentBlock),
          })),
        }
      : {}),
  };
}

function inlined(nodes: readonly DocumentNode[], spaceId: string, documentOf: ReusableDocumentOf, open: ReadonlySet<string>): DocumentNode[] {
  const out: DocumentNode[] = [];
  for (const node of nodes) {
    const id = includedReusableContent(node, spaceId);
    const document = id !== undefined && !open.has(id) ? documentOf(id) : undefined;
    if (id !== undefined && document) {
      const prefix = node.key ?? id;
      const inner = inlined(document.nodes, spaceId, documentOf, new Set([...open, id]));
      out.push(...inner.map((n) => rekeyed(n, prefix)));
      continue;
    }
    if (node.object === 'text') {
      out.push(node);
      continue;
    }
    const fragments = node.fragments?.map((f): DocumentFragment => ({ ...f, nodes: inlined(f.nodes, spaceId, documentOf, open) as DocumentBlock[] }));
    out.push({ ...node, ...(node.nodes ? { nodes: inlined(node.nodes, spaceId, documentOf, open) } : {}), ...(fragments ? { fragments } : {}) } as DocumentNode);
  }
  return out;
}

/** The document with the reusable contents of `spaceId` it includes replaced by their blocks. */
export function dereferenceReusableContents(document: Document, spaceId: string, documentOf: ReusableDocumentOf): Document {
  return { ...document, nodes: inlined(document.nodes, spaceId, documentOf, new Set()) };
}
