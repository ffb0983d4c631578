import { assertMayClaimEmailDomains } from './organization-rules';

describe('claiming e-mail domains', () => {
  const ada = { email: 'ada@engines.example', isInstanceAdmin: false };

  it("lets an organization admin claim their own address's domain", () => {
    expect(() => assertMayClaimEmailDomains(['engines.example'], [], ada)).not.toThrow();
    expect(() => assertMayClaimEmailDomains([], [], ada)).not.toThrow();
  });

  it('refuses any other domain (403 naming it), a parent or sub-domain of their own included', () => {
    for (const domain of ['other.example', 'example', 'mail.engines.example']) {
      expect(() => assertMayClaimEmailDomains(['engines.example', domain], [], ada)).toThrow(
        expect.objectContaining({ kind: 'forbidden', message: expect.stringContaining(`"${domain}" is not the domain of your e-mail address`) }),
      );
    }
  });

  it('keeps domains the organization already has without a new claim', () => {
    expect(() => assertMayClaimEmailDomains(['approved.example'], ['approved.example', 'dropped.example'], ada)).not.toThrow();
    expect(() => assertMayClaimEmailDomains(['approved.example', 'new.example'], ['approved.example'], ada)).toThrow(expect.objectContaining({ kind: 'forbidden' }));
  });

  it('lets an instance administrator claim any domain', () => {
    expect(() => assertMayClaimEmailDomains(['any.example', 'other.example'], [], { email: 'root@bindery.local', isInstanceAdmin: true })).not.toThrow();
  });
});
