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
import { jsonPatch, JsonPatchOp } from './json-patch';
import { applyReplacement, checkReplacement, Replacement } from './replacements';
import { checkFields, isPlainObject, objectId, Selector, SELECTOR_FIELDS, selects } from './selectors';

export { jsonPatch, objectId, selects };
export { parseLabelSelector } from './selectors';
export { applyReplacement, parseFieldPath } from './replacements';
export type { JsonPatchOp, Replacement, Selector };

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
