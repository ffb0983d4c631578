import { DomainError } from '@bindery/platform/errors';
import { siteTokenAuthenticator } from './site-token-authentication';

describe('site token authentication at the gateway', () => {
  it("asks sites without a caller and answers the token's scope as a site caller", async () => {
    const calls: unknown[] = [];
    const published = {
      authenticateSiteToken: async (req: { token: string }, options?: unknown) => {
        calls.push([req, options]);
        return { organizationId: 'o1', siteId: 's1', spaceIds: ['sp1', 'sp2'], tokenId: 't1' };
      },
    };
    const resolve = siteTokenAuthenticator({ published } as never);
    expect(await resolve('bsite_x.y')).toEqual({
      userId: 'site:t1',
      isInstanceAdmin: false,
      site: { organizationId: 'o1', siteId: 's1', spaceIds: ['sp1', 'sp2'], tokenId: 't1' },
    });
    expect(calls).toEqual([[{ token: 'bsite_x.y' }, undefined]]);
  });

  it('passes the refusal on', async () => {
    const published = {
      authenticateSiteToken: async () => {
        throw new DomainError('unauthenticated', 'The site token is not valid.');
      },
    };
    await expect(siteTokenAuthenticator({ published } as never)('bsite_x.y')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
