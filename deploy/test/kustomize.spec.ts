/**
 * Unit tests of the kustomize subset renderer used by the suite (lib/kustomize.ts).
 *
 * Each `render` case is a small kustomization tree. With KUBECTL=/path/to/kubectl in the environment,
 * every case is also rendered by `kubectl kustomize` and must give the same objects (or fail too);
 * without it nothing but node_modules is needed.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jsonPatch, parseFieldPath, parseImage, parseLabelSelector, render, strategicMerge } from './lib/kustomize';
import { parseYamlDocuments } from './lib/yaml-files';
import { canonical } from './lib/suite';

/* eslint-disable @typescript-eslint/no-explicit-any */
const KUBECTL = process.env.KUBECTL;

describe('strategicMerge', () => {
  test('merges maps, deletes on null, and merges containers/env by name with the patch items first (as kustomize does)', () => {
    const base = {
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              {
                name: 'app',
                image: 'a:1',
                env: [
                  { name: 'A', value: '1' },
                  { name: 'C', value: '0' },
                ],
                command: ['x', 'y'],
              },
              { name: 'side', image: 's:1' },
            ],
          },
        },
      },
    };
    const patch = {
      spec: {
        replicas: null,
        template: {
          spec: {
            containers: [
              {
                name: 'app',
                env: [
                  { name: 'B', value: '2' },
                  { name: 'A', value: '3' },
                ],
                command: ['z'],
              },
            ],
          },
        },
      },
    };
    expect(strategicMerge(base, patch, ['Deployment'])).toEqual({
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'app',
                image: 'a:1',
                env: [
                  { name: 'B', value: '2' },
                  { name: 'A', value: '3' },
                  { name: 'C', value: '0' },
                ],
                command: ['z'],
              },
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

describe('jsonPatch (RFC 6902)', () => {
  const doc = { a: { b: [1, 2], c: 'x' } };
  test('add, remove, replace, move, copy and test', () => {
    expect(jsonPatch(doc, [{ op: 'add', path: '/a/b/-', value: 3 }])).toEqual({ a: { b: [1, 2, 3], c: 'x' } });
    expect(jsonPatch(doc, [{ op: 'add', path: '/a/b/0', value: 0 }])).toEqual({ a: { b: [0, 1, 2], c: 'x' } });
    expect(jsonPatch(doc, [{ op: 'add', path: '/a/d~1e', value: 1 }])).toEqual({ a: { b: [1, 2], c: 'x', 'd/e': 1 } });
    expect(jsonPatch(doc, [{ op: 'remove', path: '/a/b/0' }])).toEqual({ a: { b: [2], c: 'x' } });
    expect(jsonPatch(doc, [{ op: 'replace', path: '/a/c', value: 'y' }])).toEqual({ a: { b: [1, 2], c: 'y' } });
    expect(jsonPatch(doc, [{ op: 'move', from: '/a/c', path: '/d' }])).toEqual({ a: { b: [1, 2] }, d: 'x' });
    expect(jsonPatch(doc, [{ op: 'copy', from: '/a/c', path: '/a/b/1' }])).toEqual({ a: { b: [1, 'x', 2], c: 'x' } });
    expect(jsonPatch(doc, [{ op: 'test', path: '/a/b', value: [1, 2] }])).toEqual(doc);
    expect(doc).toEqual({ a: { b: [1, 2], c: 'x' } });
  });

  test('fails on missing paths, bad indexes and failed tests', () => {
    expect(() => jsonPatch(doc, [{ op: 'replace', path: '/a/z', value: 1 }])).toThrow(/does not exist/);
    expect(() => jsonPatch(doc, [{ op: 'remove', path: '/a/b/2' }])).toThrow(/out of bounds/);
    expect(() => jsonPatch(doc, [{ op: 'add', path: '/x/y', value: 1 }])).toThrow(/does not exist/);
    expect(() => jsonPatch(doc, [{ op: 'test', path: '/a/c', value: 'y' }])).toThrow(/test failed/);
  });
});

describe('parseFieldPath (kustomize field path syntax)', () => {
  test.each([
    ['metadata.name', [{ key: 'metadata' }, { key: 'name' }]],
    ['metadata.labels.[app.kubernetes.io/name]', [{ key: 'metadata' }, { key: 'labels' }, { key: 'app.kubernetes.io/name' }]],
    ['metadata.annotations.a\\.b/c', [{ key: 'metadata' }, { key: 'annotations' }, { key: 'a.b/c' }]],
    ['spec.containers.[name=app.v1].ports.0', [{ key: 'spec' }, { key: 'containers' }, { match: ['name', 'app.v1'] }, { key: 'ports' }, { index: 0 }]],
  ])('%s', (fieldPath, expected) => {
    expect(parseFieldPath(fieldPath)).toEqual(expected);
  });

  test('a bracket without "=" and no dot is a list matcher, which needs "="; wildcards are not supported', () => {
    expect(() => parseFieldPath('metadata.labels.[a]')).toThrow(/fieldName=fieldValue/);
    expect(() => parseFieldPath('spec.containers.*.image')).toThrow(/not supported/);
  });
});

describe('parseLabelSelector', () => {
  test.each([
    ['a=1', { a: '1' }, true],
    ['a==1,b', { a: '1', b: '' }, true],
    ['a!=1', { a: '2' }, true],
    ['a!=1', {}, true],
    ['a in (1, 2),!c', { a: '2' }, true],
    ['a in (1,2)', {}, false],
    ['a notin (1,2)', { a: '1' }, false],
    ['a notin (1,2)', {}, true],
    ['!a', { a: '1' }, false],
  ])('%s on %j is %s', (selector, labels, expected) => {
    expect(parseLabelSelector(selector).every((t) => t(labels as Record<string, string>))).toBe(expected);
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

// ---------------------------------------------------------------------------------------------
// render: small trees, optionally cross-checked with kubectl

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
const COMPONENT = 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n';
const CM = (name: string, data = 'A: "1"', extra = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}data:\n  ${data}\n`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: tmpl
  labels:
    app.kubernetes.io/name: tmpl
    tier: web
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: tmpl
  template:
    metadata:
      labels:
        app.kubernetes.io/name: tmpl
    spec:
      containers:
        - name: app
          image: reg/tmpl:1
          command: ["node", "dist/apps/tmpl/main.js"]
          ports:
            - name: grpc
              containerPort: 1
          env:
            - name: A
              value: "1"
`;

type Files = Record<string, string>;

describe('render', () => {
  let dir: string;
  const write = (files: Files) => {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  };
  /** kubectl's objects, or its error message (child_process errors come from another realm: no instanceof). */
  const kubectl = (at: string): unknown[] | string => {
    try {
      return parseYamlDocuments(execFileSync(KUBECTL as string, ['kustomize', path.join(dir, at)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), 'kubectl');
    } catch (e) {
      return `${(e as { stderr?: string }).stderr ?? e}`;
    }
  };
  /** Renders `at` (default "o"); with KUBECTL set, kubectl must agree unless the renderer is knowingly stricter. */
  const renderCase = (files: Files, at = 'o', { stricter = false } = {}) => {
    write(files);
    let ours: unknown[] | Error;
    try {
      ours = render(path.join(dir, at));
    } catch (e) {
      ours = e as Error;
    }
    if (KUBECTL && !stricter) {
      const theirs = kubectl(at);
      if (ours instanceof Error || typeof theirs === 'string') expect([ours instanceof Error && ours.message, theirs]).toEqual([expect.any(String), expect.any(String)]);
      else expect(canonical(ours)).toEqual(canonical(theirs));
    }
    if (ours instanceof Error) throw ours;
    return ours;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-kustomize-'));
    write({
      'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {x: "1"}\ndata:\n  A: "1"\n',
      'base/kustomization.yaml': `${KUSTOMIZATION}resources: [cm.yaml]\n`,
      'comp/extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n',
      'comp/kustomization.yaml': `${COMPONENT}resources: [extra.yaml]\n`,
    });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('applies resources, components, targeted patches and namespace', () => {
    const out = renderCase({
      'o/p.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ignored\ndata:\n  B: "2"\n',
      'o/kustomization.yaml': `${KUSTOMIZATION}namespace: ns\nresources: [../base]\ncomponents: [../comp]\npatches:\n  - path: p.yaml\n    target: {kind: ConfigMap, labelSelector: x=1}\n`,
    });
    expect(out).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', labels: { x: '1' } }, data: { A: '1', B: '2' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace: 'ns' } },
    ]);
  });

  test('a component (and a component inside it) acts on the parent objects before the parent transformers run', () => {
    const out = renderCase({
      'inner/kustomization.yaml': `${COMPONENT}patches:\n  - target: {kind: ConfigMap}\n    patch: |-\n      - {op: add, path: /data/ORDER, value: inner}\n`,
      'outer/kustomization.yaml': `${COMPONENT}components: [../inner]\npatches:\n  - target: {kind: ConfigMap}\n    patch: |-\n      - {op: replace, path: /data/ORDER, value: outer}\n`,
      'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base]\ncomponents: [../outer]\npatches:\n  - target: {kind: ConfigMap}\n    patch: |-\n      - {op: add, path: /data/LAST, value: parent}\n`,
    });
    expect(out.map((o: any) => o.data)).toEqual([{ A: '1', ORDER: 'outer', LAST: 'parent' }]);
  });

  test('inline patches: JSON 6902 operations and strategic merge; targets by group, version, name regex, label and annotation selectors', () => {
    const [d] = renderCase({
      'o/d.yaml': DEPLOYMENT.replace('    tier: web\n', '    tier: web\n  annotations:\n    team: a\n'),
      'o/kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]
patches:
  - target: {kind: Deployment, labelSelector: "tier in (web,api)", annotationSelector: team=a}
    patch: |-
      - op: add
        path: /spec/template/spec/containers/0/env/-
        value: {name: B, value: "2"}
      - {op: copy, from: /metadata/name, path: /metadata/annotations/copied}
      - {op: move, from: /metadata/annotations/team, path: /metadata/annotations/owner}
      - {op: test, path: /metadata/name, value: tmpl}
      - {op: replace, path: /spec/template/spec/containers/0/image, value: "reg/other:2"}
      - {op: remove, path: /metadata/labels/tier}
  - target: {group: apps, version: v1, name: "t.*|x"}
    patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: ignored}
      spec: {replicas: 3}
`,
    }) as any[];
    expect(d.metadata).toEqual({ name: 'tmpl', labels: { 'app.kubernetes.io/name': 'tmpl' }, annotations: { copied: 'tmpl', owner: 'a' } });
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(d.spec.template.spec.containers[0].image).toBe('reg/other:2');
  });

  test('a JSON 6902 patch needs a target, and a failing operation fails the render', () => {
    write({ 'o/d.yaml': DEPLOYMENT });
    write({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\npatches:\n  - patch: '[{op: remove, path: /spec}]'\n` });
    expect(() => renderCase({}, 'o', { stricter: true })).toThrow(/needs a target/);
    write({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\npatches:\n  - target: {kind: Deployment}\n    patch: '[{op: remove, path: /spec/nope}]'\n` });
    expect(() => renderCase({})).toThrow(/does not exist/);
  });

  test('replacements: names, labels with dots, list items by key, delimited parts, created fields, numbers kept numbers', () => {
    const [cm, d] = renderCase({
      'o/d.yaml': DEPLOYMENT,
      'o/cm.yaml': CM('widgets-config', 'NAME: widgets\n  PORT: "50099"'),
      'o/kustomization.yaml': `${KUSTOMIZATION}resources: [cm.yaml, d.yaml]
replacements:
  - source: {kind: ConfigMap, fieldPath: data.NAME}
    targets:
      - select: {kind: Deployment}
        fieldPaths:
          - metadata.name
          - metadata.labels.[app.kubernetes.io/name]
          - spec.selector.matchLabels.[app.kubernetes.io/name]
          - spec.template.metadata.labels.[app.kubernetes.io/name]
      - select: {kind: Deployment}
        fieldPaths: [spec.template.spec.containers.0.command.1]
        options: {delimiter: /, index: 2}
      - select: {kind: Deployment}
        fieldPaths: [spec.template.spec.containers.0.image]
        options: {delimiter: /, index: 5}
      - select: {kind: Deployment}
        fieldPaths: [metadata.annotations.a\\.b/c]
        options: {create: true}
  - source: {kind: ConfigMap, name: widgets-config, fieldPath: data.PORT}
    targets:
      - select: {kind: Deployment}
        fieldPaths:
          - spec.template.spec.containers.[name=app].ports.[name=grpc].containerPort
          - spec.template.spec.containers.[name=app].env.[name=A].value
  - source: {kind: ConfigMap}
    targets:
      - select: {labelSelector: tier=web}
        fieldPaths: [spec.template.spec.containers.0.image]
        options: {delimiter: /, index: -1}
`,
    }) as any[];
    expect(cm.metadata).toEqual({ name: 'widgets-config' });
    expect(d.metadata).toEqual({ name: 'widgets', labels: { 'app.kubernetes.io/name': 'widgets', tier: 'web' }, annotations: { 'a.b/c': 'widgets' } });
    expect(d.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'widgets' });
    expect(d.spec.template.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'widgets' });
    const c = d.spec.template.spec.containers[0];
    expect(c.command).toEqual(['node', 'dist/apps/widgets/main.js']);
    expect(c.image).toBe('widgets-config/reg/tmpl:1/widgets'); // index past the end appends, a negative one prepends
    expect(c.ports).toEqual([{ name: 'grpc', containerPort: 50099 }]);
    expect(c.env).toEqual([{ name: 'A', value: '50099' }]);
  });

  test('replacements: reject, from a file, from a local-config object that is then dropped, and after images and namespace', () => {
    const out = renderCase({
      'o/d.yaml': DEPLOYMENT + '---\n' + DEPLOYMENT.replace(/tmpl/g, 'other'),
      'o/values.yaml': CM('values', 'port: "7"', '  annotations:\n    config.kubernetes.io/local-config: "true"\n'),
      'o/r.yaml': `- source: {kind: ConfigMap, name: values, fieldPath: data.port}
  targets:
    - select: {kind: Deployment}
      reject: [{name: other}]
      fieldPaths: [spec.template.spec.containers.0.ports.0.containerPort]
- source: {kind: Deployment, name: tmpl, fieldPath: spec.template.spec.containers.0.image}
  targets:
    - select: {kind: Deployment, name: other}
      fieldPaths: [metadata.labels.tier]
- source: {kind: Deployment, name: tmpl, fieldPath: metadata.namespace}
  targets:
    - select: {kind: Deployment, name: other}
      fieldPaths: [spec.template.spec.containers.0.env.0.value]
`,
      'o/kustomization.yaml': `${KUSTOMIZATION}namespace: ns\nresources: [values.yaml, d.yaml]\nimages:\n  - {name: reg/tmpl, newTag: "2"}\nreplacements:\n  - path: r.yaml\n`,
    }) as any[];
    expect(out.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Deployment/tmpl', 'Deployment/other']);
    expect(out[0].spec.template.spec.containers[0].ports[0].containerPort).toBe(7);
    expect(out[1].spec.template.spec.containers[0].ports[0].containerPort).toBe(1);
    expect(out[1].metadata.labels.tier).toBe('reg/tmpl:2');
    expect(out[1].spec.template.spec.containers[0].env[0].value).toBe('ns');
  });

  test.each([
    ['a missing target field', '- source: {kind: ConfigMap}\n  targets: [{select: {kind: Deployment}, fieldPaths: [metadata.annotations.x]}]', /unable to find field/],
    [
      'a missing list item',
      '- source: {kind: ConfigMap}\n  targets: [{select: {kind: Deployment}, fieldPaths: ["spec.template.spec.containers.[name=nope].image"]}]',
      /unable to find field/,
    ],
    [
      'a missing source field',
      '- source: {kind: ConfigMap, fieldPath: data.NOPE}\n  targets: [{select: {kind: Deployment}, fieldPaths: [metadata.name]}]',
      /is missing for replacement source/,
    ],
    ['an ambiguous source', '- source: {}\n  targets: [{select: {kind: Deployment}, fieldPaths: [metadata.name]}]', /multiple matches/],
    ['no source', '- source: {kind: Secret}\n  targets: [{select: {kind: Deployment}, fieldPaths: [metadata.name]}]', /nothing selected/],
    [
      'a word into a number',
      '- source: {kind: ConfigMap}\n  targets: [{select: {kind: Deployment}, fieldPaths: [spec.template.spec.containers.0.ports.0.containerPort]}]',
      /as a number/,
    ],
    [
      'a source index out of bounds',
      '- source: {kind: ConfigMap, options: {delimiter: "-", index: 3}}\n  targets: [{select: {kind: Deployment}, fieldPaths: [metadata.name]}]',
      /out of bounds/,
    ],
  ])('replacements: %s fails the render', (_, replacements, message) => {
    write({ 'o/d.yaml': DEPLOYMENT, 'o/cm.yaml': CM('c') });
    expect(() => renderCase({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [cm.yaml, d.yaml]\nreplacements:\n${replacements.replace(/^/gm, '  ')}\n` })).toThrow(message);
  });

  test('files outside the kustomization directory are refused, as kustomize does by default', () => {
    expect(() => renderCase({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base/cm.yaml]\n` })).toThrow(/not in or below/);
    expect(() => renderCase({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base]\npatches: [{path: ../base/cm.yaml}]\n` })).toThrow(/not in or below/);
  });

  test('refuses features it does not implement, patches that match nothing and duplicates', () => {
    const refused = (files: Files) => () => renderCase(files, 'o', { stricter: true });
    expect(refused({ 'o/kustomization.yaml': `${KUSTOMIZATION}namePrefix: x-\nresources: [../base]\n` })).toThrow(/namePrefix.*not supported/);
    expect(refused({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base]\npatches: [{path: p.yaml, options: {allowNameChange: true}}]\n` })).toThrow(
      /options.*not supported/,
    );
    expect(
      refused({
        'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base]\nreplacements: [{source: {kind: ConfigMap}, targets: [{select: {kind: ConfigMap}, fieldPaths: ["data.*"]}]}]\n`,
      }),
    ).toThrow(/not supported/);
    expect(refused({ 'o/p.yaml': CM('nope'), 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base]\npatches: [{path: p.yaml}]\n` })).toThrow(/matches no object/);
    expect(() => renderCase({ 'o/cm.yaml': CM('c'), 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../base, cm.yaml]\n` })).toThrow(/defined twice/);
    expect(() => renderCase({ 'o/kustomization.yaml': `${KUSTOMIZATION}resources: [../comp]\n` })).toThrow(/expected kustomize.config.k8s.io\/v1beta1 Kustomization/);
  });
});
