import { randomBytes } from 'node:crypto';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import type { Caller } from '@bindery/platform/grpc';
import { Role } from '@bindery/shared/roles';
import { connectSites } from '@bindery/sites/client';
import { COLLECTIONS } from '@bindery/sites/data-access';
import type { ShareLinkRecord, SiteRecord } from '@bindery/sites/domain';
import { sitesServiceWith } from '../sites-server';
import type { SitesDeps } from '../sites-deps';
import { basicSiteRecord } from './site-records';
import { SpacesStandIn } from './spaces-stand-in';

export const hex = () => randomBytes(4).toString('hex');

/** The service tier's starter (startServiceUnderTest of shared/testing, which only spec files import). */
export type StartService = (
  descriptor: ReturnType<typeof sitesServiceWith>,
  settings: Record<string, string>,
) => Promise<{ address: string; running: { deps: SitesDeps }; stop(): Promise<void> }>;

/**
 * Sites in this process against the real replica set and broker, with content held in memory and
 * identity's member events fed by the test; sites are inserted as records (creating them is
 * another part of the service).
 */
export async function startSites(start: StartService, settings: Record<string, string> = {}) {
  const content = new SpacesStandIn();
  const service = await start(sitesServiceWith({ accessSource: identityStandIn, connectContent: () => content.clients() }), settings);
  const clients = connectSites(service.address, 20000);
  const deps = service.running.deps;

  /** A user with the role in the organization (a member of content's organization too). */
  async function member(organizationId: string, role: Role, userId = `u-${role}-${hex()}`): Promise<Caller> {
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId, userId, role }, organizationId));
    content.addMember(organizationId, userId);
    return { userId, isInstanceAdmin: false };
  }

  /** A site of the organization, stored as it is after its creation (no structure yet). */
  async function site(organizationId: string, fields: Partial<SiteRecord> = {}): Promise<SiteRecord> {
    const id = `site-${hex()}`;
    const at = new Date().toISOString();
    const record = basicSiteRecord(organizationId, id, at, { title: 'Docs site', published: false, ...fields });
    await deps.sites.insert(record, []);
    return record;
  }

  async function shareLink(organizationId: string, siteId: string, active = true): Promise<string> {
    const key = `key-${hex()}${hex()}`;
    const at = new Date().toISOString();
    const link: ShareLinkRecord = { _id: `link-${hex()}`, organizationId, siteId, name: 'link', active, key, createdAt: at, updatedAt: at };
    await deps.db.collection<ShareLinkRecord>(COLLECTIONS.shareLinks).insertOne(link);
    return key;
  }

  return {
    service,
    clients,
    deps,
    content,
    member,
    site,
    shareLink,
    async stop() {
      clients.close();
      await service.stop();
    },
  };
}

export type SitesHarness = Awaited<ReturnType<typeof startSites>>;
