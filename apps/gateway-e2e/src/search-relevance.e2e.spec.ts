import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { CorpusPage, GUIDES, QUERIES, REFERENCE, RELEASE_NOTES } from './search-relevance-corpus';
import { Json, search, untilFirst } from './search-fixtures';

const BATCH = 25;
/** The share of queries whose expected page must come first. */
const REQUIRED = 1;

describe('search relevance over a 200-page documentation corpus', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let writer: ContentWriter;

  async function spaceOf(title: string, pages: CorpusPage[]): Promise<string> {
    const spaceId = (await createSpace(admin, orgId, { title })).id;
    for (let i = 0; i < pages.length; i += BATCH) {
      await writer.apply(
        owner.id,
        spaceId,
        pages.slice(i, i + BATCH).map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
      );
    }
    return spaceId;
  }

  // Longer than the tier: indexes the relevance corpus through content and waits for the index.
  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'relevance-owner');
    orgId = await createOrganization(sut, owner, 'Relevance');
    admin = http(sut.baseUrl, owner.token);
    writer = contentWriter(sut);
    const spaces = [await spaceOf('Guides', GUIDES), await spaceOf('API reference', REFERENCE), await spaceOf('Release notes', RELEASE_NOTES)];
    // The last page of each space indexed: every batch before it was too (events of a space arrive in order).
    await untilFirst(admin, spaces[0], 'troubleshooting', 'Troubleshooting', 60000);
    await untilFirst(admin, spaces[1], 'delete openapi spec', 'Delete an OpenAPI spec', 60000);
    await untilFirst(admin, spaces[2], '"release 4.59"', 'Release 4.59', 60000);
  }, 300000);
  afterAll(() => writer?.close());

  it(`puts the expected page first for the fixed queries (${QUERIES.length} queries)`, async () => {
    expect(GUIDES.length + REFERENCE.length + RELEASE_NOTES.length).toBeGreaterThanOrEqual(200);
    const report: string[] = [];
    let hits = 0;
    for (const [query, expected] of QUERIES) {
      const body: Json = await search(admin, `/v1/orgs/${orgId}/search`, query);
      const first = body.items[0]?.pages[0]?.title;
      if (first === expected) hits++;
      report.push(
        `${first === expected ? 'ok  ' : 'MISS'} ${JSON.stringify(query)} → ${JSON.stringify(first)}${first === expected ? '' : ` (expected ${JSON.stringify(expected)})`}`,
      );
    }
    process.stdout.write(`search relevance: ${hits}/${QUERIES.length} queries put the expected page first\n${report.join('\n')}\n`);
    expect(hits).toBeGreaterThanOrEqual(Math.ceil(QUERIES.length * REQUIRED));
  });
});
