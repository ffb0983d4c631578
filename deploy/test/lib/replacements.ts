/** Kustomize replacements: copy a source field (or one delimited part) into target fields. */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { K8sObject } from './yaml-files';
import { checkFields, isPlainObject, objectId, SELECTOR_FIELDS, Selector, selects } from './selectors';

export interface FieldOptions {
  delimiter?: string;
  index?: number;
  create?: boolean;
}
export interface Replacement {
  source: Omit<Selector, 'labelSelector' | 'annotationSelector'> & { fieldPath?: string; options?: FieldOptions };
  targets: { select: Selector; reject?: Selector[]; fieldPaths: string[]; options?: FieldOptions }[];
}

export function checkReplacement(where: string, r: Replacement): void {
  checkFields(where, r, ['source', 'targets']);
  checkFields(`${where} source`, r.source, ['group', 'version', 'kind', 'name', 'namespace', 'fieldPath', 'options']);
  if (r.source.options) checkFields(`${where} source options`, r.source.options, ['delimiter', 'index']);
  if (!Array.isArray(r.targets) || r.targets.length === 0) throw new Error(`${where}: needs targets`);
  for (const t of r.targets) {
    checkFields(`${where} target`, t, ['select', 'reject', 'fieldPaths', 'options']);
    checkFields(`${where} target select`, t.select, SELECTOR_FIELDS);
    for (const rej of t.reject ?? []) checkFields(`${where} target reject`, rej, SELECTOR_FIELDS);
    if (!Array.isArray(t.fieldPaths) || t.fieldPaths.length === 0) throw new Error(`${where}: a target needs fieldPaths`);
    if (t.options) checkFields(`${where} target options`, t.options, ['delimiter', 'index', 'create']);
  }
}

type PathElement = { key: string } | { index: number } | { match: [string, string] };

/**
 * Splits a kustomize field path: `.` separates (`\.` escapes a dot), `[k=v]` selects the list item whose
 * field k is v, a number indexes a list, and a bracketed element spanning dots without `=`
 * (`[app.kubernetes.io/name]`) is a map key — kustomize's SmarterPathSplitter.
 */
export function parseFieldPath(fieldPath: string): PathElement[] {
  const raw: string[] = [];
  let current = '';
  for (let i = 0; i < fieldPath.length; i++) {
    const ch = fieldPath[i];
    if (ch === '\\' && fieldPath[i + 1] === '.') {
      current += '.';
      i++;
    } else if (ch === '.') {
      raw.push(current);
      current = '';
    } else current += ch;
  }
  raw.push(current);
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i].startsWith('[') && !raw[i].endsWith(']')) {
      const bracketed = [raw[i]];
      while (i < raw.length - 1) {
        bracketed.push(raw[++i]);
        if (raw[i].endsWith(']')) break;
      }
      const joined = bracketed.join('.');
      parts.push(joined.includes('=') ? joined : joined.replace(/^\[|\]$/g, ''));
    } else parts.push(raw[i]);
  }
  return parts.map((p) => {
    if (p === '' || p === '*' || p === '-') throw new Error(`field path ${fieldPath}: element "${p}" is not supported`);
    if (p.startsWith('[') && p.endsWith(']')) {
      const m = /^\[([^=]+)=(.*)\]$/.exec(p);
      if (!m || m[1] === '') throw new Error(`field path ${fieldPath}: list path element ${p} must contain fieldName=fieldValue`);
      return { match: [m[1], m[2]] as [string, string] };
    }
    return /^[0-9]+$/.test(p) ? { index: Number(p) } : { key: p };
  });
}

function lookupSource(o: K8sObject, fieldPath: string): unknown {
  let node: unknown = o;
  for (const el of parseFieldPath(fieldPath)) {
    node = step(node, el, false);
    if (node === undefined) return undefined;
  }
  return node;
}

/** One step down a path; with `create`, missing map fields (and list items for [k=v]) are made. */
function step(node: unknown, el: PathElement, create: boolean): any {
  if ('key' in el) {
    if (!isPlainObject(node)) return undefined;
    if (!(el.key in node) && create) node[el.key] = {};
    return node[el.key];
  }
  if (!Array.isArray(node)) return undefined;
  if ('index' in el) return node[el.index];
  const [k, v] = el.match;
  let item = node.find((x) => isPlainObject(x) && `${x[k]}` === v);
  if (item === undefined && create) {
    item = { [k]: v };
    node.push(item);
  }
  return item;
}

function scalarText(v: unknown): string {
  if (v === null || typeof v === 'object') throw new Error('a delimited replacement needs a scalar');
  return `${v}`;
}

/** Sets one target field. A scalar target keeps its type (kyaml copies the value, not the tag). */
function setTarget(o: K8sObject, fieldPath: string, value: unknown, options: FieldOptions = {}): void {
  const elements = parseFieldPath(fieldPath);
  let node: unknown = o;
  for (const el of elements.slice(0, -1)) {
    node = step(node, el, !!options.create);
    if (node === undefined) throw new Error(`unable to find field "${fieldPath}" in replacement target ${objectId(o)}`);
  }
  const lastEl = elements[elements.length - 1];
  const container = node as any;
  const slot: string | number | undefined =
    'key' in lastEl
      ? isPlainObject(container)
        ? lastEl.key
        : undefined
      : 'index' in lastEl
        ? Array.isArray(container) && lastEl.index < container.length
          ? lastEl.index
          : undefined
        : Array.isArray(container)
          ? ((i) => (i >= 0 ? i : undefined))(container.findIndex((x: unknown) => isPlainObject(x) && `${x[lastEl.match[0]]}` === lastEl.match[1]))
          : undefined;
  const exists = slot !== undefined && container[slot] !== undefined;
  if (!exists && !(options.create && 'key' in lastEl && isPlainObject(container))) {
    throw new Error(`unable to find field "${fieldPath}" in replacement target ${objectId(o)}`);
  }
  const current = exists ? container[slot as string | number] : undefined;
  let next: unknown = structuredClone(value);
  if (options.delimiter !== undefined) {
    if (exists && typeof current !== 'string') throw new Error(`${objectId(o)} ${fieldPath}: a delimited replacement needs a string target`);
    const parts = exists ? (current as string).split(options.delimiter) : [];
    const index = options.index ?? 0;
    const text = scalarText(value);
    if (index < 0) parts.unshift(text);
    else if (index >= parts.length) parts.push(text);
    else parts[index] = text;
    next = parts.join(options.delimiter);
  } else if (exists && current !== null && typeof current !== 'object' && (value === null || typeof value !== 'object')) {
    const text = `${value}`;
    if (typeof current === 'number') {
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text)) throw new Error(`${objectId(o)} ${fieldPath}: cannot decode "${text}" as a number`);
      next = Number(text);
    } else if (typeof current === 'boolean') {
      if (text !== 'true' && text !== 'false') throw new Error(`${objectId(o)} ${fieldPath}: cannot decode "${text}" as a boolean`);
      next = text === 'true';
    } else next = text;
  }
  container[slot ?? (lastEl as { key: string }).key] = next;
}

export function applyReplacement(objects: K8sObject[], r: Replacement): void {
  const { fieldPath = 'metadata.name', options, ...sourceSelector } = r.source;
  const sources = objects.filter((o) => selects(o, sourceSelector, 'exact'));
  const describe = `${sourceSelector.kind ?? '[noKind]'}/${sourceSelector.name ?? '[noName]'}`;
  if (sources.length === 0) throw new Error(`replacement: nothing selected by ${describe}:${fieldPath}`);
  if (sources.length > 1) throw new Error(`replacement: multiple matches for selector ${describe}:${fieldPath}`);
  let value = lookupSource(sources[0], fieldPath);
  if (value === undefined) throw new Error(`replacement: fieldPath \`${fieldPath}\` is missing for replacement source ${objectId(sources[0])}`);
  if (options?.delimiter !== undefined) {
    const parts = scalarText(value).split(options.delimiter);
    const index = options.index ?? 0;
    if (index < 0 || index >= parts.length) throw new Error(`replacement: options.index ${index} is out of bounds for value ${value}`);
    value = parts[index];
  }
  for (const target of r.targets) {
    const chosen = objects.filter((o) => selects(o, target.select, 'exact') && !(target.reject ?? []).some((rej) => selects(o, rej, 'exact')));
    for (const o of chosen) for (const fp of target.fieldPaths) setTarget(o, fp, value, target.options);
  }
}
