import { eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { http } from './http-client';
import { seedReusableContents } from './reusable-content-fixtures';
import { createPublishedSite, CreatedSite } from './site-fixtures';

async function read(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, text: await res.text() };
}

describe('the published reader shows reusable contents in place (real system)', () => {
  let sut: SystemUnderTest;
  let site: CreatedSite;

  beforeAll(async () => {
    sut = await sharedSystem();
    const owner = await createUser(sut, 'reader-reusable');
    const admin = http(sut.baseUrl, owner.token);
    const orgId = await createOrganization(sut, owner, 'Reader reusable');
    const spaceId = (await createSpace(admin, orgId, { title: 'Shared blocks' })).id as string;
    await seedReusableContents(sut, owner.id, spaceId);
    site = await createPublishedSite(admin, orgId, [spaceId], 'public');
  }, 180_000);

  test('the page renders each included reusable content, in HTML and in Markdown', async () => {
    const page = await eventually(async () => {
      const answer = await read(`${site.url}/`);
      if (answer.status !== 200) throw new Error(`reader: ${answer.status}`);
      return answer;
    });
    expect(page.text).toMatch(/<div class="reusable-content"><p>This is in <strong>beta<\/strong>\.<\/p><\/div>/);
    expect(page.text).toMatch(/<div class="reusable-content"><p>Write to support\.<\/p><\/div>/);
    expect(page.text).not.toContain('Reusable content cannot be shown here');
    const md = await read(`${site.url}/welcome.md`);
    expect(md.status).toBe(200);
    expect(md.text).toContain('This is in **beta**.');
    expect(md.text).toContain('Write to support.');
  });
});
