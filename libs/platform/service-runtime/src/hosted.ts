import type { Schema } from '@bindery/platform/config';
import { loadServiceConfig, ServiceDescriptor, ServiceManifest, startService } from './descriptor';

/** A service one process can host beside others (apps/bindery): started from the environment, stopped on its own. */
export interface HostedService {
  name: string;
  start(env: NodeJS.ProcessEnv): Promise<{ port: number; stop(): Promise<void> }>;
}

/** A service's descriptor and manifest as the monolith hosts it: the same settings and start as its own app's. */
export function hostedService<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, manifest: ServiceManifest): HostedService {
  return { name: descriptor.name, start: (env) => startService(descriptor, loadServiceConfig(descriptor, manifest, env)) };
}
