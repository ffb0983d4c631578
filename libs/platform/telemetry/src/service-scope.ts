import { AsyncLocalStorage } from 'node:async_hooks';

const SCOPE = Symbol.for('bindery.hostedService');

/**
 * The service a piece of work belongs to, where one process hosts several (apps/bindery). One store
 * per process, shared by the telemetry preload and the app's bundle (each has its own copy of this
 * module), through a global.
 */
export function hostedServiceScope(): AsyncLocalStorage<string> {
  const holder = globalThis as { [SCOPE]?: AsyncLocalStorage<string> };
  return (holder[SCOPE] ??= new AsyncLocalStorage<string>());
}
