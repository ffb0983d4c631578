/**
 * Offline validation of deploy/: every YAML file parses, every overlay renders (see lib/kustomize.ts
 * for the kustomize subset), every object validates against the Kubernetes schemas shipped by the
 * npm package kubernetes-models, and Bindery's deployment rules hold.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kustomizationFile, objectId, parseImage, render } from './lib/kustomize';
import { ingressAllowed, podOf, Source } from './lib/netpol';
import { schemaErrors } from './lib/schema';
import { configMapViolations, containersOf, deploymentViolations, effectiveEnv, pairingViolations, resolvePort } from './lib/rules';
import { DEPLOY_ROOT, isK8sObject, isKustomizeFile, K8sObject, listYamlFiles, readYamlFile } from './lib/yaml-files';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = Record<string, any>;

const rel = (f: string) => path.relative(DEPLOY_ROOT, f);
const subdirs = (dir: string) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

const BASE = path.join(DEPLOY_ROOT, 'base');
const APPS = subdirs(BASE);
const OVERLAYS = subdirs(path.join(DEPLOY_ROOT, 'overlays'));
const YAML_FILES = listYamlFiles();

/** What the brief fixes for each known app; apps not listed get the generic gRPC-service checks. */
const APP_CONTRACT: Record<string, { protocol: 'http' | 'grpc'; port: number; env: Record<string, string | RegExp> }> = {
  gateway: {
    protocol: 'http',
    port: 8080,
    env: { PORT: '8080', IDENTITY_GRPC_URL: 'identity:50051', BINDERY_PUBLIC_URL: /^https?:\/\/[^\s]+$/, AUTH_CACHE_TTL_MS: /^\d+$/ },
  },
  identity: { protocol: 'grpc', port: 50051, env: { IDENTITY_GRPC_PORT: '50051' } },
};

const renders = new Map<string, K8sObject[]>();
function overlay(name: string): K8sObject[] {
  if (!renders.has(name)) renders.set(name, render(path.join(DEPLOY_ROOT, 'overlays', name)));
  return renders.get(name) as K8sObject[];
}
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const overlayNamespace = (name: string): string => (readYamlFile(kustomizationFile(path.join(DEPLOY_ROOT, 'overlays', name)) as string)[0] as Obj).namespace;

/** Files each kustomization references, split into resources and patches. */
function references(): { resources: Set<string>; patches: Set<string> } {
  const resources = new Set<string>();
  const patches = new Set<string>();
  for (const file of YAML_FILES) {
    const [doc] = readYamlFile(file) as Obj[];
    if (!isKustomizeFile(doc)) continue;
    const dir = path.dirname(file);
    for (const r of doc.resources ?? []) resources.add(path.resolve(dir, r));
    for (const p of doc.patches ?? []) patches.add(path.resolve(dir, p.path));
  }
  return { resources, patches };
}

describe('YAML files under deploy/', () => {
  test('there are manifests, two overlays and at least gateway and identity', () => {
    expect(YAML_FILES.length).toBeGreaterThan(10);
    expect(OVERLAYS).toEqual(expect.arrayContaining(['dev', 'selfhost']));
    expect(APPS).toEqual(expect.arrayContaining(['gateway', 'identity']));
  });

  test.each(YAML_FILES.map(rel))('%s parses as YAML (1.1, as kubectl reads it) without duplicate keys', (file) => {
    const docs = readYamlFile(path.join(DEPLOY_ROOT, file));
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(isKustomizeFile(doc) || isK8sObject(doc)).toBe(true);
  });

  test('every YAML file is a kustomization, is referenced by one, or is a *.template.yaml', () => {
    const { resources, patches } = references();
    const orphans = YAML_FILES.filter((f) => {
      if (isKustomizeFile(readYamlFile(f)[0]) || f.endsWith('.template.yaml')) return false;
      return !resources.has(f) && !patches.has(f);
    });
    expect(orphans.map(rel)).toEqual([]);
  });

  test('every complete object in a file (resources and templates, not patches) matches the Kubernetes schema', () => {
    const { patches } = references();
    const errors: string[] = [];
    for (const file of YAML_FILES.filter((f) => !patches.has(f))) {
      for (const doc of readYamlFile(file).filter(isK8sObject)) {
        for (const e of schemaErrors(doc)) errors.push(`${rel(file)} ${doc.kind}/${doc.metadata?.name}: ${e}`);
      }
    }
    expect(errors).toEqual([]);
  });

  test('Secret templates hold placeholders only, and no kustomization references them', () => {
    const { resources } = references();
    for (const file of YAML_FILES) {
      for (const doc of readYamlFile(file).filter(isK8sObject).filter((o) => o.kind === 'Secret')) {
        expect(file.endsWith('.template.yaml')).toBe(true);
        expect(resources.has(file)).toBe(false);
        const values = { ...((doc as Obj).stringData ?? {}), ...((doc as Obj).data ?? {}) };
        for (const value of Object.values(values)) expect(value).toBe('CHANGE_ME');
      }
    }
  });
});

describe('base apps', () => {
  test('deploy/base/kustomization.yaml lists every app folder', () => {
    const [k] = readYamlFile(kustomizationFile(BASE) as string) as Obj[];
    expect([...k.resources].sort()).toEqual(APPS);
  });

  test.each(APPS)('base/%s renders to exactly its Deployment, Service, ConfigMap and PodDisruptionBudget', (app) => {
    const objects = render(path.join(BASE, app));
    expect(objects.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Service']);
    expect(named(objects, 'Deployment', app)).toBeDefined();
    expect(named(objects, 'Service', app)).toBeDefined();
    expect(named(objects, 'PodDisruptionBudget', app)).toBeDefined();
    expect(named(objects, 'ConfigMap', `${app}-config`)).toBeDefined();
  });
});

describe.each(OVERLAYS)('overlay %s', (name) => {
  const namespace = overlayNamespace(name);
  const objects = () => overlay(name);
  const deployments = () => ofKind(objects(), 'Deployment');
  const deployment = (app: string) => named(objects(), 'Deployment', app) as K8sObject;
  const main = (app: string) => ((deployment(app).spec as Obj).template.spec.containers as Obj[])[0];

  test('renders without errors or duplicate objects', () => {
    const ids = objects().map(objectId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every rendered object matches the Kubernetes schema', () => {
    const errors = objects().flatMap((o) => schemaErrors(o).map((e) => `${objectId(o)}: ${e}`));
    expect(errors).toEqual([]);
  });

  test(`everything lives in namespace ${namespace}, which the overlay creates`, () => {
    expect(namespace).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    const ns = named(objects(), 'Namespace', namespace);
    expect(ns?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const misplaced = objects().filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace).map(objectId);
    expect(misplaced).toEqual([]);
  });

  test.each(APPS)('has a Deployment, Service, ConfigMap and PodDisruptionBudget for %s', (app) => {
    for (const [kind, n] of [['Deployment', app], ['Service', app], ['ConfigMap', `${app}-config`], ['PodDisruptionBudget', app]]) {
      expect(named(objects(), kind, n)).toBeDefined();
    }
  });

  test('every Deployment is hardened, probed, resource-limited, tagged and takes secrets from Secrets', () => {
    expect(deployments().length).toBe(APPS.length);
    expect(deployments().flatMap((d) => deploymentViolations(d))).toEqual([]);
  });

  test('every Deployment has a matching Service and PodDisruptionBudget', () => {
    expect(pairingViolations(objects())).toEqual([]);
  });

  test('every PodDisruptionBudget still allows a voluntary disruption', () => {
    for (const pdb of ofKind(objects(), 'PodDisruptionBudget')) {
      const spec = pdb.spec as Obj;
      const dep = deployment(pdb.metadata.name);
      const replicas = (dep.spec as Obj).replicas ?? 1;
      expect(spec.minAvailable === undefined || spec.maxUnavailable === undefined).toBe(true);
      if (spec.minAvailable !== undefined) expect(replicas).toBeGreaterThan(spec.minAvailable);
      else expect(spec.maxUnavailable).toBeGreaterThanOrEqual(1);
    }
  });

  test('no Secret is rendered and no ConfigMap carries a secret', () => {
    expect(ofKind(objects(), 'Secret').map(objectId)).toEqual([]);
    expect(ofKind(objects(), 'ConfigMap').flatMap(configMapViolations)).toEqual([]);
  });

  test.each(APPS)('%s runs bindery/<app> with the telemetry preload', (app) => {
    const c = main(app);
    const image = parseImage(c.image);
    expect(image.name).toBe(`bindery/${app}`);
    expect(image.tag ?? image.digest).toBeTruthy();
    expect([...(c.command ?? []), ...(c.args ?? [])]).toEqual(['node', '--require', 'dist/apps/telemetry.js', `dist/apps/${app}/main.js`]);
    expect(c.workingDir).toBe('/app');
  });

  test.each(APPS)('%s gets every environment variable it needs', (app) => {
    const { env, problems } = effectiveEnv(main(app), objects(), namespace);
    expect(problems).toEqual([]);
    expect(env.MONGODB_URL).toEqual({ secret: 'bindery-mongodb/url', optional: false });
    expect(env.KAFKA_BROKERS).toMatch(/^[^\s,]+:\d+(,[^\s,]+:\d+)*$/);
    expect(env.LOG_LEVEL).toMatch(/^(trace|debug|info|warn|error|fatal)$/);
    expect(env.BINDERY_SERVICE_NAME).toBe(app);
    if (env.OTEL_EXPORTER_OTLP_ENDPOINT) expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/^https?:\/\/[^\s]+$/);
    for (const [key, expected] of Object.entries(APP_CONTRACT[app]?.env ?? {})) {
      if (typeof expected === 'string') expect([key, env[key]]).toEqual([key, expected]);
      else expect([key, env[key]]).toEqual([key, expect.stringMatching(expected)]);
    }
    if (app === 'identity') expect(env.BINDERY_ADMIN_TOKEN).toEqual({ secret: 'bindery-admin/token', optional: true });
  });

  test.each(APPS)('%s probes the right endpoints on its serving port', (app) => {
    const c = main(app);
    const contract = APP_CONTRACT[app] ?? { protocol: 'grpc' };
    const labels = (deployment(app).spec as Obj).template.metadata.labels;
    if (contract.protocol === 'http') {
      const port = resolvePort(c, 'http');
      expect(port).toBe(APP_CONTRACT[app].port);
      expect(c.livenessProbe.httpGet).toMatchObject({ path: '/healthz' });
      expect(c.readinessProbe.httpGet).toMatchObject({ path: '/readyz' });
      expect(c.startupProbe.httpGet).toMatchObject({ path: '/healthz' });
      for (const p of [c.livenessProbe, c.readinessProbe, c.startupProbe]) expect(resolvePort(c, p.httpGet.port)).toBe(port);
      expect(labels['app.kubernetes.io/component']).toBe('gateway');
    } else {
      const port = resolvePort(c, 'grpc');
      expect(port).toBeDefined();
      if (APP_CONTRACT[app]) expect(port).toBe(APP_CONTRACT[app].port);
      for (const p of [c.livenessProbe, c.readinessProbe, c.startupProbe]) expect(p.grpc).toEqual({ port });
      expect(labels['app.kubernetes.io/component']).toBe('grpc-service');
      const svc = named(objects(), 'Service', app) as K8sObject;
      expect((svc.spec as Obj).ports).toEqual([expect.objectContaining({ name: 'grpc', port, targetPort: 'grpc' })]);
    }
  });

  test('each gRPC service has its own port', () => {
    const ports = deployments()
      .filter((d) => (d.spec as Obj).template.metadata.labels['app.kubernetes.io/component'] === 'grpc-service')
      .map((d) => resolvePort(((d.spec as Obj).template.spec.containers as Obj[])[0], 'grpc'));
    expect(new Set(ports).size).toBe(ports.length);
  });

  test('every *_GRPC_URL points at a rendered Service port', () => {
    for (const dep of deployments()) {
      const { env } = effectiveEnv(((dep.spec as Obj).template.spec.containers as Obj[])[0], objects(), namespace);
      for (const [key, value] of Object.entries(env).filter(([k]) => k.endsWith('_GRPC_URL'))) {
        const m = /^([a-z0-9-]+):(\d+)$/.exec(`${value}`);
        expect([key, m]).toEqual([key, expect.anything()]);
        const svc = named(objects(), 'Service', (m as RegExpExecArray)[1]);
        expect([key, ((svc?.spec as Obj)?.ports ?? []).map((p: Obj) => p.port)]).toEqual([key, expect.arrayContaining([Number((m as RegExpExecArray)[2])])]);
      }
    }
  });

  describe('NetworkPolicies', () => {
    const policies = () => ofKind(objects(), 'NetworkPolicy');
    const grpcServices = () => deployments().filter((d) => podOf(d).labels['app.kubernetes.io/component'] === 'grpc-service');
    const other: () => Source = () => ({ namespace, labels: { app: 'debug-shell' } });

    test('deny all ingress by default', () => {
      const deny = policies().find((p) => Object.keys((p.spec as Obj).podSelector ?? {}).length === 0 && !(p.spec as Obj).ingress);
      expect(deny && (deny.spec as Obj).policyTypes).toEqual(['Ingress']);
      expect(ingressAllowed(policies(), { namespace, labels: { app: 'anything-else' }, ports: [] }, 'external', 80)).toBe(false);
    });

    test('the gateway is reachable from anywhere on 8080, and only there', () => {
      const gw = podOf(deployment('gateway'));
      expect(ingressAllowed(policies(), gw, 'external', 8080)).toBe(true);
      expect(ingressAllowed(policies(), gw, other(), 8080)).toBe(true);
      expect(ingressAllowed(policies(), gw, 'external', 9464)).toBe(false);
      expect(ingressAllowed(policies(), gw, 'external', 8080, 'UDP')).toBe(false);
    });

    test('gRPC services are reachable only from the gateway and each other, on their gRPC port', () => {
      expect(grpcServices().length).toBeGreaterThan(0);
      const gateway = podOf(deployment('gateway'));
      for (const svc of grpcServices()) {
        const target = podOf(svc);
        const port = resolvePort(((svc.spec as Obj).template.spec.containers as Obj[])[0], 'grpc') as number;
        const peerService = { namespace, labels: { 'app.kubernetes.io/name': 'peer', 'app.kubernetes.io/part-of': 'bindery', 'app.kubernetes.io/component': 'grpc-service' } };
        expect(ingressAllowed(policies(), target, gateway, port)).toBe(true);
        expect(ingressAllowed(policies(), target, peerService, port)).toBe(true);
        expect(ingressAllowed(policies(), target, gateway, port + 1000)).toBe(false);
        expect(ingressAllowed(policies(), target, 'external', port)).toBe(false);
        expect(ingressAllowed(policies(), target, other(), port)).toBe(false);
        expect(ingressAllowed(policies(), target, { namespace: 'elsewhere', labels: gateway.labels }, port)).toBe(false);
      }
    });
  });
});

describe('selfhost overlay', () => {
  test.each(['gateway', 'identity'])('%s runs 2 replicas with a PodDisruptionBudget of minAvailable 1', (app) => {
    const objects = overlay('selfhost');
    expect((named(objects, 'Deployment', app)?.spec as Obj).replicas).toBe(2);
    expect((named(objects, 'PodDisruptionBudget', app)?.spec as Obj).minAvailable).toBe(1);
  });
});

describe('dev overlay', () => {
  test('runs one replica of each app from locally loaded images', () => {
    for (const dep of ofKind(overlay('dev'), 'Deployment')) {
      expect((dep.spec as Obj).replicas).toBe(1);
      expect(containersOf(dep).map((c) => c.imagePullPolicy)).toEqual(['IfNotPresent']);
    }
  });
});

describe('the checks catch broken manifests', () => {
  const good = () => structuredClone(named(overlay('selfhost'), 'Deployment', 'gateway')) as K8sObject & { spec: Obj };

  test('a well-formed Deployment passes the schema', () => {
    expect(schemaErrors(good())).toEqual([]);
  });

  test('replicas: "two" fails the Kubernetes schema', () => {
    const broken = good();
    broken.spec.replicas = 'two';
    expect(schemaErrors(broken)).toEqual([expect.stringMatching(/^\/spec\/replicas must be integer/)]);
  });

  test('other schema violations are caught too', () => {
    const noName = good();
    delete noName.spec.template.spec.containers[0].name;
    expect(schemaErrors(noName).join('\n')).toMatch(/containers\/0.*name/);

    const badPolicy = good();
    badPolicy.spec.template.spec.containers[0].imagePullPolicy = 'Sometimes';
    expect(schemaErrors(badPolicy).join('\n')).toMatch(/imagePullPolicy/);

    expect(schemaErrors({ apiVersion: 'apps/v1', kind: 'Deplyment', metadata: { name: 'x' } })).toEqual([expect.stringMatching(/no schema/)]);
    expect(schemaErrors({ kind: 'Deployment' })).toEqual([expect.stringMatching(/apiVersion/)]);
  });

  test('a missing probe, limit or hardening setting is reported', () => {
    const d = good();
    const c = d.spec.template.spec.containers[0];
    delete c.readinessProbe;
    delete c.resources.limits.memory;
    c.securityContext.allowPrivilegeEscalation = true;
    c.securityContext.readOnlyRootFilesystem = false;
    c.securityContext.capabilities = { drop: ['NET_RAW'] };
    delete c.securityContext.runAsNonRoot;
    delete d.spec.template.spec.securityContext.runAsNonRoot;
    delete c.securityContext.seccompProfile;
    delete d.spec.template.spec.securityContext.seccompProfile;
    delete d.spec.template.spec.terminationGracePeriodSeconds;
    expect(deploymentViolations(d)).toEqual([
      'Deployment gateway: terminationGracePeriodSeconds must be set',
      'Deployment gateway container app: runAsNonRoot must be true',
      'Deployment gateway container app: readOnlyRootFilesystem must be true',
      'Deployment gateway container app: allowPrivilegeEscalation must be false',
      'Deployment gateway container app: capabilities.drop must include ALL',
      'Deployment gateway container app: seccompProfile must be RuntimeDefault',
      'Deployment gateway container app: resources.limits.memory must be set',
      'Deployment gateway container app: readinessProbe is missing',
    ]);
  });

  test('an inline secret value or an untagged image is reported', () => {
    const d = good();
    const c = d.spec.template.spec.containers[0];
    c.env = [
      { name: 'MONGODB_URL', value: 'mongodb://bindery:hunter2@mongo:27017/bindery' },
      { name: 'BINDERY_ADMIN_TOKEN', value: 'abc' },
      { name: 'SOME_URL', value: 'https://user:pass@example.com' },
    ];
    c.image = 'bindery/gateway';
    expect(deploymentViolations(d)).toEqual([
      'Deployment gateway container app: image bindery/gateway has no tag',
      'Deployment gateway container app: MONGODB_URL has an inline value; use valueFrom.secretKeyRef',
      'Deployment gateway container app: MONGODB_URL holds credentials inline',
      'Deployment gateway container app: BINDERY_ADMIN_TOKEN has an inline value; use valueFrom.secretKeyRef',
      'Deployment gateway container app: SOME_URL holds credentials inline',
    ]);
    c.image = 'bindery/gateway:';
    expect(deploymentViolations(d)).toContain('Deployment gateway container app: image bindery/gateway: has no tag');
  });

  test('a secret in a ConfigMap is reported', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'leaky' }, data: { BINDERY_ADMIN_TOKEN: 'x', MONGO: 'mongodb://a:b@h/db' } };
    expect(configMapViolations(cm)).toEqual([
      'ConfigMap leaky: BINDERY_ADMIN_TOKEN is a secret; put it in a Secret',
      'ConfigMap leaky: MONGO holds credentials inline',
    ]);
  });

  test('a Deployment without its Service or PodDisruptionBudget is reported', () => {
    const objects = overlay('selfhost').filter((o) => !(o.metadata.name === 'identity' && (o.kind === 'Service' || o.kind === 'PodDisruptionBudget')));
    expect(pairingViolations(objects)).toEqual([
      'Deployment identity: no Service selects its pods',
      'Deployment identity: expected exactly one PodDisruptionBudget, found 0',
    ]);
  });

  test('without the allow policies the default deny blocks the gateway', () => {
    const onlyDeny = overlay('selfhost').filter((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'default-deny-ingress');
    expect(ingressAllowed(onlyDeny, podOf(named(overlay('selfhost'), 'Deployment', 'gateway') as K8sObject), 'external', 8080)).toBe(false);
  });
});
