/**
 * The small install (deploy/small): one pod running the monolith (apps/bindery) with every app, in
 * place of one Deployment per app. Rendered offline and checked like the overlays.
 */
import * as path from 'node:path';
import { render } from './lib/kustomize';
import { ingressAllowed, podOf } from './lib/netpol';
import { schemaErrors } from './lib/schema';
import { configMapViolations, containersOf, deploymentViolations, effectiveEnv, pairingViolations, resolvePort } from './lib/rules';
import { envPrefix, readAllDescriptors } from './lib/services';
import { named, Obj, ofKind } from './lib/suite';
import { DEPLOY_ROOT, K8sObject } from './lib/yaml-files';

const objects = render(path.join(DEPLOY_ROOT, 'small'));
const descriptors = readAllDescriptors();
const monolith = descriptors.find((d) => d.kind === 'monolith')!;
const grpc = descriptors.filter((d) => d.kind === 'grpc');
const deployment = named(objects, 'Deployment', monolith.name) as K8sObject & { spec: Obj };
const main = containersOf(deployment)[0];
const namespace = 'bindery';

describe('deploy/small', () => {
  test('renders one Deployment, the monolith, with its Service, the gateway and reader Services and a PodDisruptionBudget', () => {
    expect(ofKind(objects, 'Deployment').map((d) => d.metadata.name)).toEqual([monolith.name]);
    expect(
      ofKind(objects, 'Service')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['bindery', 'gateway', 'reader']);
    expect(ofKind(objects, 'PodDisruptionBudget').map((p) => p.metadata.name)).toEqual([monolith.name]);
    expect(pairingViolations(objects)).toEqual([]);
  });

  test('every object matches the Kubernetes schema and lives in the namespace the install creates', () => {
    expect(objects.flatMap((o) => schemaErrors(o).map((e) => `${o.kind}/${o.metadata.name}: ${e}`))).toEqual([]);
    expect(named(objects, 'Namespace', namespace)?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect(objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
  });

  test('the Deployment is hardened, probed and limited like every app, runs one replica and may be disrupted', () => {
    expect(deploymentViolations(deployment)).toEqual([]);
    expect(deployment.spec.replicas).toBe(1);
    expect((named(objects, 'PodDisruptionBudget', monolith.name)?.spec as Obj).maxUnavailable).toBe(1);
    expect(main.command).toEqual(['node', '--require', 'dist/apps/telemetry.js', `dist/apps/${monolith.name}/main.js`]);
    expect(main.image).toMatch(/^bindery\/bindery:/);
    expect(main.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  });

  test('it hosts every app, with the gateway on 8080, the reader on 8090 and every gRPC service on loopback', () => {
    const { env, problems } = effectiveEnv(main, objects, namespace);
    expect(problems).toEqual([]);
    expect(env.BINDERY_SERVICES).toBe('all');
    expect(resolvePort(main, 'http')).toBe(Number(env.PORT));
    expect(resolvePort(main, 'reader')).toBe(Number(env.READER_PORT));
    expect(env.GRPC_BIND_ADDRESS ?? '127.0.0.1').toBe('127.0.0.1');
    for (const s of grpc) expect([s.name, env[`${envPrefix(s.name)}_GRPC_URL`]]).toEqual([s.name, `127.0.0.1:${s.port}`]);
    expect(env.MONGODB_URL).toEqual({ secret: 'bindery-mongodb/url', optional: false });
    expect(env.BINDERY_ADMIN_TOKEN).toEqual({ secret: 'bindery-admin/token', optional: true });
    expect(ofKind(objects, 'ConfigMap').flatMap(configMapViolations)).toEqual([]);
  });

  test('clients of the split install find the gateway and the reader at the same names and ports', () => {
    const pod = podOf(deployment);
    for (const [name, port, target] of [
      ['gateway', 8080, 'http'],
      ['reader', 8090, 'reader'],
    ] as const) {
      const svc = named(objects, 'Service', name) as K8sObject & { spec: Obj };
      expect(Object.entries(svc.spec.selector).every(([k, v]) => pod.labels[k] === v)).toBe(true);
      expect(svc.spec.ports).toEqual([{ name: 'http', port, targetPort: target, protocol: 'TCP' }]);
    }
  });

  test('only the gateway and the reader ports take ingress', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    const pod = podOf(deployment);
    expect(ingressAllowed(policies, pod, 'external', 8080)).toBe(true);
    expect(ingressAllowed(policies, pod, 'external', 8090)).toBe(true);
    for (const s of grpc) expect(ingressAllowed(policies, pod, 'external', s.port)).toBe(false);
    expect(ingressAllowed(policies, { namespace, labels: { app: 'anything-else' }, ports: [] }, 'external', 80)).toBe(false);
  });
});
