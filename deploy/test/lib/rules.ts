/**
 * Bindery's deployment rules, as functions that return violations (empty when the rule holds), so the
 * spec can show both that the real manifests pass and that broken ones are caught.
 */
import { parseImage, podSpecOf } from './kustomize';
import type { K8sObject } from './yaml-files';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = Record<string, any>;

/** Variables that hold credentials and must only ever come from a Secret. */
export const SECRET_ENV = ['MONGODB_URL', 'BINDERY_ADMIN_TOKEN'];
const SECRETISH_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_KEY|PRIVATE_KEY)/i;
/** user:password@ inside a URL. */
const CREDENTIALS_IN_URL = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const isSecretName = (name: string): boolean => SECRET_ENV.includes(name) || SECRETISH_NAME.test(name);

export function containersOf(o: K8sObject): Obj[] {
  const pod = podSpecOf(o) as Obj | undefined;
  return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])];
}

export function labelsMatch(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false; // an empty selector selects nothing useful here
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** Resolves a probe/Service port (number or container port name) to a container port number. */
export function resolvePort(container: Obj, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return (container.ports ?? []).some((p: Obj) => p.containerPort === port) ? port : undefined;
  return (container.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}

/** Hardening, probes, resources, image and secret handling of one Deployment. */
export function deploymentViolations(dep: K8sObject): string[] {
  const v: string[] = [];
  const at = `Deployment ${dep.metadata.name}`;
  const spec = (dep.spec ?? {}) as Obj;
  const pod = (spec.template?.spec ?? {}) as Obj;
  const podSc = (pod.securityContext ?? {}) as Obj;

  if (!DNS_LABEL.test(dep.metadata.name) || dep.metadata.name.length > 63) v.push(`${at}: name is not a DNS label`);
  if (typeof pod.terminationGracePeriodSeconds !== 'number' || pod.terminationGracePeriodSeconds <= 0) {
    v.push(`${at}: terminationGracePeriodSeconds must be set`);
  }
  if (pod.automountServiceAccountToken !== false) v.push(`${at}: automountServiceAccountToken must be false`);
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) v.push(`${at}: must not share host namespaces`);
  if (!labelsMatch(spec.selector?.matchLabels, spec.template?.metadata?.labels)) v.push(`${at}: selector does not match the pod template labels`);

  const containers = containersOf(dep);
  if ((pod.containers ?? []).length === 0) v.push(`${at}: has no containers`);
  for (const c of containers) {
    const where = `${at} container ${c.name}`;
    const sc = (c.securityContext ?? {}) as Obj;
    // Effective values: the container's setting wins over the pod's.
    const runAsNonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
    const seccomp = sc.seccompProfile?.type ?? podSc.seccompProfile?.type;
    const runAsUser = sc.runAsUser ?? podSc.runAsUser;
    if (runAsNonRoot !== true) v.push(`${where}: runAsNonRoot must be true`);
    if (runAsUser === 0) v.push(`${where}: runAsUser must not be 0`);
    if (sc.readOnlyRootFilesystem !== true) v.push(`${where}: readOnlyRootFilesystem must be true`);
    if (sc.allowPrivilegeEscalation !== false) v.push(`${where}: allowPrivilegeEscalation must be false`);
    if (sc.privileged === true) v.push(`${where}: must not be privileged`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) v.push(`${where}: capabilities.drop must include ALL`);
    if ((sc.capabilities?.add ?? []).length) v.push(`${where}: must not add capabilities`);
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') v.push(`${where}: seccompProfile must be RuntimeDefault`);

    for (const kind of ['requests', 'limits']) {
      for (const res of ['cpu', 'memory']) {
        const q = c.resources?.[kind]?.[res];
        if (q === undefined || q === null || `${q}`.trim() === '' || /^0+[a-zA-Z]*$/.test(`${q}`)) v.push(`${where}: resources.${kind}.${res} must be set`);
      }
    }

    const isInit = (pod.initContainers ?? []).includes(c);
    if (!isInit) {
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        const p = c[probe] as Obj | undefined;
        if (!p) {
          v.push(`${where}: ${probe} is missing`);
          continue;
        }
        const handler = p.httpGet ?? p.grpc ?? p.tcpSocket;
        if (!handler && !p.exec) v.push(`${where}: ${probe} has no handler`);
        if (handler && resolvePort(c, handler.port) === undefined) v.push(`${where}: ${probe} port ${handler.port} is not a container port`);
      }
    }

    const img = parseImage(`${c.image ?? ''}`);
    if (!img.name) v.push(`${where}: image is empty`);
    if (!img.digest && !img.tag) v.push(`${where}: image ${c.image} has no tag`);
    if (img.digest !== undefined && !/^sha256:[a-f0-9]{64}$/.test(img.digest)) v.push(`${where}: image digest ${img.digest} is malformed`);

    for (const e of (c.env ?? []) as Obj[]) {
      if (isSecretName(e.name)) {
        if (e.value !== undefined) v.push(`${where}: ${e.name} has an inline value; use valueFrom.secretKeyRef`);
        else if (!e.valueFrom?.secretKeyRef?.name || !e.valueFrom?.secretKeyRef?.key) v.push(`${where}: ${e.name} must come from valueFrom.secretKeyRef`);
      }
      if (typeof e.value === 'string' && CREDENTIALS_IN_URL.test(e.value)) v.push(`${where}: ${e.name} holds credentials inline`);
    }
  }
  return v;
}

/** A ConfigMap must not carry anything that belongs in a Secret. */
export function configMapViolations(cm: K8sObject): string[] {
  const v: string[] = [];
  for (const [key, value] of Object.entries((cm.data ?? {}) as Record<string, unknown>)) {
    if (isSecretName(key)) v.push(`ConfigMap ${cm.metadata.name}: ${key} is a secret; put it in a Secret`);
    if (typeof value === 'string' && CREDENTIALS_IN_URL.test(value)) v.push(`ConfigMap ${cm.metadata.name}: ${key} holds credentials inline`);
  }
  return v;
}

/** Every Deployment has a Service routing to one of its ports and a PDB selecting its pods. */
export function pairingViolations(objects: K8sObject[]): string[] {
  const v: string[] = [];
  const sameNs = (a: K8sObject, b: K8sObject) => (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '');
  for (const dep of objects.filter((o) => o.kind === 'Deployment')) {
    const podLabels = (dep.spec as Obj)?.template?.metadata?.labels;
    const main = ((dep.spec as Obj)?.template?.spec?.containers ?? [])[0] ?? {};
    const services = objects.filter((o) => o.kind === 'Service' && sameNs(o, dep) && labelsMatch((o.spec as Obj)?.selector, podLabels));
    if (services.length === 0) v.push(`Deployment ${dep.metadata.name}: no Service selects its pods`);
    for (const svc of services) {
      for (const port of ((svc.spec as Obj).ports ?? []) as Obj[]) {
        if (resolvePort(main, port.targetPort ?? port.port) === undefined) {
          v.push(`Service ${svc.metadata.name}: targetPort ${port.targetPort ?? port.port} is not a port of Deployment ${dep.metadata.name}`);
        }
      }
    }
    const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget' && sameNs(o, dep) && labelsMatch((o.spec as Obj)?.selector?.matchLabels, podLabels));
    if (pdbs.length !== 1) v.push(`Deployment ${dep.metadata.name}: expected exactly one PodDisruptionBudget, found ${pdbs.length}`);
  }
  return v;
}

/**
 * The environment a container starts with: envFrom ConfigMaps (in order), then env. Values are
 * strings, or { secret: "name/key" } for secretKeyRef. Missing non-optional ConfigMaps are reported.
 */
export function effectiveEnv(
  container: Obj,
  objects: K8sObject[],
  namespace: string | undefined,
): { env: Record<string, string | { secret: string; optional: boolean }>; problems: string[] } {
  const env: Record<string, string | { secret: string; optional: boolean }> = {};
  const problems: string[] = [];
  const configMap = (name: string) => objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name && (o.metadata.namespace ?? '') === (namespace ?? ''));
  for (const from of (container.envFrom ?? []) as Obj[]) {
    if (from.secretRef) {
      problems.push(`envFrom secretRef ${from.secretRef.name}: list secret keys one by one with secretKeyRef`);
      continue;
    }
    const cm = configMap(from.configMapRef?.name);
    if (!cm) {
      if (!from.configMapRef?.optional) problems.push(`envFrom ConfigMap ${from.configMapRef?.name} does not exist`);
      continue;
    }
    for (const [k, val] of Object.entries((cm.data ?? {}) as Record<string, string>)) env[`${from.prefix ?? ''}${k}`] = val;
  }
  for (const e of (container.env ?? []) as Obj[]) {
    if (e.value !== undefined) env[e.name] = `${e.value}`;
    else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      env[e.name] = { secret: `${ref.name}/${ref.key}`, optional: ref.optional === true };
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      const value = (configMap(ref.name)?.data as Record<string, string> | undefined)?.[ref.key];
      if (value === undefined && !ref.optional) problems.push(`env ${e.name}: ConfigMap key ${ref.name}/${ref.key} does not exist`);
      if (value !== undefined) env[e.name] = value;
    } else {
      problems.push(`env ${e.name}: unsupported source`);
    }
  }
  return { env, problems };
}
