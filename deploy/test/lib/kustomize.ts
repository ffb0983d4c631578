/**
 * A small, strict renderer for the subset of kustomize (v5, as built into kubectl) that deploy/ uses:
 *
 *   resources     files (multi-document YAML) and directories holding a Kustomization
 *   components    directories holding a Component: its resources join the parent's objects, then its
 *                 own components, patches, images and replacements act on them, before the parent's
 *   patches       strategic-merge patches (from `path` or inline `patch`), or JSON 6902 patches (a list
 *                 of operations, with a `target`); a target selects by group / version / kind / name
 *                 (a regular expression) / namespace / labelSelector / annotationSelector, and without
 *                 one a strategic-merge patch's kind+name select one object
 *   namespace     set on every namespaced object (and, as kustomize does, as the name of Namespace objects)
 *   images        name -> newName / newTag / digest
 *   replacements  inline or from `path`: copy a source field (optionally one delimited part of it) into
 *                 target fields (optionally into one delimited part), with select / reject and `create`
 *
 * Within one kustomization they run in kustomize's order: resources, components, patches, namespace,
 * images, replacements. Objects annotated config.kubernetes.io/local-config: "true" are dropped from
 * the final output, as kustomize does.
 *
 * Anything else (generators, namePrefix, labels, vars, $patch directives, patch options, field path
 * wildcards) makes it throw, so a kustomization that grows a new feature fails the test instead of
 * being rendered differently than `kubectl kustomize` would. Teach this file the feature first.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isK8sObject, K8sObject, parseYamlDocuments, readYamlFile } from './yaml-files';

/* eslint-disable @typescript-eslint/no-explicit-any */
const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'components', 'patches', 'images', 'namespace', 'replacements']);
const LOCAL_CONFIG = 'config.kubernetes.io/local-config';
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'PriorityClass',
  'StorageClass',
  'IngressClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/** A kustomize selector: every given field must match. */
export interface Selector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}
interface PatchEntry {
  path?: string;
  patch?: string;
  target?: Selector;
}
interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}
interface FieldOptions {
  delimiter?: string;
  index?: number;
  create?: boolean;
}
export interface Replacement {
  source: Omit<Selector, 'labelSelector' | 'annotationSelector'> & { fieldPath?: string; options?: FieldOptions };
  targets: { select: Selector; reject?: Selector[]; fieldPaths: string[]; options?: FieldOptions }[];
}
interface Kustomization {
  apiVersion: string;
  kind: 'Kustomization' | 'Component';
  resources?: string[];
  components?: string[];
  patches?: PatchEntry[];
  images?: ImageEntry[];
  namespace?: string;
  replacements?: (Replacement | { path: string })[];
}

const SELECTOR_FIELDS = ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'];

function checkFields(where: string, value: unknown, allowed: string[]): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} must be a mapping`);
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) throw new Error(`${where}: field "${field}" is not supported by deploy/test/lib/kustomize.ts`);
  }
}

export function kustomizationFile(dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
}

/** kustomize refuses files outside the kustomization's directory (its default load restrictor). */
function fileInside(dir: string, ref: string, what: string): string {
  const full = path.resolve(dir, ref);
  if (full !== dir && !full.startsWith(dir + path.sep)) throw new Error(`${dir}: ${what} ${ref} is not in or below the kustomization directory`);
  if (!fs.existsSync(full) || !fs.statSync(full).isFile()) throw new Error(`${dir}: ${what} ${ref} does not exist`);
  return full;
}

function readKustomization(dir: string, expectedKind: 'Kustomization' | 'Component'): Kustomization {
  const file = kustomizationFile(dir);
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const docs = readYamlFile(file);
  if (docs.length !== 1) throw new Error(`${file}: expected exactly one document`);
  const k = docs[0] as Kustomization;
  const expectedApi = expectedKind === 'Component' ? 'kustomize.config.k8s.io/v1alpha1' : 'kustomize.config.k8s.io/v1beta1';
  if (k.kind !== expectedKind || k.apiVersion !== expectedApi) {
    throw new Error(`${file}: expected ${expectedApi} ${expectedKind}, got ${k.apiVersion} ${k.kind}`);
  }
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) throw new Error(`${file}: kustomization field "${field}" is not supported by deploy/test/lib/kustomize.ts`);
  }
  for (const p of k.patches ?? []) {
    checkFields(`${file}: patch`, p, ['path', 'patch', 'target']);
    if ((p.path === undefined) === (p.patch === undefined)) throw new Error(`${file}: a patch needs exactly one of path and patch`);
    if (p.target) checkFields(`${file}: patch target`, p.target, SELECTOR_FIELDS);
  }
  for (const image of k.images ?? []) checkFields(`${file}: image`, image, ['name', 'newName', 'newTag', 'digest']);
  for (const r of k.replacements ?? []) {
    if ('path' in r) checkFields(`${file}: replacement`, r, ['path']);
    else checkReplacement(`${file}: replacement`, r);
  }
  return k;
}

export const objectId = (o: K8sObject): string => `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

function addAll(into: K8sObject[], objects: K8sObject[], origin: string): void {
  for (const o of objects) {
    if (into.some((x) => objectId(x) === objectId(o))) throw new Error(`${origin}: ${objectId(o)} is defined twice`);
    into.push(o);
  }
}

function loadResource(baseDir: string, ref: string): K8sObject[] {
  const full = path.resolve(baseDir, ref);
  if (!fs.existsSync(full)) throw new Error(`${baseDir}: resource ${ref} does not exist`);
  // A directory may be anywhere (it is a kustomization root of its own); a file must be inside.
  if (fs.statSync(full).isDirectory()) return renderDir(full, 'Kustomization');
  return readYamlFile(fileInside(baseDir, ref, 'resource')).map((doc, i) => {
    if (!isK8sObject(doc)) throw new Error(`${full}: document ${i} is not a Kubernetes object`);
    if (!doc.metadata?.name) throw new Error(`${full}: document ${i} has no metadata.name`);
    return doc;
  });
}

function renderDir(dir: string, kind: 'Kustomization' | 'Component', inherited: K8sObject[] = []): K8sObject[] {
  const k = readKustomization(dir, kind);
  // A component works on its parent's objects; a kustomization starts afresh.
  const objects: K8sObject[] = kind === 'Component' ? inherited : [];
  for (const ref of k.resources ?? []) addAll(objects, loadResource(dir, ref), dir);
  for (const ref of k.components ?? []) {
    const componentDir = path.resolve(dir, ref);
    if (!fs.existsSync(componentDir) || !fs.statSync(componentDir).isDirectory()) throw new Error(`${dir}: component ${ref} is not a directory`);
    renderDir(componentDir, 'Component', objects);
  }
  for (const p of k.patches ?? []) applyPatchEntry(dir, objects, p);
  if (k.namespace) {
    for (const o of objects) {
      // kustomize's namespace field specs also rename Namespace objects (metadata/name, kind Namespace).
      if (o.kind === 'Namespace') o.metadata.name = k.namespace;
      else if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    }
  }
  for (const image of k.images ?? []) applyImage(objects, image);
  for (const entry of k.replacements ?? []) {
    if ('path' in entry) {
      const file = fileInside(dir, entry.path, 'replacement file');
      // The file holds one replacement or a list of them.
      const docs = readYamlFile(file).flatMap((d) => (Array.isArray(d) ? d : [d])) as Replacement[];
      for (const r of docs) {
        checkReplacement(`${file}: replacement`, r);
        applyReplacement(objects, r);
      }
    } else {
      applyReplacement(objects, entry);
    }
  }
  return objects;
}

/** Renders a kustomization directory (an overlay or a base) to its list of objects. */
export function render(dir: string): K8sObject[] {
  return renderDir(path.resolve(dir), 'Kustomization').filter((o) => (o.metadata.annotations as Record<string, string> | undefined)?.[LOCAL_CONFIG] !== 'true');
}

// ---------------------------------------------------------------------------------------------
// selectors

/** Kubernetes label selector syntax: k=v, k==v, k!=v, k in (a,b), k notin (a,b), k, !k. */
export function parseLabelSelector(selector: string): ((labels: Record<string, string>) => boolean)[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms
    .map((t) => t.trim())
    .filter(Boolean)
    .map((term) => {
      let m = /^([^\s=!(),]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(term);
      if (m) {
        const [, key, op, value] = m;
        return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
      }
      m = /^([^\s=!(),]+)\s+(in|notin)\s+\(([^()]*)\)$/.exec(term);
      if (m) {
        const [, key, op, list] = m;
        const values = list.split(',').map((v) => v.trim());
        return op === 'in' ? (l) => key in l && values.includes(l[key]) : (l) => !(key in l && values.includes(l[key]));
      }
      m = /^(!?)([^\s=!(),]+)$/.exec(term);
      if (m) {
        const [, not, key] = m;
        return not ? (l) => !(key in l) : (l) => key in l;
      }
      throw new Error(`label selector term "${term}" is not valid`);
    }) as ((labels: Record<string, string>) => boolean)[];
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
const versionOf = (apiVersion: string) => apiVersion.split('/').pop() as string;

/**
 * Whether an object matches a selector. Patch targets treat `name` (and `namespace`) as anchored regular
 * expressions; replacements compare them exactly — as kustomize does.
 */
export function selects(o: K8sObject, s: Selector, names: 'regex' | 'exact'): boolean {
  const same = (pattern: string | undefined, value: string) => pattern === undefined || (names === 'regex' ? new RegExp(`^(?:${pattern})$`).test(value) : pattern === value);
  if (s.group !== undefined && groupOf(o.apiVersion) !== s.group) return false;
  if (s.version !== undefined && versionOf(o.apiVersion) !== s.version) return false;
  if (s.kind !== undefined && o.kind !== s.kind) return false;
  if (!same(s.name, o.metadata.name)) return false;
  if (!same(s.namespace, o.metadata.namespace ?? '')) return false;
  if (s.labelSelector && !parseLabelSelector(s.labelSelector).every((t) => t(o.metadata.labels ?? {}))) return false;
  if (s.annotationSelector && !parseLabelSelector(s.annotationSelector).every((t) => t((o.metadata.annotations ?? {}) as Record<string, string>))) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// patches

function replaceContents(target: K8sObject, merged: K8sObject): void {
  Object.keys(target).forEach((k) => delete (target as Record<string, unknown>)[k]);
  Object.assign(target, merged);
}

function applyPatchEntry(dir: string, objects: K8sObject[], entry: PatchEntry): void {
  const label = entry.path ? path.resolve(dir, entry.path) : `${dir}: inline patch`;
  const text = entry.path ? fs.readFileSync(fileInside(dir, entry.path, 'patch'), 'utf8') : (entry.patch as string);
  const docs = parseYamlDocuments(text, label);
  // kustomize tells the two kinds apart by their content: a list of operations is a JSON 6902 patch.
  if (docs.length === 1 && Array.isArray(docs[0])) {
    if (!entry.target) throw new Error(`${label}: a JSON 6902 patch needs a target`);
    const targets = objects.filter((o) => selects(o, entry.target as Selector, 'regex'));
    if (targets.length === 0) throw new Error(`${label}: patch matches no object`);
    for (const target of targets) replaceContents(target, jsonPatch(target, docs[0] as JsonPatchOp[]) as K8sObject);
    return;
  }
  for (const patch of docs) {
    if (!isK8sObject(patch) || !patch.metadata?.name) throw new Error(`${label}: a strategic-merge patch needs apiVersion, kind and metadata.name`);
    let targets: K8sObject[];
    if (entry.target) {
      targets = objects.filter((o) => selects(o, entry.target as Selector, 'regex') && (!patch.kind || o.kind === patch.kind));
    } else {
      targets = objects.filter((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
    }
    if (targets.length === 0) throw new Error(`${label}: patch matches no object`);
    for (const target of targets) {
      // With a target the patch's own name is ignored, as in kustomize.
      const body = structuredClone(patch) as K8sObject;
      body.metadata = { ...body.metadata, name: target.metadata.name };
      delete body.metadata.namespace;
      replaceContents(target, strategicMerge(target, body, [target.kind]) as K8sObject);
    }
  }
}

/**
 * patchMergeKey of the Kubernetes list fields we may patch, keyed by field name (and the kind that
 * owns the list where the same name means different things). Lists not named here are replaced.
 */
function mergeKeyFor(fieldPath: string[]): string | undefined {
  const field = fieldPath[fieldPath.length - 1];
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'env':
    case 'volumes':
    case 'imagePullSecrets':
      return 'name';
    case 'hostAliases':
      return 'ip';
    case 'volumeMounts':
      return 'mountPath';
    case 'topologySpreadConstraints':
      return 'topologyKey';
    case 'ports':
      // Service ports merge on "port", container ports on "containerPort".
      return fieldPath[0] === 'Service' ? 'port' : 'containerPort';
    default:
      return undefined;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Strategic merge patch, Kubernetes flavour, for the cases used here: maps merge, `null` deletes a
 * field, lists with a patchMergeKey merge by that key and other lists are replaced. Like kustomize
 * (kyaml), a merged list holds the patch's items first, in the patch's order, then the base's other
 * items.
 */
export function strategicMerge(base: unknown, patch: unknown, fieldPath: string[] = []): unknown {
  if (isPlainObject(patch)) {
    for (const key of Object.keys(patch)) {
      if (key.startsWith('$')) throw new Error(`strategic-merge directive ${key} at ${fieldPath.join('.')} is not supported`);
    }
    const out: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete out[key];
      else out[key] = strategicMerge(out[key], value, [...fieldPath, key]);
    }
    return out;
  }
  if (Array.isArray(patch)) {
    const key = mergeKeyFor(fieldPath);
    if (!key || !Array.isArray(base)) return structuredClone(patch);
    const rest = base.map((item) => structuredClone(item));
    const merged: unknown[] = [];
    for (const item of patch) {
      if (!isPlainObject(item) || item[key] === undefined) throw new Error(`list ${fieldPath.join('.')} merges on "${key}", which a patch item lacks`);
      const i = rest.findIndex((x) => isPlainObject(x) && x[key] === item[key]);
      merged.push(strategicMerge(i >= 0 ? rest.splice(i, 1)[0] : undefined, item, fieldPath));
    }
    return [...merged, ...rest];
  }
  return patch;
}

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

// ---------------------------------------------------------------------------------------------
// replacements

function checkReplacement(where: string, r: Replacement): void {
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

// ---------------------------------------------------------------------------------------------
// images

type PodSpecLike = { containers?: { image?: string }[]; initContainers?: { image?: string }[] };

export function podSpecOf(o: K8sObject): PodSpecLike | undefined {
  const spec = o.spec as Record<string, any> | undefined;
  if (!spec) return undefined;
  if (o.kind === 'Pod') return spec as PodSpecLike;
  if (o.kind === 'CronJob') return spec.jobTemplate?.spec?.template?.spec;
  return spec.template?.spec;
}

/** Splits an image reference into name, tag and digest. */
export function parseImage(ref: string): { name: string; tag?: string; digest?: string } {
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  let tag: string | undefined;
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  return { name: rest, tag, digest };
}

function applyImage(objects: K8sObject[], entry: ImageEntry): void {
  for (const o of objects) {
    const pod = podSpecOf(o);
    for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
      if (!c.image) continue;
      const img = parseImage(c.image);
      if (img.name !== entry.name) continue;
      const name = entry.newName ?? img.name;
      if (entry.digest) c.image = `${name}@${entry.digest}`;
      else if (entry.newTag !== undefined) c.image = `${name}:${entry.newTag}`;
      else c.image = `${name}${img.tag !== undefined ? `:${img.tag}` : ''}${img.digest ? `@${img.digest}` : ''}`;
    }
  }
}
