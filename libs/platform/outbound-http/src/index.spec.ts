import * as outbound from './index';

describe('@bindery/platform/outbound-http entry point', () => {
  it('exposes the public API through the import alias', () => {
    expect(typeof outbound.safeFetch).toBe('function');
    expect(typeof outbound.createSafeFetch).toBe('function');
    expect(outbound.isForbiddenAddress('10.1.2.3')).toBe(true);
    expect(outbound.outboundPolicyFromEnv({})).toEqual({ allowPrivate: false });
    expect(new outbound.OutboundAddressRefusedError('h', '127.0.0.1')).toBeInstanceOf(Error);
  });
});
