import { startSystem, SystemUnderTest } from './system-under-test';

const SHARED_OUTBOUND = Symbol.for('bindery.test.sharedOutboundSystem');

/** The services of the shared system that reaches loopback: what git sync, website imports and webhooks need, and the published sites. */
export const OUTBOUND_SERVICES = ['identity', 'content', 'change-requests', 'git-sync', 'sites', 'reader', 'webhooks'];

/**
 * Like `sharedSystem()`, one system per Jest worker, but with the outbound guard letting requests reach
 * private addresses (BINDERY_OUTBOUND_ALLOW_PRIVATE), so that git sync and website imports reach the
 * test git server and test websites on loopback. For test files that need nothing else of their own:
 * no other setting, no stopping, restarting or added replica. Files must not stop it; the global
 * teardown does when the run ends. Kept on the same anchor as `sharedSystem()` (see there why).
 */
export function sharedOutboundSystem(): Promise<SystemUnderTest> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const anchor = require('node:child_process') as Record<symbol, Promise<SystemUnderTest> | undefined>;
  let system = anchor[SHARED_OUTBOUND];
  if (!system) {
    system = startSystem({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true' }, { services: OUTBOUND_SERVICES });
    anchor[SHARED_OUTBOUND] = system;
    system.catch(() => (anchor[SHARED_OUTBOUND] = undefined));
  }
  return system;
}
