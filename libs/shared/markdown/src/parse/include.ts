import type { Paragraph } from 'mdast';
import { decodeEntities } from '../html';
import { block } from '../nodes';
import type { DocumentBlock } from '../types';
import { sourceOf, type ParseContext } from './context';

/** `{% include "<path>" %}` alone on its lines (GitBook's reusable content; single quotes too). */
const INCLUDE = /^\{%-?\s*include\s+(?:"([^"]*)"|'([^']*)')\s*-?%\}$/;

/** The tag each reusable-content block was read from, for a container that may not hold the block. */
const written = new WeakMap<DocumentBlock, string>();

/** The include tag as written, for a reusable-content block read from one (else undefined). */
export function includeTagOf(b: DocumentBlock): string | undefined {
  return written.get(b);
}

/**
 * A paragraph that is only an include tag → a `reusable-content` block, when the caller's
 * `resolveReusableContent` knows the path; otherwise null (the tag stays text, printed back as written).
 */
export function includeBlock(node: Paragraph, ctx: ParseContext): DocumentBlock[] | null {
  const resolve = ctx.options.resolveReusableContent;
  if (!resolve) return null;
  const raw = sourceOf(node, ctx).trim();
  const match = INCLUDE.exec(raw);
  if (!match) return null;
  const ref = resolve(decodeEntities(match[1] ?? match[2] ?? ''));
  if (!ref) return null;
  const reused = block('reusable-content', { ref });
  written.set(reused, raw);
  return [reused];
}
