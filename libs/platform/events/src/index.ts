export * from './envelope';
export * from './outbox';
export * from './kafka';
export * from './relay';
export * from './consumer';
export type { Consumer, Producer } from 'kafkajs';
export * from './catalogue';
export * from './consumer-liveness';
