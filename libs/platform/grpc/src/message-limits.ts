import type { ChannelOptions } from '@grpc/grpc-js';

/**
 * The largest message a process sends and accepts over gRPC, on its servers and its clients alike.
 * Set once at start from the validated settings GRPC_MAX_SEND_MESSAGE_BYTES and
 * GRPC_MAX_RECEIVE_MESSAGE_BYTES (libs/platform/config, docs/configuration.md); the values here are
 * the same defaults, for processes (tests, tools) that do not load the settings.
 */
export interface MessageLimits {
  maxSendBytes: number;
  maxReceiveBytes: number;
}

export const DEFAULT_MESSAGE_LIMITS: MessageLimits = { maxSendBytes: 64 * 1024 * 1024, maxReceiveBytes: 64 * 1024 * 1024 };

let limits: MessageLimits = { ...DEFAULT_MESSAGE_LIMITS };

/** Called by the service runtime and the gateway before they open servers or channels. */
export function setMessageLimits(next: MessageLimits): void {
  limits = { ...next };
}

export function messageLimits(): MessageLimits {
  return { ...limits };
}

/** The channel (client) and server options that carry the limits. */
export function messageLimitOptions(): ChannelOptions {
  return { 'grpc.max_send_message_length': limits.maxSendBytes, 'grpc.max_receive_message_length': limits.maxReceiveBytes };
}
