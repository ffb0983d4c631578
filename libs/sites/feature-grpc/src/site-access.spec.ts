import { siteCaller } from '@bindery/platform/grpc';
import type { SiteRecord } from '@bindery/sites/domain';
import { orgSitePermissions, visibleSite } from './site-access';
import type { SitesDeps } from './sites-deps';

const SITE = { _id: 's1', organizationId: 'o1' } as SiteRecord;
const OTHER = { _id: 's2', organizationId: 'o1' } as SiteRecord;

/** Deps whose organization roles say the site token's user id is an admin: they must not be asked. */
function deps(): Pick<SitesDeps, 'access' | 'sites'> & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    access: {
      accessOf: async (_org: string, userId: string) => {
        asked.push(userId);
        return { role: 'admin', teams: [] };
      },
    } as unknown as SitesDeps['access'],
    sites: { get: async (org: string, id: string) => [SITE, OTHER].find((s) => s.organizationId === org && s._id === id) ?? null } as unknown as SitesDeps['sites'],
  };
}

describe('a site token caller on sites', () => {
  const caller = siteCaller({ organizationId: 'o1', siteId: 's1', spaceIds: ['sp1'], tokenId: 't1' });

  it('reads its own site, with view only', async () => {
    const d = deps();
    await expect(visibleSite(d, caller, 'o1', 's1')).resolves.toEqual({ site: SITE, permissions: { view: true, edit: false, publish: false, admin: false } });
    expect(d.asked).toEqual([]);
  });

  it('may not change it (403), and no other site or organization is there for it (404)', async () => {
    const d = deps();
    for (const action of ['edit', 'publish', 'admin'] as const) await expect(visibleSite(d, caller, 'o1', 's1', action)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(visibleSite(d, caller, 'o1', 's2')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(visibleSite(d, caller, 'o2', 's1')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(orgSitePermissions(d, caller, 'o1')).rejects.toMatchObject({ kind: 'not_found' });
    expect(d.asked).toEqual([]);
  });
});
