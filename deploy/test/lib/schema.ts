/**
 * Validation against the official Kubernetes OpenAPI schemas, as compiled into ajv validators by the
 * npm package `kubernetes-models` (4.x: CommonJS, schemas of Kubernetes v1.33). Fully offline.
 */
import type { K8sObject } from './yaml-files';

type ModelClass = new (data: unknown) => { validate(): void };
type ValidationError = Error & { errors?: { instancePath: string; message?: string }[] };

/** apiVersion "apps/v1" -> module "kubernetes-models/apps/v1"; core "v1" -> "kubernetes-models/v1". */
function modelFor(apiVersion: string, kind: string): ModelClass | undefined {
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion)) return undefined;
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(`kubernetes-models/${apiVersion}`);
  } catch {
    return undefined;
  }
  const model = mod[kind] as ModelClass | undefined;
  return typeof model === 'function' ? model : undefined;
}

/** Returns the schema violations of one object ([] when valid); unknown kinds are a violation. */
export function schemaErrors(obj: unknown): string[] {
  const o = obj as Partial<K8sObject> | null;
  if (!o || typeof o !== 'object' || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') {
    return ['not a Kubernetes object: apiVersion and kind must be strings'];
  }
  const Model = modelFor(o.apiVersion, o.kind);
  if (!Model) return [`no schema for ${o.apiVersion} ${o.kind} in kubernetes-models`];
  try {
    new Model(o).validate();
    return [];
  } catch (err) {
    const e = err as ValidationError;
    if (e.errors?.length) return e.errors.map((x) => `${x.instancePath || '/'} ${x.message ?? 'is invalid'}`);
    return [e.message];
  }
}
