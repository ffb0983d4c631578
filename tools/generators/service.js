#!/usr/bin/env node
'use strict';
// Creates a new gRPC service with the workspace's conventions:
//   node tools/generators/service.js <name> [--port <port>]
// apps/<name> (manifest service.json, main.ts), libs/<name>/{domain,data-access,feature-grpc,client},
// libs/gateway/<name>-routes (its gateway module), proto/bindery/<name>/v1/<name>.proto,
// proto/bindery/events/<name>/v1/events.proto and their generated code, deploy/base/<name>, and an
// end-to-end skeleton apps/gateway-e2e/src/<name>.e2e.spec.ts. Then it regenerates the lists derived
// from the manifests (the gateway's module list, the contracts index) and adds the service to the
// deploy aggregate and the gateway's settings. The skeleton shows each part a service has, once:
// - a repository over one collection (`notes`) with its index plan and a test against MongoDB;
// - an event catalogue in its client (`<name>.note.recorded`, written with the note in its outbox);
// - a consumer group reading identity's events (`identity.user.created` records a note, in the
//   consumer's transaction through `sessionOf`);
// - a durable run kind `<name>.example` that reports its progress;
// - one RPC, Ping, reached at GET /admin/services/<name>, with a service test and an e2e test.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { createApp, createLib, write, root } = require('./project');
const { grpcServices } = require('../stack/manifests');
const proto = require('../proto/generate');
const gatewayModules = require('./gateway-modules');
const monolithServices = require('./monolith-services');
const deploy = require('./deploy-files');

const camel = (s) => s.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const pascal = (s) => camel(s).replace(/^./, (c) => c.toUpperCase());
const snake = (s) => s.replace(/-/g, '_');

function templates(name, port) {
  const C = camel(name);
  const P = pascal(name);
  const S = snake(name);
  const U = S.toUpperCase();
  const contracts = `${camel(name)}V1`;
  const events = `${camel(name)}EventsV1`;
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
    [`proto/bindery/events/${S}/v1/events.proto`]: `syntax = "proto3";

package bindery.events.${S}.v1;

// Payloads of the events ${name} publishes on topic \`bindery.${name}.v1\`, in the envelope of
// libs/platform/events. Types are \`${S}.<noun>.<verb>\`; the key is the aggregate id.

// ${S}.note.recorded
message NoteRecorded {
  string note_id = 1;
  string subject = 2;
  string text = 3;
}
`,
    [`libs/${name}/domain/src/index.ts`]: `/** ${P}'s business rules: pure functions and types, no I/O. */
export function describeCaller(service: string, userId: string): { service: string; callerUserId: string } {
  return { service, callerUserId: userId };
}

/** A note: one fact ${name} keeps about a subject (the skeleton's one kind of record). */
export interface NoteRecord {
  _id: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** The note recorded when identity creates a user (one per user: its id is the user's). */
export function noteOfNewUser(userId: string, email: string, at: string): NoteRecord {
  return { _id: \`user:\${userId}\`, subject: userId, text: \`user \${email} created\`, createdAt: at };
}
`,
    [`libs/${name}/data-access/src/indexes.ts`]: `import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  notes: 'notes',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.notes];

/** One index per query path. */
export const ${U}_INDEXES: IndexPlan = {
  [COLLECTIONS.notes]: [{ key: { subject: 1, createdAt: 1 }, name: 'subject_created' }, OUTBOX_INDEX],
};
`,
    [`libs/${name}/data-access/src/notes.repository.ts`]: `import { ClientSession, Db } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { NoteRecord } from '@bindery/${name}/domain';
import { COLLECTIONS } from './indexes';

/** Notes; a note is written once with its events (the outbox relays them) and never changed. */
export class NotesRepository extends Repository<NoteRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.notes, eventsRecorded);
  }

  insert(record: NoteRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  get(id: string) {
    return this.findOne({ _id: id });
  }

  /** The notes of a subject, oldest first. */
  ofSubject(subject: string, limit = 100) {
    return this.findMany({ subject }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  countOf(subject: string) {
    return this.countWhere({ subject });
  }
}
`,
    [`libs/${name}/data-access/src/index.ts`]: `export * from './indexes';
export * from './notes.repository';
`,
    [`libs/${name}/data-access/src/notes.repository.spec.ts`]: `import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { ensureIndexes, newMongoClient } from '@bindery/platform/mongo';
import { noteOfNewUser } from '@bindery/${name}/domain';
import { ${U}_INDEXES } from './indexes';
import { NotesRepository } from './notes.repository';

describe('notes repository (real replica set)', () => {
  const dbName = \`${S}_notes_\${randomBytes(4).toString('hex')}\`;
  let client: MongoClient;
  let notes: NotesRepository;
  let wakes = 0;

  beforeAll(async () => {
    client = await newMongoClient(process.env.BINDERY_TEST_MONGODB_URL!).connect();
    await ensureIndexes(client.db(dbName), ${U}_INDEXES);
    notes = new NotesRepository(client.db(dbName), () => wakes++);
  });
  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });

  test('a note is stored and read back by id and by subject', async () => {
    const note = noteOfNewUser('u1', 'a@example.com', '2026-01-01T00:00:00.000Z');
    await notes.insert(note, []);
    expect(await notes.get(note._id)).toEqual(note);
    expect(await notes.ofSubject('u1')).toEqual([note]);
    expect(await notes.countOf('u1')).toBe(1);
    expect(await notes.countOf('u2')).toBe(0);
    // Without events the outbox relay is not woken.
    expect(wakes).toBe(0);
  });
});
`,
    [`libs/${name}/data-access/jest.config.cjs`]: `module.exports = require('../../../jest.infra.cjs')({
  displayName: '${name}-data-access',
  rootDir: __dirname,
});
`,
    [`libs/${name}/feature-grpc/src/${name}-server.ts`]: `import { IdentityEvents } from '@bindery/identity/client';
import { ${P}Events } from '@bindery/${name}/client';
import { NotesRepository, OUTBOX_COLLECTIONS, ${U}_INDEXES } from '@bindery/${name}/data-access';
import { describeCaller, noteOfNewUser } from '@bindery/${name}/domain';
import { eventHandlers, EventHandlers, on } from '@bindery/platform/events';
import { grpcService } from '@bindery/platform/grpc';
import { Db, sessionOf } from '@bindery/platform/mongo';
import { RunStore } from '@bindery/platform/runs';
import { defineService } from '@bindery/platform/service-runtime';
import { ${contracts} as pb } from '@bindery/shared/contracts';
import { ${C}Runs } from './${name}-runs';

export interface ${P}Deps {
  db: Db;
  notes: NotesRepository;
  runs: RunStore;
}

/** What ${name} does with identity's events: each write passes the consumer's session (applied once). */
export function identityHandlers(deps: ${P}Deps): EventHandlers {
  return eventHandlers(
    on(IdentityEvents.userCreated, async (d, _e, ctx) => {
      const note = noteOfNewUser(d.userId, d.email, new Date().toISOString());
      const recorded = ${P}Events.noteRecorded.create('${name}', note._id, { noteId: note._id, subject: note.subject, text: note.text });
      await deps.notes.insert(note, [recorded], sessionOf(ctx));
    }),
  );
}

/** ${P}: its settings, database, gRPC services, event consumers and runs. */
export const ${C}Service = defineService({
  name: '${name}',
  settings: {},
  indexes: ${U}_INDEXES,
  outboxCollections: OUTBOX_COLLECTIONS,
  deps: ({ db, eventsRecorded, runs }): ${P}Deps => ({ db, notes: new NotesRepository(db, eventsRecorded), runs }),
  grpc: () => [
    grpcService(pb.${P}ServiceService, {
      async ping(_req, ctx) {
        return describeCaller('${name}', ctx.caller.userId);
      },
    }),
  ],
  consumers: (deps) => ({ '${name}.identity': { from: ['identity'], handlers: identityHandlers(deps) } }),
  runs: (deps) => ${C}Runs(deps),
});
`,
    [`libs/${name}/feature-grpc/src/${name}-runs.ts`]: `import type { NotesRepository } from '@bindery/${name}/data-access';
import type { ServiceRuns } from '@bindery/platform/service-runtime';

/** The kinds of ${name}'s runs. */
export const ${U}_RUNS = {
  /** counts the notes of subjects: input \`{subjects}\`, result \`{subjects, notes}\` */
  example: '${name}.example',
} as const;

/** ${P}'s run handlers (a run is enqueued with \`deps.runs.enqueue\`, in the transaction of the write asking for it). */
export function ${C}Runs(deps: { notes: NotesRepository }): ServiceRuns {
  return {
    handlers: {
      [${U}_RUNS.example]: async (input, ctx) => {
        const subjects = (input['subjects'] as string[] | undefined) ?? [];
        let notes = 0;
        for (const [i, subject] of subjects.entries()) {
          ctx.signal.throwIfAborted();
          notes += await deps.notes.countOf(subject);
          await ctx.progress({ done: i + 1, total: subjects.length, message: 'subjects counted' });
        }
        return { subjects: subjects.length, notes };
      },
    },
  };
}
`,
    [`libs/${name}/feature-grpc/src/index.ts`]: `export * from './${name}-server';
export * from './${name}-runs';
`,
    [`libs/${name}/feature-grpc/src/${name}.service.spec.ts`]: `import { IdentityEvents } from '@bindery/identity/client';
import { connect${P} } from '@bindery/${name}/client';
import { FAST_RUN_SETTINGS, startServiceUnderTest, ServiceUnderTest, waitForRun } from '@bindery/shared/testing';
import { ${U}_RUNS } from './${name}-runs';
import { ${P}Deps, ${C}Service, identityHandlers } from './${name}-server';

describe('${name} service (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<${P}Deps>;
  let clients: ReturnType<typeof connect${P}>;

  beforeAll(async () => {
    service = await startServiceUnderTest(${C}Service, FAST_RUN_SETTINGS);
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

  test('a user created in identity is noted, and a run counts the notes with its progress', async () => {
    const { notes, runs, db } = service.running.deps;
    const handlers = identityHandlers(service.running.deps);
    await handlers[IdentityEvents.userCreated.type](IdentityEvents.userCreated.create('identity', 'u2', { userId: 'u2', email: 'u2@example.com' }));
    expect(await notes.ofSubject('u2')).toMatchObject([{ subject: 'u2', text: 'user u2@example.com created' }]);

    const { run } = await runs.enqueue({ kind: ${U}_RUNS.example, input: { subjects: ['u2', 'nobody'] } });
    const done = await waitForRun(db, run._id, 'completed');
    expect(done.result).toEqual({ subjects: 2, notes: 1 });
    expect(done.progress).toMatchObject({ done: 2, total: 2 });
  });
});
`,
    [`libs/${name}/feature-grpc/jest.config.cjs`]: `module.exports = require('../../../jest.infra.cjs')({
  displayName: '${name}-feature-grpc',
  rootDir: __dirname,
});
`,
    [`libs/${name}/client/src/${name}-client.ts`]: `import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { ${contracts} } from '@bindery/shared/contracts';

const SERVICES = { ${C}: ${contracts}.${P}ServiceService };

/** Typed clients of ${name}'s gRPC services (deadline and signed caller on each call). */
export const connect${P} = clientSet(SERVICES);
export type ${P}Clients = ClientsOf<typeof SERVICES>;
`,
    [`libs/${name}/client/src/${name}-events.ts`]: `import { defineEvent } from '@bindery/platform/events';
import { ${events} as ev } from '@bindery/shared/contracts';

/**
 * Every event ${name} publishes (topic bindery.${name}.v1), each type paired with its payload message
 * from proto/bindery/events/${S}/v1 once: producers create and consumers decode through these definitions.
 */
export const ${P}Events = {
  noteRecorded: defineEvent('${S}.note.recorded', ev.NoteRecorded),
};
`,
    [`libs/${name}/client/src/index.ts`]: `export * from './${name}-client';
export * from './${name}-events';
`,
    [`libs/gateway/${name}-routes/src/index.ts`]: `import { defineGatewayModule, RouteSpec, servicePingRoute } from '@bindery/gateway/http';
import { connect${P}, ${P}Clients } from '@bindery/${name}/client';

/** ${P}'s routes. */
export function ${C}Routes(clients: ${P}Clients): RouteSpec[] {
  return [servicePingRoute('${name}', (req, call) => clients.${C}.ping(req, call))];
}

export const ${C}Gateway = defineGatewayModule({ service: '${name}', connect: connect${P}, routes: ${C}Routes });
`,
    [`apps/gateway-e2e/src/${name}.e2e.spec.ts`]: `import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('${name} through the gateway', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity', '${name}'] });
  });
  afterAll(() => sut?.stop());

  it('answers GET /admin/services/${name} with the caller it saw', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const r = await admin.get('/admin/services/${name}');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ service: '${name}', callerUserId: expect.any(String) });
  });
});
`,
  };
}

function main() {
  const args = process.argv.slice(2);
  const name = args[0];
  if (!name || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new Error('usage: service.js <kebab-case-name> [--port <port>]');
  if (fs.existsSync(path.join(root, 'apps', name))) throw new Error(`apps/${name} exists`);
  if (fs.existsSync(path.join(root, 'apps/gateway-e2e/src', `${name}.e2e.spec.ts`))) throw new Error(`apps/gateway-e2e/src/${name}.e2e.spec.ts exists`);
  const portArg = args.indexOf('--port');
  const port = portArg >= 0 ? Number(args[portArg + 1]) : Math.max(25050, ...grpcServices().map((m) => m.port)) + 1;

  createApp(name, name);
  createLib(name, 'domain', 'domain');
  createLib(name, 'data-access', 'data-access');
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
  monolithServices.write();
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'apps', name, 'service.json'), 'utf8'));
  for (const [file, content] of Object.entries(deploy.deployFiles(manifest))) write(path.join(root, file), content);
  deploy.addToAggregate(name);
  deploy.addToGateway(manifest);
  deploy.addToMonolith(manifest);
  console.log(`created ${name} on port ${port}: npm start runs it; GET /admin/services/${name} reaches it through the gateway`);
}

main();
