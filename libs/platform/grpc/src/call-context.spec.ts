import { Metadata } from '@grpc/grpc-js';
import { callerFromMetadata, callerToMetadata } from './call-context';

describe('caller metadata', () => {
  const original = process.env.BINDERY_INTERNAL_SECRET;
  afterEach(() => {
    if (original === undefined) delete process.env.BINDERY_INTERNAL_SECRET;
    else process.env.BINDERY_INTERNAL_SECRET = original;
  });

  it('round-trips the caller', () => {
    delete process.env.BINDERY_INTERNAL_SECRET;
    expect(callerFromMetadata(callerToMetadata({ userId: 'u1', isInstanceAdmin: true }))).toEqual({ userId: 'u1', isInstanceAdmin: true });
    expect(callerFromMetadata(new Metadata())).toBeUndefined();
  });

  it('with a secret, accepts only callers signed with it', () => {
    process.env.BINDERY_INTERNAL_SECRET = 'a'.repeat(40);
    const signed = callerToMetadata({ userId: 'u1', isInstanceAdmin: false });
    expect(callerFromMetadata(signed)).toEqual({ userId: 'u1', isInstanceAdmin: false });

    // Promoting oneself by editing the metadata breaks the signature.
    const forged = callerToMetadata({ userId: 'u1', isInstanceAdmin: false });
    forged.set('x-bindery-instance-admin', 'true');
    expect(callerFromMetadata(forged)).toBeUndefined();

    const unsigned = new Metadata();
    unsigned.set('x-bindery-user-id', 'u1');
    expect(callerFromMetadata(unsigned)).toBeUndefined();

    process.env.BINDERY_INTERNAL_SECRET = 'b'.repeat(40);
    expect(callerFromMetadata(signed)).toBeUndefined();
  });
});
