/** Kustomize selectors (patch targets, replacement sources and targets) and field checks. */
import { K8sObject } from './yaml-files';

export const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

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

export const SELECTOR_FIELDS = ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'];

export function checkFields(where: string, value: unknown, allowed: string[]): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} must be a mapping`);
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) throw new Error(`${where}: field "${field}" is not supported by deploy/test/lib/kustomize.ts`);
  }
}

export const objectId = (o: K8sObject): string => `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

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
