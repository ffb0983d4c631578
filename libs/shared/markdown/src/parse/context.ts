import type { Definition, Nodes, Root } from 'mdast';
import type { ToDocumentOptions, Written } from '../types';

export interface ParseContext {
  /** The (tag-isolated) Markdown the mdast positions point into. */
  source: string;
  options: ToDocumentOptions;
  /** Link reference definitions (`[id]: url`), for `[text][id]` links and images. */
  definitions: Map<string, Definition>;
  /** Counts HTML read for its text only (no node holds it); a paragraph that held some keeps its source to print. */
  dropped: { count: number };
  /** Every reference the resolvers gave, with the destination as written: kept sources are printed only while each still prints the same. */
  written: Written[];
}

export function collectDefinitions(root: Root): Map<string, Definition> {
  const map = new Map<string, Definition>();
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !map.has(node.identifier)) map.set(node.identifier, node);
    if ('children' in node) node.children.forEach(visit);
  };
  visit(root);
  return map;
}

/** The Markdown source a node was parsed from. */
export function sourceOf(node: Nodes, ctx: ParseContext): string {
  const { start, end } = node.position ?? {};
  return start?.offset !== undefined && end?.offset !== undefined ? ctx.source.slice(start.offset, end.offset) : '';
}
