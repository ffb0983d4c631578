/** RFC 6902 JSON patches, as kustomize applies them to a patch target. */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { checkFields, isPlainObject } from './selectors';

export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

function pointer(p: string): string[] {
  if (p === '') return [];
  if (!p.startsWith('/')) throw new Error(`JSON pointer "${p}" must start with /`);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Applies RFC 6902 operations to a copy of `doc`; any failing operation throws. */
export function jsonPatch(doc: unknown, ops: JsonPatchOp[]): unknown {
  let root = structuredClone(doc);
  const parentOf = (p: string): [any, string] => {
    const parts = pointer(p);
    if (parts.length === 0) throw new Error('the whole document cannot be the parent');
    let node: any = root;
    for (const part of parts.slice(0, -1)) {
      node = Array.isArray(node) ? node[arrayIndex(node, part, false)] : isPlainObject(node) && part in node ? node[part] : undefined;
      if (node === undefined) throw new Error(`JSON patch path ${p} does not exist`);
    }
    return [node, parts[parts.length - 1]];
  };
  const arrayIndex = (arr: unknown[], part: string, adding: boolean): number => {
    if (adding && part === '-') return arr.length;
    if (!/^(0|[1-9][0-9]*)$/.test(part)) throw new Error(`"${part}" is not an array index`);
    const i = Number(part);
    if (i > arr.length || (!adding && i === arr.length)) throw new Error(`array index ${i} is out of bounds`);
    return i;
  };
  const get = (p: string): unknown => {
    if (p === '') return root;
    const [parent, last] = parentOf(p);
    const value = Array.isArray(parent) ? parent[arrayIndex(parent, last, false)] : isPlainObject(parent) && last in parent ? parent[last] : undefined;
    if (value === undefined) throw new Error(`JSON patch path ${p} does not exist`);
    return value;
  };
  const remove = (p: string): unknown => {
    const value = get(p);
    const [parent, last] = parentOf(p);
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
    else delete parent[last];
    return value;
  };
  const add = (p: string, value: unknown): void => {
    if (p === '') {
      root = value;
      return;
    }
    const [parent, last] = parentOf(p);
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
    else if (isPlainObject(parent)) parent[last] = value;
    else throw new Error(`JSON patch path ${p}: parent is not a container`);
  };
  for (const op of ops) {
    checkFields('JSON patch operation', op, ['op', 'path', 'from', 'value']);
    switch (op.op) {
      case 'add':
        add(op.path, structuredClone(op.value));
        break;
      case 'remove':
        remove(op.path);
        break;
      case 'replace':
        get(op.path);
        if (op.path === '') root = structuredClone(op.value);
        else {
          const [parent, last] = parentOf(op.path);
          if (Array.isArray(parent)) parent[arrayIndex(parent, last, false)] = structuredClone(op.value);
          else parent[last] = structuredClone(op.value);
        }
        break;
      case 'move':
        add(op.path, remove(op.from as string));
        break;
      case 'copy':
        add(op.path, structuredClone(get(op.from as string)));
        break;
      case 'test':
        if (JSON.stringify(get(op.path)) !== JSON.stringify(op.value)) throw new Error(`JSON patch test failed at ${op.path}`);
        break;
      default:
        throw new Error(`JSON patch operation "${(op as JsonPatchOp).op}" is not valid`);
    }
  }
  return root;
}
