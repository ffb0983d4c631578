/**
 * Offline validation of deploy/: the suite of lib/suite.ts on the real tree, for every app that has an
 * apps/<name>/service.json, and proof that its checks catch broken manifests.
 */
import * as path from 'node:path';
import { ingressAllowed, podOf } from './lib/netpol';
import { schemaErrors } from './lib/schema';
import { configMapViolations, deploymentViolations, pairingViolations } from './lib/rules';
import { readServiceDescriptors } from './lib/services';
import { describeDeployTree, named, Obj, overlays } from './lib/suite';
import { DEPLOY_ROOT, K8sObject } from './lib/yaml-files';

describeDeployTree(DEPLOY_ROOT, readServiceDescriptors());

const overlay = overlays(path.resolve(DEPLOY_ROOT));

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
    expect(configMapViolations(cm)).toEqual(['ConfigMap leaky: BINDERY_ADMIN_TOKEN is a secret; put it in a Secret', 'ConfigMap leaky: MONGO holds credentials inline']);
  });

  test('a Deployment without its Service or PodDisruptionBudget is reported', () => {
    const objects = overlay('selfhost').filter((o) => !(o.metadata.name === 'identity' && (o.kind === 'Service' || o.kind === 'PodDisruptionBudget')));
    expect(pairingViolations(objects)).toEqual(['Deployment identity: no Service selects its pods', 'Deployment identity: expected exactly one PodDisruptionBudget, found 0']);
  });

  test('without the allow policies the default deny blocks the gateway', () => {
    const onlyDeny = overlay('selfhost').filter((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'default-deny-ingress');
    expect(ingressAllowed(onlyDeny, podOf(named(overlay('selfhost'), 'Deployment', 'gateway') as K8sObject), 'external', 8080)).toBe(false);
  });
});
