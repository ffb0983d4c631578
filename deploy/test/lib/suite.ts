/**
 * The checks of a deploy/ tree, as a Jest suite that can run on the real tree (manifests.spec.ts) and on
 * a copy with a generated service added (generator.spec.ts): every YAML file parses, every overlay
 * renders (see kustomize.ts for the kustomize subset), every object validates against the Kubernetes
 * schemas shipped by the npm package kubernetes-models, and Bindery's deployment rules hold for every
 * app of `services` (the descriptors apps/<name>/service.json).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kustomizationFile, objectId, parseImage, render } from './kustomize';
import { ingressAllowed, podOf, Source } from './netpol';
import { schemaErrors } from './schema';
import { configMapViolations, containersOf, deploymentViolations, effectiveEnv, pairingViolations, resolvePort } from './rules';
import { envPrefix, ServiceDescriptor } from './services';
import { isK8sObject, isKustomizeFile, K8sObject, listYamlFiles, parseYamlDocuments, readYamlFile } from './yaml-files';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Obj = Record<string, any>;

export const subdirs = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
export const ofKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
export const named = (objects: K8sObject[], kind: string, name: string): K8sObject | undefined => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** Settings of particular apps beyond what their descriptor implies. */
const EXTRA_ENV: Record<string, Record<string, RegExp>> = {
  gateway: { BINDERY_PUBLIC_URL: /^https?:\/\/[^\s]+$/, AUTH_CACHE_TTL_MS: /^\d+$/ },
  reader: { BINDERY_READER_URL: /^https?:\/\/[^\s]+$/, SITES_GRPC_URL: /^sites:\d+$/, CONTENT_GRPC_URL: /^content:\d+$/, SPECS_GRPC_URL: /^specs:\d+$/ },
};
/** Secrets kept in shared Secrets, and how they are referenced. */
const SHARED_SECRETS: Record<string, { secret: string; optional: boolean }> = {
  BINDERY_ADMIN_TOKEN: { secret: 'bindery-admin/token', optional: true },
};

const sortKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortKeys((v as Obj)[k])]),
        )
      : v;
/** Objects with sorted keys, sorted by kind/namespace/name: kubectl orders its output by kind. */
export const canonical = (objects: unknown[]): unknown[] => objects.map(sortKeys).sort((a, b) => objectId(a as K8sObject).localeCompare(objectId(b as K8sObject)));

/** Renders each overlay of `deployRoot` once. */
export function overlays(deployRoot: string): (name: string) => K8sObject[] {
  const renders = new Map<string, K8sObject[]>();
  return (name) => {
    if (!renders.has(name)) renders.set(name, render(path.join(deployRoot, 'overlays', name)));
    return renders.get(name) as K8sObject[];
  };
}

/** Files each kustomization references, split into resources and patches (replacement files count as patches). */
function references(files: string[]): { resources: Set<string>; patches: Set<string> } {
  const resources = new Set<string>();
  const patches = new Set<string>();
  for (const file of files) {
    const [doc] = readYamlFile(file) as Obj[];
    if (!isKustomizeFile(doc)) continue;
    const dir = path.dirname(file);
    for (const r of doc.resources ?? []) resources.add(path.resolve(dir, r));
    for (const p of doc.patches ?? []) if (p.path) patches.add(path.resolve(dir, p.path));
    for (const r of doc.replacements ?? []) if (r.path) patches.add(path.resolve(dir, r.path));
  }
  return { resources, patches };
}

export function describeDeployTree(deployRoot: string, services: ServiceDescriptor[]): void {
  const rel = (f: string) => path.relative(deployRoot, f);
  const BASE = path.join(deployRoot, 'base');
  const APPS = services.map((s) => s.name);
  const GRPC = services.filter((s) => s.kind === 'grpc');
  const OVERLAYS = subdirs(path.join(deployRoot, 'overlays'));
  const YAML_FILES = listYamlFiles(deployRoot);
  const overlay = overlays(deployRoot);
  const descriptor = (app: string) => services.find((s) => s.name === app) as ServiceDescriptor;
  const overlayNamespace = (name: string): string => (readYamlFile(kustomizationFile(path.join(deployRoot, 'overlays', name)) as string)[0] as Obj).namespace;

  describe('YAML files under deploy/', () => {
    test('there are manifests, two overlays and at least gateway and identity', () => {
      expect(YAML_FILES.length).toBeGreaterThan(10);
      expect(OVERLAYS).toEqual(expect.arrayContaining(['dev', 'selfhost']));
      expect(APPS).toEqual(expect.arrayContaining(['gateway', 'identity']));
    });

    test.each(YAML_FILES.map(rel))('%s parses as YAML (1.1, as kubectl reads it) without duplicate keys', (file) => {
      const docs = readYamlFile(path.join(deployRoot, file));
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) expect(isKustomizeFile(doc) || isK8sObject(doc)).toBe(true);
    });

    test('every YAML file is a kustomization, is referenced by one, or is a *.template.yaml', () => {
      const { resources, patches } = references(YAML_FILES);
      const orphans = YAML_FILES.filter((f) => {
        if (isKustomizeFile(readYamlFile(f)[0]) || f.endsWith('.template.yaml')) return false;
        return !resources.has(f) && !patches.has(f);
      });
      expect(orphans.map(rel)).toEqual([]);
    });

    test('every complete object in a file (resources and templates, not patches) matches the Kubernetes schema', () => {
      const { patches } = references(YAML_FILES);
      const errors: string[] = [];
      for (const file of YAML_FILES.filter((f) => !patches.has(f))) {
        for (const doc of readYamlFile(file).filter(isK8sObject)) {
          for (const e of schemaErrors(doc)) errors.push(`${rel(file)} ${doc.kind}/${doc.metadata?.name}: ${e}`);
        }
      }
      expect(errors).toEqual([]);
    });

    test('Secret templates hold placeholders only, and no kustomization references them', () => {
      const { resources } = references(YAML_FILES);
      for (const file of YAML_FILES) {
        for (const doc of readYamlFile(file)
          .filter(isK8sObject)
          .filter((o) => o.kind === 'Secret')) {
          expect(file.endsWith('.template.yaml')).toBe(true);
          expect(resources.has(file)).toBe(false);
          const values = { ...((doc as Obj).stringData ?? {}), ...((doc as Obj).data ?? {}) };
          for (const value of Object.values(values)) expect(value).toBe('CHANGE_ME');
        }
      }
    });
  });

  describe('base apps', () => {
    test('every app with an apps/<name>/service.json has a folder deploy/base/<name>, and nothing else does', () => {
      expect(subdirs(BASE)).toEqual(APPS);
    });

    test('deploy/base/kustomization.yaml lists every app folder, sorted', () => {
      const [k] = readYamlFile(kustomizationFile(BASE) as string) as Obj[];
      expect(k.resources).toEqual(APPS);
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

    // Optional: with KUBECTL=/path/to/kubectl, the reference renderer must give the same objects.
    (process.env.KUBECTL ? test : test.skip)('renders exactly like `kubectl kustomize` (only with KUBECTL set)', () => {
      const out = execFileSync(process.env.KUBECTL as string, ['kustomize', path.join(deployRoot, 'overlays', name)], { encoding: 'utf8' });
      expect(canonical(objects())).toEqual(canonical(parseYamlDocuments(out, 'kubectl')));
    });

    test('every rendered object matches the Kubernetes schema', () => {
      const errors = objects().flatMap((o) => schemaErrors(o).map((e) => `${objectId(o)}: ${e}`));
      expect(errors).toEqual([]);
    });

    test(`everything lives in namespace ${namespace}, which the overlay creates`, () => {
      expect(namespace).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      const ns = named(objects(), 'Namespace', namespace);
      expect(ns?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
      const misplaced = objects()
        .filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace)
        .map(objectId);
      expect(misplaced).toEqual([]);
    });

    test.each(APPS)('has a Deployment, Service, ConfigMap and PodDisruptionBudget for %s', (app) => {
      for (const [kind, n] of [
        ['Deployment', app],
        ['Service', app],
        ['ConfigMap', `${app}-config`],
        ['PodDisruptionBudget', app],
      ]) {
        expect(named(objects(), kind, n)).toBeDefined();
      }
    });

    test('every Deployment is hardened, probed, resource-limited, tagged and takes secrets from Secrets', () => {
      expect(
        deployments()
          .map((d) => d.metadata.name)
          .sort(),
      ).toEqual(APPS);
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
      const d = descriptor(app);
      const { env, problems } = effectiveEnv(main(app), objects(), namespace);
      expect(problems).toEqual([]);
      expect(env.MONGODB_URL).toEqual({ secret: 'bindery-mongodb/url', optional: false });
      expect(env.BINDERY_INTERNAL_SECRET).toEqual({ secret: 'bindery-internal/secret', optional: false });
      expect(env.KAFKA_BROKERS).toMatch(/^[^\s,]+:\d+(,[^\s,]+:\d+)*$/);
      expect(env.LOG_LEVEL).toMatch(/^(trace|debug|info|warn|error|fatal)$/);
      expect(env.BINDERY_SERVICE_NAME).toBe(app);
      if (env.OTEL_EXPORTER_OTLP_ENDPOINT) expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/^https?:\/\/[^\s]+$/);
      // The settings the descriptor implies: PORT for the HTTP gateway, <NAME>_GRPC_PORT and <NAME>_DB for a service.
      const expected: Record<string, string | RegExp> = { ...(EXTRA_ENV[app] ?? {}) };
      if (d.kind === 'http') expected[d.portVariable ?? 'PORT'] = `${d.port}`;
      else expected[`${envPrefix(app)}_GRPC_PORT`] = `${d.port}`;
      if (d.database) expected[`${envPrefix(app)}_DB`] = d.database;
      for (const [key, value] of Object.entries(expected)) {
        if (typeof value === 'string') expect([key, env[key]]).toEqual([key, value]);
        else expect([key, env[key]]).toEqual([key, expect.stringMatching(value)]);
      }
      for (const secret of d.secrets ?? []) {
        expect([secret, env[secret]]).toEqual([secret, SHARED_SECRETS[secret] ?? { secret: expect.any(String), optional: expect.any(Boolean) }]);
      }
    });

    test('the gateway reaches every gRPC service at <NAME>_GRPC_URL = <name>:<port>', () => {
      const { env } = effectiveEnv(main('gateway'), objects(), namespace);
      for (const svc of GRPC) {
        const key = `${envPrefix(svc.name)}_GRPC_URL`;
        expect([key, env[key]]).toEqual([key, `${svc.name}:${svc.port}`]);
      }
    });

    test.each(APPS)('%s probes the right endpoints on its serving port', (app) => {
      const c = main(app);
      const d = descriptor(app);
      const labels = (deployment(app).spec as Obj).template.metadata.labels;
      const svc = named(objects(), 'Service', app) as K8sObject;
      if (d.kind === 'http') {
        const port = resolvePort(c, 'http');
        expect(port).toBe(d.port);
        expect(c.livenessProbe.httpGet).toMatchObject({ path: '/healthz' });
        expect(c.readinessProbe.httpGet).toMatchObject({ path: '/readyz' });
        expect(c.startupProbe.httpGet).toMatchObject({ path: '/healthz' });
        for (const p of [c.livenessProbe, c.readinessProbe, c.startupProbe]) expect(resolvePort(c, p.httpGet.port)).toBe(port);
        // An HTTP app's component is its own name (gateway, reader): each has its NetworkPolicy.
        expect(labels['app.kubernetes.io/component']).toBe(app);
        expect((svc.spec as Obj).ports).toEqual([expect.objectContaining({ name: 'http', port, targetPort: 'http' })]);
      } else {
        const port = resolvePort(c, 'grpc');
        expect(port).toBe(d.port);
        for (const p of [c.livenessProbe, c.readinessProbe, c.startupProbe]) expect(p.grpc).toEqual({ port });
        expect(labels['app.kubernetes.io/component']).toBe('grpc-service');
        expect((svc.spec as Obj).ports).toEqual([expect.objectContaining({ name: 'grpc', port, targetPort: 'grpc' })]);
      }
    });

    test('each gRPC service listens on every interface of its pod, outside the ephemeral port range', () => {
      for (const d of deployments().filter((x) => (x.spec as Obj).template.metadata.labels['app.kubernetes.io/component'] === 'grpc-service')) {
        const c = ((d.spec as Obj).template.spec.containers as Obj[])[0];
        expect((c.env as Obj[]).find((e) => e.name === 'GRPC_BIND_ADDRESS')).toEqual({ name: 'GRPC_BIND_ADDRESS', value: '0.0.0.0' });
        expect(resolvePort(c, 'grpc')).toBeLessThan(32768);
      }
    });

    test('each gRPC service has its own port', () => {
      const ports = deployments()
        .filter((d) => (d.spec as Obj).template.metadata.labels['app.kubernetes.io/component'] === 'grpc-service')
        .map((d) => resolvePort(((d.spec as Obj).template.spec.containers as Obj[])[0], 'grpc'));
      expect(ports.length).toBe(GRPC.length);
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

      test('the reader is reachable from anywhere on 8090, and only there', () => {
        const reader = podOf(deployment('reader'));
        expect(ingressAllowed(policies(), reader, 'external', 8090)).toBe(true);
        expect(ingressAllowed(policies(), reader, other(), 8090)).toBe(true);
        expect(ingressAllowed(policies(), reader, 'external', 8080)).toBe(false);
        expect(ingressAllowed(policies(), reader, 'external', 8090, 'UDP')).toBe(false);
      });

      test('gRPC services are reachable from the reader on their gRPC port', () => {
        const reader = podOf(deployment('reader'));
        for (const svc of grpcServices()) {
          const port = resolvePort(((svc.spec as Obj).template.spec.containers as Obj[])[0], 'grpc') as number;
          expect(ingressAllowed(policies(), podOf(svc), reader, port)).toBe(true);
          expect(ingressAllowed(policies(), podOf(svc), reader, port + 1000)).toBe(false);
        }
      });

      test('gRPC services are reachable only from the gateway and each other, on their gRPC port', () => {
        expect(grpcServices().length).toBe(GRPC.length);
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
    test.each(APPS)('%s runs 2 replicas with a PodDisruptionBudget of minAvailable 1', (app) => {
      const objects = overlay('selfhost');
      expect((named(objects, 'Deployment', app)?.spec as Obj).replicas).toBe(2);
      expect((named(objects, 'PodDisruptionBudget', app)?.spec as Obj).minAvailable).toBe(1);
    });
  });

  describe('dev overlay', () => {
    test('runs one replica of each app from locally loaded images', () => {
      expect(ofKind(overlay('dev'), 'Deployment').length).toBe(APPS.length);
      for (const dep of ofKind(overlay('dev'), 'Deployment')) {
        expect((dep.spec as Obj).replicas).toBe(1);
        expect(containersOf(dep).map((c) => c.imagePullPolicy)).toEqual(['IfNotPresent']);
      }
    });
  });
}
