import { randomBytes } from 'node:crypto';
import { connectMongo } from '@bindery/platform/mongo';
import { AppLaunch, AppProcess, startApp } from './processes';
import { freePorts } from './ports';
import { AppManifest, appManifests, envPrefix } from './manifests';

/**
 * A private Bindery on fresh ports: the gRPC services asked for (all by default) and the gateway,
 * each service with a fresh database, all on their own Kafka namespace. By default one process hosts
 * them all (the monolith, apps/bindery); with `split` each app is its own process, as deployed.
 */
export interface SystemUnderTest {
  baseUrl: string;
  adminToken: string;
  /** the running apps by name (`gateway` among them); in the monolith, every name is its one process */
  apps: Record<string, AppProcess>;
  /** each gRPC service's port by name */
  ports: Record<string, number>;
  identityPort: number;
  env: Record<string, string>;
  /** stops one app (SIGTERM unless told); split systems only */
  stopService(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** starts a stopped app again on its port; split systems only */
  restartService(name: string): Promise<void>;
  /**
   * Starts another replica of a service on the same database and Kafka namespace, with a gateway of
   * its own in front of it (one more process in a monolithic system, two in a split one); answers
   * that gateway's URL. They are stopped with the system.
   */
  addReplica(name: string): Promise<string>;
  restartIdentity(): Promise<void>;
  stopIdentity(signal?: NodeJS.Signals): Promise<void>;
  addIdentityReplica(): Promise<string>;
  stop(): Promise<void>;
}

export function infraEnv(): { MONGODB_URL: string; KAFKA_BROKERS: string } {
  const MONGODB_URL = process.env.BINDERY_TEST_MONGODB_URL;
  const KAFKA_BROKERS = process.env.BINDERY_TEST_KAFKA_BROKERS;
  if (!MONGODB_URL || !KAFKA_BROKERS) throw new Error('the test infrastructure is not up (run through npm test or jest with the infra preset)');
  return { MONGODB_URL, KAFKA_BROKERS };
}

export interface SystemOptions {
  /** the gRPC services to start (default: every app with a gRPC manifest) */
  services?: string[];
  /** the apps' own timings instead of the tests' short ones (TEST_TIMINGS): what the benchmarks measure */
  appDefaults?: boolean;
  /** how each app's node process is started */
  launch?: AppLaunch;
  /**
   * One process per app, as deployed, instead of the monolith: for tests that stop, kill or restart
   * one service, or measure one service's process. BINDERY_TEST_SPLIT=1 makes it the default, to run
   * any suite both ways.
   */
  split?: boolean;
  /** BINDERY_PUBLIC_URL is the gateway's own address (a browser signing in follows the URLs it builds) */
  publicUrlIsGateway?: boolean;
}

/**
 * A short token cache and search format check, so tests see their effects quickly. Outbox relays and run
 * workers keep their own slow sweeps: tests see events and runs through the change streams that wake them.
 */
const TEST_TIMINGS: Record<string, string> = {
  AUTH_CACHE_TTL_MS: '1000',
  SEARCH_FORMAT_CHECK_MS: '500',
};

export async function startSystem(extraEnv: Record<string, string> = {}, requested: SystemOptions = {}): Promise<SystemUnderTest> {
  const split = requested.split ?? process.env.BINDERY_TEST_SPLIT === '1';
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSystemOnce(extraEnv, { ...requested, split });
    } catch (err) {
      // The ports were free when chosen, but another process (an outgoing connection's local port)
      // may take one before the system binds it: the monolith then exits at once, and a new choice
      // of ports is tried. Split systems are not retried (apps started before the failure run on).
      if (split || attempt >= 3 || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

async function startSystemOnce(extraEnv: Record<string, string>, requested: SystemOptions): Promise<SystemUnderTest> {
  const options = { ...requested, split: requested.split ?? process.env.BINDERY_TEST_SPLIT === '1' };
  const run = randomBytes(4).toString('hex');
  const all = appManifests();
  const grpc = all.filter((m) => m.kind === 'grpc' && (!options.services || options.services.includes(m.name)));
  // The gateway always; another HTTP app (the reader) with every service, or when asked for by name.
  const http = all.filter((m) => m.kind === 'http' && (m.name === 'gateway' || !options.services || options.services.includes(m.name)));
  const ports = await freePorts(grpc.length + http.length);
  const port: Record<string, number> = Object.fromEntries([...grpc, ...http].map((m, i) => [m.name, ports[i]]));
  const adminToken = `test-admin-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    ...infraEnv(),
    KAFKA_NAMESPACE: `t${run}.`,
    BINDERY_ADMIN_TOKEN: adminToken,
    BINDERY_INTERNAL_SECRET: randomBytes(32).toString('hex'),
    BINDERY_ADMIN_EMAIL: `admin-${run}@bindery.test`,
    ...(options.appDefaults ? {} : TEST_TIMINGS),
    PORT: String(port.gateway),
    ...(options.publicUrlIsGateway ? { BINDERY_PUBLIC_URL: `http://127.0.0.1:${port.gateway}` } : {}),
  };
  // Other HTTP apps (the reader) listen on their own variable; sites publishes URLs at the reader's.
  for (const m of http) if (m.portVariable) env[m.portVariable] = String(port[m.name]);
  if (port.reader) env.BINDERY_READER_URL = `http://127.0.0.1:${port.reader}`;
  for (const m of grpc) {
    const p = envPrefix(m.name);
    env[`${p}_DB`] = `e2e_${testRunId()}_${m.name.replace(/-/g, '_')}_${run}`;
    env[`${p}_GRPC_PORT`] = String(port[m.name]);
    env[`${p}_GRPC_URL`] = `127.0.0.1:${port[m.name]}`;
  }
  // A service not started here is unreachable, never another system's (a local stack on default ports).
  for (const m of all.filter((x) => x.kind === 'grpc' && !grpc.includes(x))) env[`${envPrefix(m.name)}_GRPC_URL`] = '127.0.0.1:9';
  Object.assign(env, extraEnv);

  const apps: Record<string, AppProcess> = {};
  const replicas: AppProcess[] = [];
  if (options.split) await startSplit(grpc, http, port, env, apps, options.launch);
  else {
    const monolith = await startApp('bindery', port.gateway, { ...env, BINDERY_SERVICES: [...grpc, ...http].map((m) => m.name).join(',') }, undefined, options.launch);
    for (const m of [...grpc, ...http]) apps[m.name] = monolith;
  }
  const onlySplit = (what: string, name: string) => {
    if (!options.split) throw new Error(`cannot ${what} ${name} alone: the monolith hosts every app in one process (start the system with { split: true })`);
  };

  const sut: SystemUnderTest = {
    baseUrl: `http://127.0.0.1:${port.gateway}`,
    adminToken,
    apps,
    ports: Object.fromEntries(grpc.map((m) => [m.name, port[m.name]])),
    identityPort: port.identity,
    env,
    async stopService(name, signal) {
      onlySplit('stop', name);
      await apps[name].stop(signal);
    },
    async restartService(name) {
      onlySplit('restart', name);
      apps[name] = await startApp(name, port[name], env, undefined, options.launch);
    },
    async addReplica(name) {
      const [grpcPort, httpPort] = await freePorts(2);
      const p = envPrefix(name);
      const replicaEnv = { ...env, [`${p}_GRPC_PORT`]: String(grpcPort), [`${p}_GRPC_URL`]: `127.0.0.1:${grpcPort}`, PORT: String(httpPort) };
      if (options.split) {
        replicas.push(await startApp(name, grpcPort, replicaEnv, undefined, options.launch));
        replicas.push(await startApp('gateway', httpPort, replicaEnv, undefined, options.launch));
      } else replicas.push(await startApp('bindery', httpPort, { ...replicaEnv, BINDERY_SERVICES: `${name},gateway` }, undefined, options.launch));
      return `http://127.0.0.1:${httpPort}`;
    },
    restartIdentity: () => sut.restartService('identity'),
    stopIdentity: (signal) => sut.stopService('identity', signal),
    addIdentityReplica: () => sut.addReplica('identity'),
    async stop() {
      // Callers first, so no request is half way into a service that is going away (a monolith stops
      // its own gateway first; replicas, which call the system's other services, go before it).
      const isCaller = (a: AppProcess) => a.name === 'bindery' || http.some((m) => m.name === a.name);
      const everything = [...new Set([...replicas, ...Object.values(apps)])];
      const [callers, services] = [everything.filter(isCaller), everything.filter((a) => !isCaller(a))];
      if (options.split) await Promise.all(callers.map((a) => a.stop()));
      else for (const a of callers) await a.stop();
      await Promise.all(services.map((a) => a.stop()));
      // Each run's databases are its own; leave nothing behind on the shared local server.
      for (const m of grpc) {
        const mongo = await connectMongo(env.MONGODB_URL, env[`${envPrefix(m.name)}_DB`], 'tests');
        try {
          await mongo.db.dropDatabase();
        } finally {
          await mongo.close();
        }
      }
    },
  };
  return sut;
}

/** Each app its own process: services first, in parallel; the gateway, which calls them, last. */
async function startSplit(
  grpc: AppManifest[],
  http: AppManifest[],
  port: Record<string, number>,
  env: Record<string, string>,
  apps: Record<string, AppProcess>,
  launch?: AppLaunch,
) {
  try {
    // Every start is awaited before a failure is passed on, so none is left running behind it.
    const starts = await Promise.allSettled(grpc.map(async (m) => (apps[m.name] = await startApp(m.name, port[m.name], env, undefined, launch))));
    const failed = starts.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    for (const m of http) apps[m.name] = await startApp(m.name, port[m.name], env, undefined, launch);
  } catch (err) {
    await Promise.all(Object.values(apps).map((a) => a.stop()));
    throw err;
  }
}

/** The id of this Jest run (set by the global setup): its databases and processes carry it, so the teardown finds them. */
export function testRunId(): string {
  return process.env.BINDERY_TEST_RUN ?? 'adhoc';
}

const SHARED = Symbol.for('bindery.test.sharedSystem');

/**
 * One system per Jest worker, shared by every test file that runs there and needs nothing special
 * (no settings of its own, no stopping or restarting services). Files must not stop it: the global
 * teardown stops its processes and drops its databases when the run ends. Node's core modules are
 * the one object all test files of a worker share, so the system is kept on one of them — the module
 * itself, as `require` answers it: `import * as` would give each file its own copy of its exports
 * (and each file its own system).
 */
export function sharedSystem(): Promise<SystemUnderTest> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const anchor = require('node:child_process') as Record<symbol, Promise<SystemUnderTest> | undefined>;
  let system = anchor[SHARED];
  if (!system) {
    system = startSystem();
    anchor[SHARED] = system;
    system.catch(() => (anchor[SHARED] = undefined));
  }
  return system;
}
