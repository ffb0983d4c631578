import { randomBytes } from 'node:crypto';
import { connectMongo } from '@bindery/platform/mongo';
import { AppProcess, startApp } from './processes';
import { freePorts } from './ports';

/** A private Bindery (identity + gateway) on fresh ports, a fresh database and its own Kafka namespace. */
export interface SystemUnderTest {
  baseUrl: string;
  adminToken: string;
  identityPort: number;
  apps: { identity: AppProcess; gateway: AppProcess };
  env: Record<string, string>;
  restartIdentity(): Promise<void>;
  /**
   * Starts another replica of identity on the same database and Kafka namespace, with a gateway of
   * its own in front of it; answers that gateway's URL. Both are stopped with the system.
   */
  addIdentityReplica(): Promise<string>;
  stopIdentity(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export function infraEnv(): { MONGODB_URL: string; KAFKA_BROKERS: string } {
  const MONGODB_URL = process.env.BINDERY_TEST_MONGODB_URL;
  const KAFKA_BROKERS = process.env.BINDERY_TEST_KAFKA_BROKERS;
  if (!MONGODB_URL || !KAFKA_BROKERS) throw new Error('the test infrastructure is not up (run through npm test or jest with the infra preset)');
  return { MONGODB_URL, KAFKA_BROKERS };
}

export async function startSystem(extraEnv: Record<string, string> = {}): Promise<SystemUnderTest> {
  const run = randomBytes(4).toString('hex');
  const [identityPort, gatewayPort] = await freePorts(2);
  const adminToken = `test-admin-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    ...infraEnv(),
    KAFKA_NAMESPACE: `t${run}.`,
    IDENTITY_DB: `e2e_identity_${run}`,
    IDENTITY_GRPC_PORT: String(identityPort),
    IDENTITY_GRPC_URL: `127.0.0.1:${identityPort}`,
    PORT: String(gatewayPort),
    BINDERY_ADMIN_TOKEN: adminToken,
    BINDERY_INTERNAL_SECRET: randomBytes(32).toString('hex'),
    BINDERY_ADMIN_EMAIL: `admin-${run}@bindery.test`,
    AUTH_CACHE_TTL_MS: '1000',
    OUTBOX_POLL_MS: '100',
    ...extraEnv,
  };
  const identity = await startApp('identity', identityPort, env);
  const gateway = await startApp('gateway', gatewayPort, env);
  const replicas: AppProcess[] = [];
  const sut: SystemUnderTest = {
    baseUrl: `http://127.0.0.1:${gatewayPort}`,
    adminToken,
    identityPort,
    apps: { identity, gateway },
    env,
    async stopIdentity(signal) {
      await sut.apps.identity.stop(signal);
    },
    async restartIdentity() {
      sut.apps.identity = await startApp('identity', identityPort, env);
    },
    async addIdentityReplica() {
      const [grpcPort, httpPort] = await freePorts(2);
      const replicaEnv = { ...env, IDENTITY_GRPC_PORT: String(grpcPort), IDENTITY_GRPC_URL: `127.0.0.1:${grpcPort}`, PORT: String(httpPort) };
      replicas.push(await startApp('identity', grpcPort, replicaEnv));
      replicas.push(await startApp('gateway', httpPort, replicaEnv));
      return `http://127.0.0.1:${httpPort}`;
    },
    async stop() {
      await Promise.all([sut.apps.gateway.stop(), ...replicas.filter((r) => r.name === 'gateway').map((r) => r.stop())]);
      await Promise.all([sut.apps.identity.stop(), ...replicas.filter((r) => r.name === 'identity').map((r) => r.stop())]);
      // Each run's database is its own; leave nothing behind on the shared local server.
      const mongo = await connectMongo(env.MONGODB_URL, env.IDENTITY_DB, 'tests');
      try {
        await mongo.db.dropDatabase();
      } finally {
        await mongo.close();
      }
    },
  };
  return sut;
}
