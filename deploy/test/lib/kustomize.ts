/**
 * A small, strict renderer for the subset of kustomize that deploy/ uses:
 *
 *   resources   files (multi-document YAML) and directories holding a Kustomization
 *   components  directories holding a Component (resources + patches applied to the parent's objects)
 *   patches     strategic-merge patches from `path`, optionally with a `target`
 *               (kind / name / labelSelector); without a target the patch's kind+name select one object
 *   images      name -> newName / newTag / digest
 *   namespace   set on every namespaced object (and, as kustomize does, as the name of Namespace objects)
 *
 * Anything else (generators, namePrefix, labels, replacements, inline or JSON6902 patches, $patch
 * directives) makes it throw, so a kustomization that grows a new feature fails the test instead of
 * being rendered differently than `kubectl kustomize` would. Teach this file the feature first.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isK8sObject, K8sObject, readYamlFile } from './yaml-files';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'components', 'patches', 'images', 'namespace']);
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

interface PatchTarget {
  kind?: string;
  name?: string;
  labelSelector?: string;
}
interface PatchEntry {
  path: string;
  target?: PatchTarget;
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
}

export function kustomizationFile(dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
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
    for (const field of Object.keys(p)) {
      if (field !== 'path' && field !== 'target') throw new Error(`${file}: patch field "${field}" is not supported (use path + target)`);
    }
    for (const field of Object.keys(p.target ?? {})) {
      if (!['kind', 'name', 'labelSelector'].includes(field)) throw new Error(`${file}: patch target field "${field}" is not supported`);
    }
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
  if (fs.statSync(full).isDirectory()) return renderDir(full, 'Kustomization');
  return readYamlFile(full).map((doc, i) => {
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
  for (const image of k.images ?? []) applyImage(objects, image);
  if (k.namespace) {
    for (const o of objects) {
      // kustomize's namespace field specs also rename Namespace objects (metadata/name, kind Namespace).
      if (o.kind === 'Namespace') o.metadata.name = k.namespace;
      else if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    }
  }
  return objects;
}

/** Renders a kustomization directory (an overlay or a base) to its list of objects. */
export function render(dir: string): K8sObject[] {
  return renderDir(path.resolve(dir), 'Kustomization');
}

// ---------------------------------------------------------------------------------------------
// patches

function parseEqualitySelector(selector: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const term of selector.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([^=!]+)==?([^=]*)$/.exec(term);
    if (!m) throw new Error(`labelSelector term "${term}" is not supported (only key=value)`);
    out[m[1].trim()] = m[2].trim();
  }
  return out;
}

function matchesTarget(o: K8sObject, t: PatchTarget): boolean {
  if (t.kind && o.kind !== t.kind) return false;
  if (t.name && !new RegExp(`^(?:${t.name})$`).test(o.metadata.name)) return false;
  if (t.labelSelector) {
    const labels = o.metadata.labels ?? {};
    for (const [k, v] of Object.entries(parseEqualitySelector(t.labelSelector))) if (labels[k] !== v) return false;
  }
  return true;
}

function applyPatchEntry(dir: string, objects: K8sObject[], entry: PatchEntry): void {
  const file = path.resolve(dir, entry.path);
  const patches = readYamlFile(file);
  for (const patch of patches) {
    if (!isK8sObject(patch) || !patch.metadata?.name) throw new Error(`${file}: a strategic-merge patch needs apiVersion, kind and metadata.name`);
    let targets: K8sObject[];
    if (entry.target) {
      targets = objects.filter((o) => matchesTarget(o, entry.target as PatchTarget) && (!patch.kind || o.kind === patch.kind));
    } else {
      targets = objects.filter((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
    }
    if (targets.length === 0) throw new Error(`${file}: patch matches no object`);
    for (const target of targets) {
      // With a target the patch's own name is ignored, as in kustomize.
      const body = structuredClone(patch) as K8sObject;
      body.metadata = { ...body.metadata, name: target.metadata.name };
      delete body.metadata.namespace;
      const merged = strategicMerge(target, body, [target.kind]) as K8sObject;
      Object.keys(target).forEach((k) => delete (target as Record<string, unknown>)[k]);
      Object.assign(target, merged);
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
    case 'hostAliases':
      return field === 'hostAliases' ? 'ip' : 'name';
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

/** Strategic merge patch (RFC-less, Kubernetes flavour) for the cases used here: null deletes a field. */
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
    const out = base.map((item) => structuredClone(item));
    for (const item of patch) {
      if (!isPlainObject(item) || item[key] === undefined) throw new Error(`list ${fieldPath.join('.')} merges on "${key}", which a patch item lacks`);
      const i = out.findIndex((x) => isPlainObject(x) && x[key] === item[key]);
      if (i >= 0) out[i] = strategicMerge(out[i], item, fieldPath);
      else out.push(strategicMerge(undefined, item, fieldPath));
    }
    return out;
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
