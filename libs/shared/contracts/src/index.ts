// The generated gRPC and event contracts (see tools/proto/generate.js); never edited by hand.
export * from './generated/grpc/health/v1/health';
export * from './generated/bindery/common/v1/common';
export * as identityV1 from './generated/bindery/identity/v1/identity';
export * as identityEventsV1 from './generated/bindery/events/identity/v1/events';
