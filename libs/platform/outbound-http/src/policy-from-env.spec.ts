import { OUTBOUND_ALLOW_PRIVATE_ENV, outboundPolicyFromEnv } from './policy-from-env';

describe('outboundPolicyFromEnv', () => {
  it('defaults to refusing private addresses when the variable is unset or empty', () => {
    expect(outboundPolicyFromEnv({})).toEqual({ allowPrivate: false });
    expect(outboundPolicyFromEnv({ [OUTBOUND_ALLOW_PRIVATE_ENV]: '' })).toEqual({ allowPrivate: false });
  });

  it('reads "true" and "false"', () => {
    expect(outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true' })).toEqual({ allowPrivate: true });
    expect(outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'false' })).toEqual({ allowPrivate: false });
  });

  it.each(['1', 'yes', 'TRUE', ' true', 'ture', '0'])('rejects %j with an error naming the variable', (value) => {
    const read = (): unknown => outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: value });
    expect(read).toThrow(Error);
    expect(read).toThrow(/BINDERY_OUTBOUND_ALLOW_PRIVATE/);
  });

  it('does not echo a rejected value, which may be a misplaced secret', () => {
    const read = (): unknown => outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'sk-live-4242' });
    expect(read).toThrow(/BINDERY_OUTBOUND_ALLOW_PRIVATE/);
    expect(read).not.toThrow(/sk-live-4242/);
  });

  it('uses process.env by default', () => {
    const previous = process.env[OUTBOUND_ALLOW_PRIVATE_ENV];
    try {
      process.env[OUTBOUND_ALLOW_PRIVATE_ENV] = 'true';
      expect(outboundPolicyFromEnv()).toEqual({ allowPrivate: true });
    } finally {
      if (previous === undefined) delete process.env[OUTBOUND_ALLOW_PRIVATE_ENV];
      else process.env[OUTBOUND_ALLOW_PRIVATE_ENV] = previous;
    }
  });
});
