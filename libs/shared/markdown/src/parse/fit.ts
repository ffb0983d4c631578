import { block, childBlocks, inline, inlineText, paragraph, text } from '../nodes';
import { mark } from '../marks';
import type { DocumentBlock, DocumentNode } from '../types';
import { keepSource, parsedSource } from '../verbatim';
import { includeTagOf } from './include';

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
const MEDIA = ['content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'blockquote', 'math', 'integration'];

/** Which blocks each container may hold, per the 0.202.0 spec (`DocumentBlock*.nodes` / fragments). */
const ALLOWED: Record<string, Set<string>> = {
  hint: new Set([...ESSENTIALS, 'embed', 'integration', 'table']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  'expandable-body': new Set([...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content', 'integration']),
  'tabs-item': new Set([...ESSENTIALS, ...MEDIA]),
  'stepper-step': new Set([...ESSENTIALS, ...MEDIA, 'expandable']),
  column: new Set([...ESSENTIALS, ...MEDIA, 'table', 'expandable', 'stepper']),
};

/**
 * Markdown nests freely, the document model does not (a hint may not hold code, a list item may not hold an
 * image…). A block its container may not hold is replaced by the closest allowed content rather than dropped:
 * containers are unwrapped, images become inline images, code becomes code-marked text, embeds and refs links.
 */
export function fit(container: string, blocks: DocumentBlock[]): DocumentBlock[] {
  const allowed = ALLOWED[container];
  if (!allowed) return blocks;
  return blocks.flatMap((b) => (allowed.has(b.type) ? [b] : fit(container, degrade(b))));
}

function degrade(b: DocumentBlock): DocumentBlock[] {
  switch (b.type) {
    case 'images': {
      // a `<figure>` in a list item: inline images, printed back as the figure while unchanged
      const p = paragraph(childBlocks(b).map((img) => inline('inline-image', { ...pick(img.data, ['ref', 'refDark', 'alt']) })));
      const source = parsedSource(b);
      return [source === undefined ? p : keepSource(p, source.markdown, source.written)];
    }
    case 'code':
      return [paragraph(codeText(b))];
    case 'math':
      return [paragraph([inline('inline-math', { formula: b.data.formula })])];
    case 'embed':
      return [paragraph([linkTo({ kind: 'url', url: String(b.data.url) }, String(b.data.url))])];
    case 'file':
    case 'content-ref':
      return b.data.ref ? [paragraph([linkTo(b.data.ref as Record<string, unknown>, refLabel(b.data.ref as Record<string, unknown>))])] : [];
    case 'table':
      return (b.fragments ?? []).flatMap((f) => f.nodes);
    case 'expandable':
      return (b.fragments ?? []).flatMap((f) => f.nodes);
    case 'reusable-content': {
      // where the spec allows no reusable content (tabs, steps, columns…) the include stays text, as written
      const tag = includeTagOf(b);
      return tag ? [paragraph([text(tag)])] : [];
    }
    case 'tabs-item':
      return [block('paragraph', {}, [text(String(b.data.title ?? ''), [mark('bold')])]), ...childBlocks(b)];
    default:
      return childBlocks(b);
  }
}

function codeText(b: DocumentBlock): DocumentNode[] {
  const lines = childBlocks(b).map((line) => inlineText(line.nodes));
  const leaves = lines.flatMap((line, i) => [
    ...(i ? [{ object: 'leaf' as const, text: '\n', marks: [] }] : []),
    ...(line ? [{ object: 'leaf' as const, text: line, marks: [mark('code')] }] : []),
  ]);
  return leaves.length ? [{ object: 'text', leaves }] : [];
}

function linkTo(ref: Record<string, unknown>, label: string): DocumentNode {
  return inline('link', { ref }, [text(label)]);
}

function refLabel(ref: Record<string, unknown>): string {
  return String(ref.url ?? ref.page ?? ref.file ?? ref.anchor ?? ref.kind);
}

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
}
