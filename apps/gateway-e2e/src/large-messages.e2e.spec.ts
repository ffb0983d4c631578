import { performance } from 'node:perf_hooks';
import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { CR, editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';

/**
 * Answers larger than grpc's 4 MiB default travel from the services through the gateway: a
 * 10,000-page revision read, a change request of 50 pages with large documents. The figures are
 * printed for docs/benchmarks.md.
 */
const PAGES = 10_000;
const SECTIONS = 100;
const log = (what: string, figures: Record<string, unknown>) => console.log(`[large-messages] ${what} ${JSON.stringify(figures)}`);

/** A GET with its status, size on the wire and time. */
async function timedGet(sut: SystemUnderTest, token: string, path: string) {
  const t0 = performance.now();
  const res = await fetch(sut.baseUrl + path, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), ms: Math.round(performance.now() - t0), body: text };
}

const markdown = (i: number) => `## Topic ${i}\n\nThis page explains topic ${i}. See [the overview](/pages/README.md).\n\n- one\n- two\n`;

/**
 * A 10,000-page space loaded directly through content's ApplyChanges, 50 pages (its limit) per
 * revision: 100 sections of 100 pages. Each batch costs about the same however large the space is
 * (the revision's maps are tries that share what did not change); creating it through change requests
 * is what this does not measure.
 */
async function tenThousandPages(writer: ContentWriter, userId: string, spaceId: string): Promise<void> {
  const heads: string[] = [];
  for (let s = 0; s < SECTIONS; s += 50) {
    const created = await writer.apply(
      userId,
      spaceId,
      Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `Section ${s + i}`, document: { markdown: markdown(s + i) } })),
    );
    heads.push(...created.changes.map((c) => c.page.id as string));
  }
  const perSection = PAGES / SECTIONS - 1;
  const children = heads.flatMap((head, s) =>
    Array.from({ length: perSection }, (_, i) => ({ operation: 'insert_page', into: head, title: `Page ${s}.${i}`, document: { markdown: markdown(i) } })),
  );
  for (let from = 0; from < children.length; from += 50) await writer.apply(userId, spaceId, children.slice(from, from + 50));
}

describe('large answers through HTTP', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let writer: ContentWriter;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'large-owner');
    orgId = await createOrganization(sut, owner, 'Large content');
    admin = http(sut.baseUrl, owner.token);
    writer = contentWriter(sut);
  });

  afterAll(() => writer?.close());

  // Longer than the tier: writes and reads back a 10,000-page revision.
  it('reads a 10,000-page revision (its page tree and every document) in one answer', async () => {
    const space = (await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Ten thousand pages' })).body as Json;
    const t0 = performance.now();
    await tenThousandPages(writer, owner.id, space.id);
    const loadMs = Math.round(performance.now() - t0);

    const revision = await timedGet(sut, owner.token, `/v1/spaces/${space.id}/content`);
    expect(revision.status).toBe(200);
    const pages = flatPages(JSON.parse(revision.body).pages);
    expect(pages).toHaveLength(PAGES);
    // well above the 4 MiB grpc would take by default
    expect(revision.bytes).toBeGreaterThan(4 * 1024 * 1024);
    const listed = await timedGet(sut, owner.token, `/v1/spaces/${space.id}/content/pages`);
    expect(listed.status).toBe(200);
    log('10,000-page revision', {
      loadMs,
      revision: { status: revision.status, bytes: revision.bytes, ms: revision.ms },
      pages: { status: listed.status, bytes: listed.bytes, ms: listed.ms },
    });
  }, 600_000);

  it('takes a change set of 50 pages with large documents, serves it and merges it', async () => {
    const space = (await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Large documents' })).body as Json;
    const cr = await openChangeRequest(admin, space.id, 'Fifty large pages');
    // 50 documents of about 18 KB of Markdown each: just under the gateway's 1 MB body limit
    const paragraph = 'Large documents carry long explanations that take many lines of text to read. ';
    const big = (i: number) => `## Page ${i}\n\n${paragraph.repeat(230)}\n`;
    const changes = Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `Large ${i}`, document: { markdown: big(i) } }));
    const t0 = performance.now();
    const edited = await editChangeRequest(admin, space.id, cr.id, changes);
    const writeMs = Math.round(performance.now() - t0);
    expect(edited.changes).toHaveLength(50);
    const read = await timedGet(sut, owner.token, `${CR(space.id, cr.id)}/content/pages`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).pages).toHaveLength(50);
    const t1 = performance.now();
    const merged = await mergeChangeRequest(admin, space.id, cr.id);
    const mergeMs = Math.round(performance.now() - t1);
    expect(merged.result).toBe('merge');
    const current = await timedGet(sut, owner.token, `/v1/spaces/${space.id}/content`);
    expect(current.status).toBe(200);
    expect(flatPages(JSON.parse(current.body).pages)).toHaveLength(50);
    log('50 large pages', {
      bodyBytes: JSON.stringify({ changes }).length,
      writeMs,
      read: { bytes: read.bytes, ms: read.ms },
      mergeMs,
      revision: { bytes: current.bytes, ms: current.ms },
    });
  });
});
