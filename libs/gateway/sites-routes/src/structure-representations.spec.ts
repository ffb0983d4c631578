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

const themed = (light: string, dark: string) => ({ light, dark });
/** What sites answers for a site that set nothing: 0.202.0's SiteCustomizationSettings, defaults filled. */
const settings = {
  styling: {
    theme: 'clean',
    primaryColor: themed('#0550ae', '#6cb6ff'),
    infoColor: themed('#0550ae', '#6cb6ff'),
    successColor: themed('#1a7f37', '#3fb950'),
    warningColor: themed('#9a6700', '#d29922'),
    dangerColor: themed('#cf222e', '#f85149'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: { default: themed('default-light', 'default-dark'), openapi: themed('default-light', 'default-dark') },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: [] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};
/**
 * The one conflict of the two releases: 0.202.0's `themes.default` may be `system` (sites' default,
 * the visitor's own preference), 0.130.0's only light or dark. 0.202.0 wins: it is the release
 * GitBook's renderer reads this answer with, and the customization routes store 0.202.0's values;
 * rewriting `system` would make every site ignore its visitors' preference. 0.130.0 is checked
 * with that one value put aside.
 */
const as130 = (json: ReturnType<typeof publishedSiteJson>) => JSON.parse(JSON.stringify(json).replace(/"default":"system"/g, '"default":"light"'));
const customized = {
  customization: { settings, updatedAt: '2026-01-02T00:00:00.000Z' },
  siteSpaceCustomizations: [{ siteSpaceId: 'ss1', settings: { ...settings, pageActions: { items: ['markdown', 'pdf'] } } }],
};

describe('structure representations, valid against the official releases', () => {
  it.each(['0.130.0', '0.202.0'] as const)('in %s', (version) => {
    const base = '/orgs/{organizationId}/sites/{siteId}';
    const answer = (json: ReturnType<typeof publishedSiteJson>) => (version === '0.130.0' ? as130(json) : json);
    assertMatchesSpec(version, 'get', `${base}/published`, 200, answer(publishedSiteJson({ site, structure: sections, ...customized }, urls, at)));
    assertMatchesSpec(version, 'get', `${base}/published`, 200, answer(publishedSiteJson({ site, structure: spaces, ...customized }, urls, at)));
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

describe('published customizations', () => {
  it("answer sites' settings as they are, with 0.130.0's pdf, git and page actions beside, read from pageActions.items", () => {
    const json = publishedSiteJson({ site, structure: spaces, ...customized }, urls, at).customizations;
    expect(json.site).toMatchObject({ socialAccounts: [], styling: { codeTheme: settings.styling.codeTheme }, updatedAt: '2026-01-02T00:00:00.000Z' });
    expect(json.site).toMatchObject({ pdf: { enabled: false }, git: { showEditLink: false }, pageActions: { items: [], externalAI: false, markdown: false } });
    expect(json.siteSpaces.ss1).toMatchObject({ pageActions: { items: ['markdown', 'pdf'], externalAI: false, markdown: true } });
  });
});
