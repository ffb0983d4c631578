/**
 * Every setting an app reads that cannot be left to its default in a cluster is set in its rendered
 * Deployment (its ConfigMap, or a Secret): the settings without a default, every other service's
 * address (`*_GRPC_URL`, whose default is a loopback address for a single machine) and any other
 * setting whose default is a loopback address. The settings are the apps' own schemas, read from
 * their code: a gRPC service's descriptor (apps/<name>/src/main.ts names it) with the settings every
 * service shares, and the gateway's and the reader's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commonSettings, Schema } from '@bindery/platform/config';
import { RUN_SETTINGS } from '@bindery/platform/service-runtime';
import { gatewaySettings } from '@bindery/gateway/server';
import { readerSettings } from '@bindery/reader/site';
import { effectiveEnv } from './lib/rules';
import { readServiceDescriptors, REPO_ROOT } from './lib/services';
import { named, Obj, overlays } from './lib/suite';
import { DEPLOY_ROOT, K8sObject } from './lib/yaml-files';

/** The schema of the settings an app reads, from its code. */
function settingsOf(app: string): Schema {
  if (app === 'gateway') return gatewaySettings();
  if (app === 'reader') return readerSettings as unknown as Schema;
  const main = fs.readFileSync(path.join(REPO_ROOT, 'apps', app, 'src', 'main.ts'), 'utf8');
  const name = /serviceMain\((\w+)/.exec(main)?.[1];
  const from = name && new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '([^']+)'`).exec(main)?.[1];
  if (!name || !from) throw new Error(`apps/${app}/src/main.ts: no serviceMain(<descriptor>) imported from a library`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const descriptor = require(from)[name] as { settings: Schema };
  return { ...commonSettings, ...RUN_SETTINGS, ...descriptor.settings };
}

const LOOPBACK = /(^|\/\/)(127\.\d+\.\d+\.\d+|localhost)(:|\/|$)/;

/** The settings an app must be given in a cluster: required ones, other services' addresses, loopback defaults. */
export function mustBeSet(schema: Schema): string[] {
  return Object.entries(schema)
    .filter(([key, s]) => (s.default === undefined && !s.optional) || key.endsWith('_GRPC_URL') || (typeof s.default === 'string' && LOOPBACK.test(s.default)))
    .map(([key]) => key)
    .sort();
}

const APPS = readServiceDescriptors().map((s) => s.name);
const overlay = overlays(path.resolve(DEPLOY_ROOT));

describe.each(['dev', 'selfhost'])('overlay %s', (name) => {
  const objects = (): K8sObject[] => overlay(name);
  test.each(APPS)('%s is given every setting its code cannot default in a cluster', (app) => {
    const deployment = named(objects(), 'Deployment', app) as Obj;
    const container = (deployment.spec.template.spec.containers as Obj[]).find((c) => c.name === 'app');
    const { env } = effectiveEnv(container as Obj, objects(), deployment.metadata.namespace);
    expect(mustBeSet(settingsOf(app)).filter((key) => env[key] === undefined)).toEqual([]);
  });
});

describe('mustBeSet', () => {
  test('required settings, other services’ addresses and loopback defaults', () => {
    expect(
      mustBeSet({
        MONGODB_URL: { kind: 'url' },
        IDENTITY_GRPC_URL: { kind: 'string', default: '127.0.0.1:25051' },
        BINDERY_PUBLIC_URL: { kind: 'url', default: 'http://127.0.0.1:8080' },
        LOG_LEVEL: { kind: 'string', default: 'info' },
        BINDERY_READER_URL: { kind: 'url', optional: true },
        TIMEOUT_MS: { kind: 'int', default: 5000 },
      }),
    ).toEqual(['BINDERY_PUBLIC_URL', 'IDENTITY_GRPC_URL', 'MONGODB_URL']);
  });
});
