import { Metadata } from '@grpc/grpc-js';
import { callerFromMetadata, callerToMetadata, siteCaller } from './call-context';

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

  describe('a site caller', () => {
    const scope = { organizationId: 'org1', siteId: 'site1', spaceIds: ['sp1', 'sp2'], tokenId: 'tok1' };
    const siteValue = (md: Metadata) => md.get('x-bindery-site')[0] as string;

    it('round-trips with its scope, signed or not', () => {
      delete process.env.BINDERY_INTERNAL_SECRET;
      expect(callerFromMetadata(callerToMetadata(siteCaller(scope)))).toEqual({ userId: 'site:tok1', isInstanceAdmin: false, site: scope });
      process.env.BINDERY_INTERNAL_SECRET = 'a'.repeat(40);
      expect(callerFromMetadata(callerToMetadata(siteCaller(scope)))).toEqual({ userId: 'site:tok1', isInstanceAdmin: false, site: scope });
      const empty = siteCaller({ ...scope, spaceIds: [] });
      expect(callerFromMetadata(callerToMetadata(empty))).toEqual(empty);
    });

    it('with a secret, a scope changed, added or removed after signing is refused', () => {
      process.env.BINDERY_INTERNAL_SECRET = 'a'.repeat(40);
      // one more space
      const widened = callerToMetadata(siteCaller(scope));
      widened.set('x-bindery-site', `${siteValue(widened)},sp3`);
      expect(callerFromMetadata(widened)).toBeUndefined();
      // another organization
      const moved = callerToMetadata(siteCaller(scope));
      moved.set('x-bindery-site', siteValue(moved).replace('org1', 'org2'));
      expect(callerFromMetadata(moved)).toBeUndefined();
      // the scope dropped: the caller would no longer be limited to it
      const unscoped = callerToMetadata(siteCaller(scope));
      unscoped.remove('x-bindery-site');
      expect(callerFromMetadata(unscoped)).toBeUndefined();
      // a user's signed metadata given a scope it was not signed with
      const user = callerToMetadata({ userId: 'u1', isInstanceAdmin: false });
      user.set('x-bindery-site', 'org1;site1;tok1;sp1');
      expect(callerFromMetadata(user)).toBeUndefined();
    });

    it('refuses malformed scopes and a site caller claiming instance administration, even unsigned', () => {
      delete process.env.BINDERY_INTERNAL_SECRET;
      for (const bad of ['', 'org1;site1;tok1', 'org1;site1;tok1;sp1;x', 'org1;site1;tok1;sp 1', 'org1;;tok1;sp1', 'org1;site1;tok1;sp1,,sp2']) {
        const md = callerToMetadata({ userId: 'site:tok1', isInstanceAdmin: false });
        md.set('x-bindery-site', bad);
        expect(callerFromMetadata(md)).toBeUndefined();
      }
      const admin = callerToMetadata(siteCaller(scope));
      admin.set('x-bindery-instance-admin', 'true');
      expect(callerFromMetadata(admin)).toBeUndefined();
      const twice = callerToMetadata(siteCaller(scope));
      twice.add('x-bindery-site', 'org1;site1;tok1;sp9');
      expect(callerFromMetadata(twice)).toBeUndefined();
    });

    it('cannot be written with ids that are not URL-safe', () => {
      expect(() => callerToMetadata(siteCaller({ ...scope, spaceIds: ['a;b'] }))).toThrow();
    });
  });
});
