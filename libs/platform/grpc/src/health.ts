import { sendUnaryData, ServerUnaryCall, status } from '@grpc/grpc-js';
import { createPromiseClient, PromiseClient } from './client';
import { HealthClient, HealthCheckRequest, HealthCheckResponse, HealthCheckResponse_ServingStatus as ServingStatus, HealthServer } from '@bindery/shared/contracts';

/**
 * The standard grpc.health.v1 service. The overall status ("") reflects the checks the app
 * registers (its database, its broker), evaluated at most once a second.
 */
export function createHealthService(checks: Array<() => Promise<boolean>>): HealthServer {
  let cached: { at: number; serving: boolean } | undefined;
  async function serving(): Promise<boolean> {
    if (cached && Date.now() - cached.at < 1000) return cached.serving;
    const results = await Promise.all(checks.map((c) => c().catch(() => false)));
    cached = { at: Date.now(), serving: results.every(Boolean) };
    return cached.serving;
  }
  return {
    check(call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, callback: sendUnaryData<HealthCheckResponse>) {
      if (call.request.service !== '') {
        callback({ code: status.NOT_FOUND, details: 'unknown service' });
        return;
      }
      serving().then((ok) => callback(null, { status: ok ? ServingStatus.SERVING : ServingStatus.NOT_SERVING }));
    },
  };
}

/** Whether the service at `address` reports itself serving (its database and broker reachable). */
export function grpcHealth(address: string): () => Promise<boolean> {
  const health: PromiseClient<HealthServer> = createPromiseClient<HealthServer>(HealthClient, address, 2000);
  return async () => {
    try {
      const reply = await health.check({ service: '' });
      return reply.status === ServingStatus.SERVING;
    } catch {
      return false;
    }
  };
}
