#!/usr/bin/env node
'use strict';
// Creates a new gRPC service with the workspace's conventions:
//   node tools/generators/service.js <name> [--port <port>]
// apps/<name> (manifest service.json, main.ts), libs/<name>/{domain,feature-grpc,client},
// libs/gateway/<name>-routes (its gateway module), proto/bindery/<name>/v1/<name>.proto and its
// generated code, and deploy/base/<name>. Then it regenerates the lists derived from the manifests
// (the gateway's module list, the contracts index) and adds the service to the deploy aggregate and
// the gateway's settings. The skeleton answers one RPC, Ping, reached at GET /admin/services/<name>.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { createApp, createLib, write, root } = require('./project');
const { grpcServices } = require('../stack/manifests');
const proto = require('../proto/generate');
const gatewayModules = require('./gateway-modules');
const deploy = require('./deploy-files');

const camel = (s) => s.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const pascal = (s) => camel(s).replace(/^./, (c) => c.toUpperCase());
const snake = (s) => s.replace(/-/g, '_');

function templates(name, port) {
  const C = camel(name);
  const P = pascal(name);
  const S = snake(name);
  const contracts = `${camel(name)}V1`;
  return {
    [`apps/${name}/service.json`]: JSON.stringify({ name, kind: 'grpc', port, database: `bindery_${S}` }, null, 2) + '\n',
    [`apps/${name}/src/main.ts`]: `import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { ${C}Service } from '@bindery/${name}/feature-grpc';
import manifest from '../service.json';

serviceMain(${C}Service, manifest as ServiceManifest);
`,
    [`proto/bindery/${S}/v1/${S}.proto`]: `syntax = "proto3";

package bindery.${S}.v1;

// ${P}: the gRPC contract the gateway and other services call.
service ${P}Service {
  rpc Ping(PingRequest) returns (PingResponse);
}

message PingRequest {}

message PingResponse {
  string service = 1;
  string caller_user_id = 2;
}
`,
    [`libs/${name}/domain/src/index.ts`]: `/** ${P}'s business rules: pure functions and types, no I/O. */
export function describeCaller(service: string, userId: string): { service: string; callerUserId: string } {
  return { service, callerUserId: userId };
}
`,
    [`libs/${name}/feature-grpc/src/${name}-server.ts`]: `import { grpcService } from '@bindery/platform/grpc';
import { defineService } from '@bindery/platform/service-runtime';
import { ${contracts} as pb } from '@bindery/shared/contracts';
import { describeCaller } from '@bindery/${name}/domain';

/** ${P}: its settings, database, gRPC services and event consumers. */
export const ${C}Service = defineService({
  name: '${name}',
  settings: {},
  indexes: {},
  outboxCollections: [],
  deps: ({ db }) => ({ db }),
  grpc: () => [
    grpcService(pb.${P}ServiceService, {
      async ping(_req, ctx) {
        return describeCaller('${name}', ctx.caller.userId);
      },
    }),
  ],
});
`,
    [`libs/${name}/feature-grpc/src/index.ts`]: `export * from './${name}-server';\n`,
    [`libs/${name}/feature-grpc/src/${name}.service.spec.ts`]: `import { connect${P} } from '@bindery/${name}/client';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { ${C}Service } from './${name}-server';

describe('${name} service (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<unknown>;
  let clients: ReturnType<typeof connect${P}>;

  beforeAll(async () => {
    service = await startServiceUnderTest(${C}Service);
    clients = connect${P}(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  test('answers a caller and refuses an anonymous call', async () => {
    const caller = { userId: 'u1', isInstanceAdmin: false };
    expect(await clients.${C}.ping({}, { caller })).toEqual({ service: '${name}', callerUserId: 'u1' });
    await expect(clients.${C}.ping({})).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
`,
    [`libs/${name}/feature-grpc/jest.config.cjs`]: `module.exports = require('../../../jest.infra.cjs')({
  displayName: '${name}-feature-grpc',
  rootDir: __dirname,
});
`,
    [`libs/${name}/client/src/index.ts`]: `import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { ${contracts} } from '@bindery/shared/contracts';

const SERVICES = { ${C}: ${contracts}.${P}ServiceService };

/** Typed clients of ${name}'s gRPC services (deadline and signed caller on each call). */
export const connect${P} = clientSet(SERVICES);
export type ${P}Clients = ClientsOf<typeof SERVICES>;
`,
    [`libs/gateway/${name}-routes/src/index.ts`]: `import { defineGatewayModule, RouteSpec } from '@bindery/gateway/http';
import { connect${P}, ${P}Clients } from '@bindery/${name}/client';

/** ${P}'s routes. */
export function ${C}Routes(clients: ${P}Clients): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/admin/services/${name}',
      operationId: 'ping${P}',
      summary: 'Whether ${name} answers, and who is calling',
      tags: ['admin'],
      success: {
        status: 200,
        description: 'The service and the caller it saw',
        schema: { type: 'object', required: ['service', 'callerUserId'], additionalProperties: false, properties: { service: { type: 'string' }, callerUserId: { type: 'string' } } },
      },
      async handler({ caller, deadline }) {
        return { body: await clients.${C}.ping({}, { caller, deadline }) };
      },
    },
  ];
}

export const ${C}Gateway = defineGatewayModule({ service: '${name}', connect: connect${P}, routes: ${C}Routes });
`,
  };
}

function main() {
  const args = process.argv.slice(2);
  const name = args[0];
  if (!name || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new Error('usage: service.js <kebab-case-name> [--port <port>]');
  if (fs.existsSync(path.join(root, 'apps', name))) throw new Error(`apps/${name} exists`);
  const portArg = args.indexOf('--port');
  const port = portArg >= 0 ? Number(args[portArg + 1]) : Math.max(25050, ...grpcServices().map((m) => m.port)) + 1;

  createApp(name, name);
  createLib(name, 'domain', 'domain');
  createLib(name, 'feature-grpc', 'feature');
  createLib(name, 'client', 'client');
  createLib('gateway', `${name}-routes`, 'feature');
  const files = Object.entries(templates(name, port));
  for (const [file, content] of files) {
    const abs = path.join(root, file);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  // The workspace's formatting (lint checks it).
  const sources = files.map(([file]) => file).filter((file) => file.endsWith('.ts'));
  execFileSync(process.execPath, [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--write', ...sources], { cwd: root, stdio: 'ignore' });
  proto.generate();
  gatewayModules.write();
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'apps', name, 'service.json'), 'utf8'));
  for (const [file, content] of Object.entries(deploy.deployFiles(manifest))) write(path.join(root, file), content);
  deploy.addToAggregate(name);
  deploy.addToGateway(manifest);
  console.log(`created ${name} on port ${port}: npm start runs it; GET /admin/services/${name} reaches it through the gateway`);
}

main();
