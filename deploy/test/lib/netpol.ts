/**
 * Evaluates Kubernetes NetworkPolicy ingress semantics for the peers deploy/ uses (podSelector in
 * the same namespace, or no `from` at all), to answer "may this source reach this pod on this port?".
 * Peers it does not model (namespaceSelector, ipBlock) make it throw rather than guess.
 */
import type { K8sObject } from './yaml-files';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = Record<string, any>;

export interface Pod {
  namespace: string;
  labels: Record<string, string>;
  ports: { name?: string; containerPort: number; protocol?: string }[];
}
/** A pod in some namespace, or "external": a client outside the cluster or in another namespace. */
export type Source = { namespace: string; labels: Record<string, string> } | 'external';

export function selectorMatches(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries((selector.matchLabels ?? {}) as Record<string, string>)) if (labels[k] !== v) return false;
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values: string[] = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

function portMatches(rulePorts: Obj[] | undefined, target: Pod, port: number, protocol: string): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      // A named port resolves against the selected pod's own container ports.
      return target.ports.some((cp) => cp.name === p.port && cp.containerPort === port && (cp.protocol ?? 'TCP') === protocol);
    }
    return p.endPort !== undefined ? port >= p.port && port <= p.endPort : port === p.port;
  });
}

function peerMatches(peer: Obj, source: Source, target: Pod): boolean {
  if (peer.namespaceSelector || peer.ipBlock) throw new Error('netpol.ts does not model namespaceSelector/ipBlock peers');
  if (source === 'external') return false;
  return source.namespace === target.namespace && selectorMatches(peer.podSelector, source.labels);
}

export function ingressAllowed(policies: K8sObject[], target: Pod, source: Source, port: number, protocol = 'TCP'): boolean {
  const selecting = policies.filter((p) => {
    const spec = p.spec as Obj;
    const types: string[] = spec.policyTypes ?? ['Ingress'];
    return p.kind === 'NetworkPolicy' && (p.metadata.namespace ?? '') === target.namespace && types.includes('Ingress') && selectorMatches(spec.podSelector, target.labels);
  });
  if (selecting.length === 0) return true; // not isolated
  return selecting.some((p) =>
    ((p.spec as Obj).ingress ?? []).some((rule: Obj) => {
      const from: Obj[] | undefined = rule.from;
      const fromOk = !from || from.length === 0 || from.some((peer) => peerMatches(peer, source, target));
      return fromOk && portMatches(rule.ports, target, port, protocol);
    }),
  );
}

/** The pod a Deployment runs, as a NetworkPolicy sees it. */
export function podOf(dep: K8sObject): Pod {
  const spec = dep.spec as Obj;
  return {
    namespace: dep.metadata.namespace ?? '',
    labels: spec.template.metadata.labels,
    ports: (spec.template.spec.containers as Obj[]).flatMap((c) => c.ports ?? []),
  };
}
