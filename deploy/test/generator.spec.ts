/**
 * tools/generators/deploy-files.js: its output for made-up services, added to a copy of deploy/, passes
 * the same suite as the real tree (lib/suite.ts); and it reproduces identity's folder.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { render } from './lib/kustomize';
import { readServiceDescriptors, REPO_ROOT, ServiceDescriptor } from './lib/services';
import { describeDeployTree, named, Obj } from './lib/suite';
import { DEPLOY_ROOT, readYamlFile } from './lib/yaml-files';

interface Generator {
  deployFiles(descriptor: unknown): Record<string, string>;
  addToAggregate(name: string, repoRoot?: string): boolean;
  addToGateway(descriptor: unknown, repoRoot?: string): boolean;
  addToMonolith(descriptor: unknown, repoRoot?: string): boolean;
  gatewayEntry(descriptor: unknown): { key: string; value: string };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require(path.join(REPO_ROOT, 'tools/generators/deploy-files.js')) as Generator;

const SERVICES = readServiceDescriptors();
const identity = SERVICES.find((s) => s.name === 'identity') as ServiceDescriptor;
const WIDGETS: ServiceDescriptor = { name: 'widgets', kind: 'grpc', port: 25099, database: 'bindery_widgets' };
const DOC_MIRROR: ServiceDescriptor = {
  name: 'doc-mirror',
  kind: 'grpc',
  port: 25098,
  database: 'bindery_doc_mirror',
  secrets: ['BINDERY_ADMIN_TOKEN', 'DOC_MIRROR_SIGNING_KEY'],
};

/** A copy of deploy/ (without its tests) in which `generate` adds services the way the generator's CLI does. */
function copyOfDeploy(): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-deploy-'));
  fs.cpSync(DEPLOY_ROOT, path.join(repo, 'deploy'), { recursive: true, filter: (src) => !src.startsWith(path.join(DEPLOY_ROOT, 'test')) });
  return repo;
}
function generate(repo: string, descriptor: ServiceDescriptor): void {
  for (const [rel, content] of Object.entries(generator.deployFiles(descriptor))) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), content);
  }
  generator.addToAggregate(descriptor.name, repo);
  generator.addToGateway(descriptor, repo);
}

const copies: string[] = [];
afterAll(() => copies.forEach((c) => fs.rmSync(c, { recursive: true, force: true })));

describe('deployFiles', () => {
  test('writes a kustomization and a ConfigMap under deploy/base/<name>/', () => {
    const files = generator.deployFiles(WIDGETS);
    expect(Object.keys(files).sort()).toEqual(['deploy/base/widgets/configmap.yaml', 'deploy/base/widgets/kustomization.yaml']);
    const [cm] = readYamlFile(writeTemp(files['deploy/base/widgets/configmap.yaml'])) as Obj[];
    expect(cm.metadata.name).toBe('widgets-config');
    expect(cm.data).toEqual({ BINDERY_SERVICE_NAME: 'widgets', WIDGETS_GRPC_PORT: '25099', WIDGETS_DB: 'bindery_widgets', LOG_LEVEL: 'info' });
  });

  test("reproduces identity's kustomization, and identity's ConfigMap holds what it would generate", () => {
    const files = generator.deployFiles(identity);
    const folder = path.join(DEPLOY_ROOT, 'base/identity');
    expect(fs.readFileSync(path.join(folder, 'kustomization.yaml'), 'utf8')).toBe(files['deploy/base/identity/kustomization.yaml']);
    const [generated] = readYamlFile(writeTemp(files['deploy/base/identity/configmap.yaml'])) as Obj[];
    const actual = named(render(folder), 'ConfigMap', 'identity-config') as Obj;
    expect(actual.data).toEqual(expect.objectContaining(generated.data));
  });

  test.each([
    [{ ...WIDGETS, kind: 'http' }, /only kind "grpc"/],
    [{ ...WIDGETS, name: 'Widgets' }, /DNS label/],
    [{ ...WIDGETS, name: 'widgets-' }, /DNS label/],
    [{ ...WIDGETS, port: 70000 }, /port/],
    [{ ...WIDGETS, port: '25099' }, /port/],
    [{ ...WIDGETS, database: 'a b' }, /database/],
    [{ ...WIDGETS, secrets: ['lowercase'] }, /secrets/],
  ])('refuses %j', (descriptor, message) => {
    expect(() => generator.deployFiles(descriptor)).toThrow(message);
  });

  test('gives the gateway <NAME>_GRPC_URL = <name>:<port>', () => {
    expect(generator.gatewayEntry(DOC_MIRROR)).toEqual({ key: 'DOC_MIRROR_GRPC_URL', value: 'doc-mirror:25098' });
  });
});

describe('addToAggregate, addToGateway and addToMonolith', () => {
  const repo = copyOfDeploy();
  copies.push(repo);
  const aggregate = () => fs.readFileSync(path.join(repo, 'deploy/base/kustomization.yaml'), 'utf8');
  const gatewayConfig = () => fs.readFileSync(path.join(repo, 'deploy/base/gateway/configmap.yaml'), 'utf8');

  test('add one sorted line each, once', () => {
    const before = aggregate();
    expect(generator.addToAggregate('audit2', repo)).toBe(true);
    expect(generator.addToAggregate('audit', repo)).toBe(true);
    expect(generator.addToAggregate('audit2', repo)).toBe(false);
    expect(aggregate()).toBe(before.replace('  - change-requests\n', '  - audit\n  - audit2\n  - change-requests\n'));
    expect((readYamlFile(path.join(repo, 'deploy/base/kustomization.yaml'))[0] as Obj).resources).toEqual([
      'audit',
      'audit2',
      'change-requests',
      'content',
      'gateway',
      'git-sync',
      'identity',
      'reader',
      'search',
      'sites',
      'specs',
      'webhooks',
    ]);

    const config = gatewayConfig();
    expect(generator.addToGateway(WIDGETS, repo)).toBe(true);
    expect(generator.addToGateway(WIDGETS, repo)).toBe(false);
    expect(gatewayConfig()).toBe(config.replace('  WEBHOOKS_GRPC_URL: webhooks:25058\n', '  WEBHOOKS_GRPC_URL: webhooks:25058\n  WIDGETS_GRPC_URL: widgets:25099\n'));
    expect(() => generator.addToGateway({ ...WIDGETS, port: 50100 }, repo)).toThrow(/already set/);

    const monolithConfig = () => fs.readFileSync(path.join(repo, 'deploy/small/bindery/configmap.yaml'), 'utf8');
    const monolith = monolithConfig();
    expect(generator.addToMonolith(WIDGETS, repo)).toBe(true);
    expect(generator.addToMonolith(WIDGETS, repo)).toBe(false);
    expect(monolithConfig()).toBe(monolith.replace('  WEBHOOKS_GRPC_URL: 127.0.0.1:25058\n', '  WEBHOOKS_GRPC_URL: 127.0.0.1:25058\n  WIDGETS_GRPC_URL: 127.0.0.1:25099\n'));
  });
});

/** Writes text to a temporary file (for readYamlFile). */
function writeTemp(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-yaml-'));
  copies.push(dir);
  fs.writeFileSync(path.join(dir, 'file.yaml'), text);
  return path.join(dir, 'file.yaml');
}

describe('a copy of deploy/ with generated services widgets and doc-mirror', () => {
  const repo = copyOfDeploy();
  copies.push(repo);
  generate(repo, WIDGETS);
  generate(repo, DOC_MIRROR);

  describeDeployTree(
    path.join(repo, 'deploy'),
    [...SERVICES, DOC_MIRROR, WIDGETS].sort((a, b) => (a.name < b.name ? -1 : 1)),
  );

  test("doc-mirror takes its own secret from Secret bindery-doc-mirror, after the template's", () => {
    const dep = named(render(path.join(repo, 'deploy/base/doc-mirror')), 'Deployment', 'doc-mirror') as Obj;
    const fromSecrets = dep.spec.template.spec.containers[0].env.filter((e: Obj) => e.valueFrom);
    expect(fromSecrets.map((e: Obj) => [e.name, e.valueFrom.secretKeyRef])).toEqual([
      ['MONGODB_URL', { name: 'bindery-mongodb', key: 'url' }],
      ['BINDERY_INTERNAL_SECRET', { name: 'bindery-internal', key: 'secret' }],
      ['BINDERY_ADMIN_TOKEN', { name: 'bindery-admin', key: 'token', optional: true }],
      ['DOC_MIRROR_SIGNING_KEY', { name: 'bindery-doc-mirror', key: 'DOC_MIRROR_SIGNING_KEY' }],
    ]);
  });
});
