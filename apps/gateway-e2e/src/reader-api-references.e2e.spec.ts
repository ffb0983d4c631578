import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { createPublishedSite, CreatedSite } from './site-fixtures';
import { processedSpec } from './spec-fixtures';

/** The OpenAPI Initiative's Petstore example (Apache-2.0, see the fixture's README). */
const petstoreText = readFileSync(join(__dirname, '../../../libs/reader/render/src/fixtures/openapi/petstore.json'), 'utf8');
const petstore = (summary: string) => {
  const doc = JSON.parse(petstoreText);
  doc.paths['/pets'].post.summary = summary;
  return JSON.stringify(doc);
};
const secret = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Secret', version: '1' },
  paths: { '/secret': { get: { summary: 'The secret operation', responses: { '200': { description: 'ok' } } } } },
});

async function read(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, text: await res.text() };
}

async function putSpec(client: Client, orgId: string, slug: string, text: string): Promise<string> {
  const put = await client.put(`/v1/orgs/${orgId}/openapi/${slug}`, { source: { text } });
  if (put.status !== 200 && put.status !== 201) throw new Error(`put spec: ${put.status} ${JSON.stringify(put.body)}`);
  return put.body.id as string;
}

/**
 * API references on a published site (real system): a page's `{% openapi-operation %}` blocks show
 * the operation from the site's organization's spec, read by the reader as the site; a slug of
 * another organization's spec shows the note; a new version shows once it is processed. The reader's
 * resolution TTL is a minute here: a new version that shows sooner was brought by specs' event.
 */
describe('the published reader shows API references from the organization’s specs (real system)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let site: CreatedSite;

  beforeAll(async () => {
    sut = await startSystem({ READER_RESOLVE_TTL_MS: '60000' });
    // the reader is ready once its event consumer joined: no event from here on is missed
    await eventually(async () => {
      if ((await fetch(`${sut.env.BINDERY_READER_URL}/readyz`)).status !== 200) throw new Error('reader not ready');
    }, 30_000);
    const owner = await createUser(sut, 'reader-api');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Reader API');
    // another organization's spec, with a slug the page names
    const other = await createUser(sut, 'reader-api-other');
    const otherAdmin = http(sut.baseUrl, other.token);
    const otherOrg = await createOrganization(sut, other, 'Reader API other');
    await putSpec(otherAdmin, otherOrg, 'secret-api', secret);
    expect((await processedSpec(otherAdmin, otherOrg, 'secret-api')).lastVersion).toBeTruthy();

    await putSpec(admin, orgId, 'petstore', petstore('Create a pet'));
    expect((await processedSpec(admin, orgId, 'petstore')).lastVersion).toBeTruthy();
    const spaceId = (await createSpace(admin, orgId, { title: 'API docs' })).id as string;
    const cr = await openChangeRequest(admin, spaceId, 'API page');
    const markdown = [
      'The pets API.',
      '',
      '{% openapi-operation spec="petstore" path="/pets" method="post" %}',
      '[OpenAPI petstore](https://example.com/petstore)',
      '{% endopenapi-operation %}',
      '',
      '{% openapi-operation spec="secret-api" path="/secret" method="get" %}',
      '[OpenAPI secret-api](https://example.com/secret)',
      '{% endopenapi-operation %}',
    ].join('\n');
    await editChangeRequest(admin, spaceId, cr.id, [{ operation: 'insert_page', title: 'Pets API', document: { markdown } }]);
    await mergeChangeRequest(admin, spaceId, cr.id);
    site = await createPublishedSite(admin, orgId, [spaceId], 'public');
  }, 240_000);

  afterAll(async () => {
    await sut?.stop();
  });

  test("the operation from the organization's spec; another organization's slug is a note; a new version shows after its processing", async () => {
    const page = await eventually(async () => {
      const answer = await read(`${site.url}/`);
      if (answer.status !== 200 || !answer.text.includes('api-operation')) throw new Error(`reader: ${answer.status}`);
      return answer.text;
    });
    expect(page).toContain('<h3 class="api-title">Create a pet</h3>');
    expect(page).toContain('<span class="api-method api-method-post">POST</span> <code class="api-path">/pets</code>');
    expect(page).toContain('Content type <code>application/json</code>');
    const text = page.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");
    expect(text).toContain("curl -X POST 'http://petstore.swagger.io/v1/pets'");
    // the other organization's spec is never read for this site
    expect(page).not.toContain('The secret operation');
    expect(page).toContain('<code>GET /secret</code> (OpenAPI specification “secret-api”)');

    // a new version of the spec: on the page once processed
    const t0 = Date.now();
    await putSpec(admin, orgId, 'petstore', petstore('Create a pet, version two'));
    await processedSpec(admin, orgId, 'petstore');
    const processedAt = Date.now();
    await eventually(async () => {
      const answer = await read(`${site.url}/`);
      if (!answer.text.includes('<h3 class="api-title">Create a pet, version two</h3>')) throw new Error('still the first version');
    }, 20_000);
    expect(Date.now() - processedAt).toBeLessThan(20_000);
    console.log(`a new spec version showed ${Date.now() - processedAt} ms after its processing completed (${Date.now() - t0} ms after the PUT)`);
  });
});
