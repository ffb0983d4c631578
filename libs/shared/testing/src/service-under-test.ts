import { randomBytes } from 'node:crypto';
import type { Schema } from '@bindery/platform/config';
import { connectMongo } from '@bindery/platform/mongo';
import { loadServiceConfig, RunningService, ServiceDescriptor, ServiceManifest, startService } from '@bindery/platform/service-runtime';
import { infraEnv } from './system-under-test';

export interface ServiceUnderTest<D> {
  /** where the service's gRPC services listen (127.0.0.1:<port>) */
  address: string;
  running: RunningService<D>;
  stop(): Promise<void>;
}

/**
 * The service tier of the tests: one service in this process, on a free port, against the real
 * replica set and broker, with a fresh database and Kafka namespace (dropped again by `stop`).
 */
export async function startServiceUnderTest<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, settings: Record<string, string> = {}): Promise<ServiceUnderTest<D>> {
  const run = randomBytes(4).toString('hex');
  const manifest: ServiceManifest = { name: descriptor.name, kind: 'grpc', port: 0, database: `svc_${descriptor.name.replace(/-/g, '_')}_${run}` };
  const env = { ...infraEnv(), KAFKA_NAMESPACE: `s${run}.`, LOG_LEVEL: 'warn', ...settings };
  const config = loadServiceConfig(descriptor, manifest, env);
  const running = await startService(descriptor, config);
  return {
    address: `127.0.0.1:${running.port}`,
    running,
    async stop() {
      await running.stop();
      const mongo = await connectMongo(env.MONGODB_URL, config.database, 'tests');
      try {
        await mongo.db.dropDatabase();
      } finally {
        await mongo.close();
      }
    },
  };
}
