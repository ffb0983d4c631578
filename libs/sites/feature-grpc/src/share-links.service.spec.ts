import { randomBytes } from 'node:crypto';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { connectSites } from '@bindery/sites/client';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import type { SitesDeps } from './sites-deps';
import { sitesServiceWith } from './sites-server';
import { ContentStandIn } from './testing/content-stand-in';

const org = `org-${randomBytes(3).toString('hex')}`;
const who = (role: string) => ({ caller: { userId: `${role}-${org}`, isInstanceAdmin: false } });
const keyOf = (url: string) => decodeURIComponent(url.split('/~share/')[1]);

describe('share links (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;
  let siteId: string;

  beforeAll(async () => {
    const content = new ContentStandIn();
    service = await startServiceUnderTest(sitesServiceWith({ accessSource: identityStandIn, connectContent: () => content.clients() }), {
      BINDERY_READER_URL: 'http://reader.test',
    });
    clients = connectSites(service.address, 10000);
    for (const role of ['admin', 'create', 'read']) {
      const userId = `${role}-${org}`;
      await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role }, org));
    }
    siteId = (await clients.sites.createSite({ organizationId: org, title: 'Private docs', visibility: 'share-link', spaceIds: [] }, who('admin'))).id;
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const list = (role: string) => clients.shareLinks.listShareLinks({ organizationId: org, siteId, page: { page: '', limit: 0 } }, who(role));

  test('an admin creates a link whose URL carries a fresh key; others see its name, never the key', async () => {
    const link = await clients.shareLinks.createShareLink({ organizationId: org, siteId, name: 'Partners' }, who('admin'));
    expect(link).toMatchObject({
      name: 'Partners',
      active: true,
      publishedUrl: expect.stringMatching(/^http:\/\/reader\.test\/[^/]+\/private-docs\/~share\/bshare_[A-Za-z0-9_-]{43}$/),
    });
    const other = await clients.shareLinks.createShareLink({ organizationId: org, siteId, name: '' }, who('admin'));
    expect(keyOf(other.publishedUrl!)).not.toBe(keyOf(link.publishedUrl!));
    await expect(clients.shareLinks.createShareLink({ organizationId: org, siteId, name: 'Mine' }, who('create'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.shareLinks.createShareLink({ organizationId: org, siteId, name: 'x'.repeat(51) }, who('admin'))).rejects.toMatchObject({ kind: 'invalid' });

    expect((await list('admin')).items.map((l) => l.publishedUrl)).toEqual([link.publishedUrl, other.publishedUrl]);
    const asReader = await list('read');
    expect(asReader.items.map((l) => [l.name, l.publishedUrl])).toEqual([
      ['Partners', undefined],
      ['', undefined],
    ]);
    expect(JSON.stringify(asReader)).not.toContain('bshare_');
  });

  test('deactivating or deleting a link closes its key at once; reactivating opens it again', async () => {
    const link = await clients.shareLinks.createShareLink({ organizationId: org, siteId, name: 'Temporary' }, who('admin'));
    const key = keyOf(link.publishedUrl!);
    const byKey = () => service.running.deps.shareLinks.activeShareLinkByKey(siteId, key);
    expect((await byKey())?._id).toBe(link.id);
    expect(await service.running.deps.shareLinks.activeShareLinkByKey('another-site', key)).toBeNull();

    const ref = { organizationId: org, siteId, shareLinkId: link.id };
    expect(await clients.shareLinks.updateShareLink({ ...ref, active: false }, who('admin'))).toMatchObject({ active: false, name: 'Temporary' });
    expect(await byKey()).toBeNull();
    expect(await clients.shareLinks.updateShareLink({ ...ref, active: true, name: 'Back' }, who('admin'))).toMatchObject({ active: true, name: 'Back' });
    expect((await byKey())?._id).toBe(link.id);
    await expect(clients.shareLinks.updateShareLink({ ...ref, active: false }, who('read'))).rejects.toMatchObject({ kind: 'forbidden' });

    expect(await clients.shareLinks.deleteShareLink(ref, who('admin'))).toEqual({ deleted: true });
    expect(await byKey()).toBeNull();
    expect(await clients.shareLinks.deleteShareLink(ref, who('admin'))).toEqual({ deleted: false });
    await expect(clients.shareLinks.updateShareLink({ ...ref, name: 'Gone' }, who('admin'))).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('links of a site the caller cannot see are not found', async () => {
    await expect(
      clients.shareLinks.listShareLinks({ organizationId: org, siteId, page: undefined }, { caller: { userId: 'stranger', isInstanceAdmin: false } }),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(clients.shareLinks.listShareLinks({ organizationId: org, siteId: 'no-such-site', page: undefined }, who('admin'))).rejects.toMatchObject({ kind: 'not_found' });
  });
});
