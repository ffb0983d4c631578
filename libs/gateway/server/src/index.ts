/** The gateway as a startable server: its settings, every service module's routes, and stopping (docs/gateway.md). */
export * from './service-modules';
export * from './route-table';
export * from './start-gateway';
