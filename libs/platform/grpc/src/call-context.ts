import { Metadata } from '@grpc/grpc-js';

/** Who is calling: set by the gateway from the authenticated token, carried in call metadata. */
export interface Caller {
  userId: string;
  isInstanceAdmin: boolean;
}

export interface CallContext {
  caller?: Caller;
}

const USER = 'x-bindery-user-id';
const INSTANCE_ADMIN = 'x-bindery-instance-admin';

export function callerToMetadata(caller: Caller | undefined, metadata = new Metadata()): Metadata {
  if (caller) {
    metadata.set(USER, caller.userId);
    if (caller.isInstanceAdmin) metadata.set(INSTANCE_ADMIN, 'true');
  }
  return metadata;
}

export function callerFromMetadata(metadata: Metadata): Caller | undefined {
  const [userId] = metadata.get(USER);
  if (typeof userId !== 'string' || !userId) return undefined;
  return { userId, isInstanceAdmin: metadata.get(INSTANCE_ADMIN)[0] === 'true' };
}
