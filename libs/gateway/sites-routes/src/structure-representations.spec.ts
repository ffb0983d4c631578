import { assertMatchesSpec } from '@bindery/shared/testing';
import { contentV1, sitesStructureV1 as structure, sitesV1 as pb } from '@bindery/shared/contracts';
import { publishedSiteJson, structureItemJson, structureJson } from './structure-representations';

const urls = { publicUrl: 'http://api.test', appUrl: 'http://app.test' };
const at = { organizationId: 'org1', siteId: 'site1' };

const space: contentV1.Space = {
  id: 'space1',
  title: 'Guide',
  emoji: '',
  visibility: 'in-collection',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  editMode: 'live',
  organization: 'org1',
  revision: 'rev1',
  defaultLevel: 'inherit',
  permissions: {
    view: true,
    access: false,
    admin: false,
    viewInviteLinks: false,
    edit: false,
    triggerGitSync: false,
    comment: false,
    merge: false,
    review: false,
    installIntegration: false,
  },
};
const siteSpace: pb.SiteSpace = {
  id: 'ss1',
  path: 'guide',
  sectionId: 'sec1',
  spaceId: 'space1',
  space,
  title: 'Guide',
  default: true,
  condition: 'visitor.claims.beta',
  publishedUrl: 'http://docs.test/site',
};
const section: pb.SiteSection = { id: 'sec1', title: 'Guide', default: true, path: 'guide', icon: 'book', siteSpaces: [siteSpace], publishedUrl: 'http://docs.test/site' };
const group: pb.SiteSectionGroup = { id: 'g1', title: 'More', sections: [{ ...section, id: 'sec2', default: false, sectionGroupId: 'g1', publishedUrl: undefined }] };
const site: pb.Site = {
  id: 'site1',
  organizationId: 'org1',
  type: 'basic',
  title: 'Docs',
  basename: 'docs',
  visibility: 'public',
  published: true,
  siteSpaces: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  agentsContext: 'included',
  defaultSpace: 'space1',
  publishedUrl: 'http://docs.test/site',
  previewUrl: 'http://docs.test/site',
  permissions: { view: true, edit: false, publish: false, admin: false },
};
const sections: structure.SiteStructure = { type: 'sections', items: [{ section }, { sectionGroup: group }] };
const spaces: structure.SiteStructure = { type: 'siteSpaces', items: [{ siteSpace: { ...siteSpace, sectionId: undefined } }] };

describe('structure representations, valid against the official release the reference matches', () => {
  it.each(['0.130.0'] as const)('in %s', (version) => {
    const base = '/orgs/{organizationId}/sites/{siteId}';
    assertMatchesSpec(version, 'get', `${base}/published`, 200, publishedSiteJson({ site, structure: sections, customization: undefined, siteSpaceCustomizations: [] }, urls, at));
    assertMatchesSpec(version, 'get', `${base}/published`, 200, publishedSiteJson({ site, structure: spaces, customization: undefined, siteSpaceCustomizations: [] }, urls, at));
    assertMatchesSpec(version, 'get', `${base}/structure`, 200, structureJson(sections, urls, at));
    for (const item of [{ section }, { sectionGroup: group }, { siteSpace }]) assertMatchesSpec(version, 'patch', `${base}/structure/sort`, 200, structureItemJson(item, urls, at));
  });

  it('gives each item its API location', () => {
    const json = structureJson(sections, urls, at);
    expect(json.structure[0]).toMatchObject({ urls: { location: 'http://api.test/v1/orgs/org1/sites/site1/sections/sec1', published: 'http://docs.test/site' } });
    expect((json.structure[0] as { siteSpaces: Array<{ urls: object }> }).siteSpaces[0].urls).toEqual({
      location: 'http://api.test/v1/orgs/org1/sites/site1/site-spaces/ss1',
      published: 'http://docs.test/site',
    });
  });
});
