import type { Element, ElementContent, Properties, Root, Text } from 'hast';

/** Small builders of hast nodes (hastscript's `h` parses selectors on every call; these do not). */
export type Child = ElementContent;
export type Children = Child | Child[] | string | null | undefined | false | Children[];

function flatten(children: Children[], out: Child[] = []): Child[] {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flatten(c, out);
    else if (typeof c === 'string') {
      if (c) out.push(text(c));
    } else out.push(c);
  }
  return out;
}

export function el(tagName: string, properties: Properties = {}, ...children: Children[]): Element {
  const props: Properties = {};
  for (const [k, v] of Object.entries(properties)) if (v !== undefined && v !== null && v !== false) props[k] = v;
  return { type: 'element', tagName, properties: props, children: flatten(children) };
}

export function text(value: string): Text {
  return { type: 'text', value };
}

/** Trusted HTML made by a library that escapes its input (KaTeX); serialized as is. */
export function raw(value: string): Child {
  return { type: 'raw', value } as unknown as Child;
}

export function root(children: Child[]): Root {
  return { type: 'root', children };
}

/** The text content of hast nodes. */
export function textOf(nodes: Child[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'text') out += n.value;
    else if (n.type === 'element') out += textOf(n.children);
  }
  return out;
}
