// The launcher of the end-to-end test systems, for the benches written in JavaScript (bindery.js
// bundles this file): every app with a manifest, on fresh ports, databases and Kafka namespace.
export { startSystem } from '@bindery/shared/testing';
export type { SystemUnderTest, SystemOptions } from '@bindery/shared/testing';
