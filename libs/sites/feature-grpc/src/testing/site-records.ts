import type { SiteRecord } from '@bindery/sites/domain';

/** A public basic site as its repository stores it: published, no site spaces; `fields` over that. */
export function basicSiteRecord(organizationId: string, siteId: string, at: string, fields: Partial<SiteRecord> = {}): SiteRecord {
  return {
    _id: siteId,
    organizationId,
    type: 'basic',
    title: 'Docs',
    basename: siteId,
    visibility: 'public',
    published: true,
    agentsContext: 'included',
    siteSpaces: 0,
    createdAt: at,
    updatedAt: at,
    structureVersion: 0,
    ...fields,
  };
}
