/** Unit tests of the kustomize subset renderer used by manifests.spec.ts. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseImage, render, strategicMerge } from './lib/kustomize';
import { parseYamlDocuments } from './lib/yaml-files';

describe('strategicMerge', () => {
  test('merges maps, deletes on null and merges containers/env by name', () => {
    const base = {
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              { name: 'app', image: 'a:1', env: [{ name: 'A', value: '1' }], command: ['x', 'y'] },
              { name: 'side', image: 's:1' },
            ],
          },
        },
      },
    };
    const patch = {
      spec: {
        replicas: null,
        template: { spec: { containers: [{ name: 'app', env: [{ name: 'B', value: '2' }, { name: 'A', value: '3' }], command: ['z'] }] } },
      },
    };
    expect(strategicMerge(base, patch, ['Deployment'])).toEqual({
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'app', image: 'a:1', env: [{ name: 'A', value: '3' }, { name: 'B', value: '2' }], command: ['z'] },
              { name: 'side', image: 's:1' },
            ],
          },
        },
      },
    });
  });

  test('merges Service ports on port and refuses $patch directives', () => {
    const svc = { spec: { ports: [{ port: 80, name: 'a' }] } };
    expect(strategicMerge(svc, { spec: { ports: [{ port: 80, name: 'b' }] } }, ['Service'])).toEqual({ spec: { ports: [{ port: 80, name: 'b' }] } });
    expect(() => strategicMerge(svc, { spec: { $patch: 'replace' } }, ['Service'])).toThrow(/not supported/);
  });
});

describe('parseImage', () => {
  test.each([
    ['bindery/gateway:latest', { name: 'bindery/gateway', tag: 'latest' }],
    ['registry:5000/bindery/gateway', { name: 'registry:5000/bindery/gateway' }],
    ['registry:5000/bindery/gateway:1.2', { name: 'registry:5000/bindery/gateway', tag: '1.2' }],
    [`bindery/gateway@sha256:${'a'.repeat(64)}`, { name: 'bindery/gateway', digest: `sha256:${'a'.repeat(64)}` }],
  ])('%s', (ref, expected) => {
    expect(parseImage(ref)).toEqual(expected);
  });
});

describe('YAML parsing', () => {
  test('uses YAML 1.1 scalars like kubectl, and rejects duplicate keys', () => {
    expect(parseYamlDocuments('a: yes\nb: 0755\n', 't')).toEqual([{ a: true, b: 493 }]);
    expect(() => parseYamlDocuments('a: 1\na: 2\n', 't')).toThrow();
  });
});

describe('render', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-kustomize-'));
    write('base/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {x: "1"}\ndata:\n  A: "1"\n');
    write('base/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\n');
    write('comp/extra.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n');
    write('comp/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [extra.yaml]\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('applies resources, components, targeted patches and namespace', () => {
    write('o/p.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ignored\ndata:\n  B: "2"\n');
    write(
      'o/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ns\nresources: [../base]\ncomponents: [../comp]\npatches:\n  - path: p.yaml\n    target: {kind: ConfigMap, labelSelector: x=1}\n',
    );
    const out = render(path.join(dir, 'o'));
    expect(out).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', labels: { x: '1' } }, data: { A: '1', B: '2' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace: 'ns' } },
    ]);
  });

  test('refuses features it does not implement, patches that match nothing and duplicates', () => {
    write('o/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamePrefix: x-\nresources: [../base]\n');
    expect(() => render(path.join(dir, 'o'))).toThrow(/namePrefix.*not supported/);
    write('o/p.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nope\n');
    write('o/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base]\npatches: [{path: p.yaml}]\n');
    expect(() => render(path.join(dir, 'o'))).toThrow(/matches no object/);
    write('o/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base, ../base/cm.yaml]\n');
    expect(() => render(path.join(dir, 'o'))).toThrow(/defined twice/);
    write('o/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../comp]\n');
    expect(() => render(path.join(dir, 'o'))).toThrow(/expected kustomize.config.k8s.io\/v1beta1 Kustomization/);
  });
});
