import type { DocumentMark } from './types';

/** Canonical mark order: a leaf's marks are always sorted this way so equal formatting compares equal. */
export const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'color', 'superscript', 'subscript', 'keyboard', 'code'];

/** The spec's `DocumentTextColor` tokens (0.202.0; 0.130.0 lacks pink, violet, cyan and $tint). */
export const COLORS = new Set([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
]);

export function mark(type: string, data?: Record<string, unknown>): DocumentMark {
  return data ? { object: 'mark', type, data } : { object: 'mark', type };
}

/** Adds a mark to a set (an inner mark of the same type replaces the outer one) and keeps the canonical order. */
export function withMark(marks: DocumentMark[], added: DocumentMark): DocumentMark[] {
  return sortMarks([...marks.filter((m) => m.type !== added.type), added]);
}

export function sortMarks(marks: DocumentMark[]): DocumentMark[] {
  return [...marks].sort((a, b) => rank(a.type) - rank(b.type));
}

export function sameMarks(a: DocumentMark[], b: DocumentMark[]): boolean {
  return a.length === b.length && a.every((m, i) => markKey(m) === markKey(b[i]));
}

export function markKey(m: DocumentMark): string {
  return m.data ? `${m.type}:${JSON.stringify(m.data)}` : m.type;
}

function rank(type: string): number {
  const at = MARK_ORDER.indexOf(type);
  return at < 0 ? MARK_ORDER.length : at;
}

/** `<mark style="color:red;background-color:blue">` → a color mark, or null when no colour is one GitBook knows. */
export function colorMarkFromStyle(style: string): DocumentMark | null {
  const read = (prop: string) => new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([^;]+)`, 'i').exec(style)?.[1].trim().toLowerCase();
  const text = read('color');
  const background = read('background-color');
  const ok = (c?: string) => (c && COLORS.has(c) ? c : undefined);
  if (!ok(text) && !ok(background)) return null;
  return mark('color', { text: ok(text) ?? 'default', background: ok(background) ?? 'default' });
}

export function styleOfColorMark(m: DocumentMark): string {
  const data = (m.data ?? {}) as { text?: string; background?: string };
  const parts: string[] = [];
  if (data.text && data.text !== 'default') parts.push(`color:${data.text};`);
  if (data.background && data.background !== 'default') parts.push(`background-color:${data.background};`);
  return parts.join('');
}
