import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { flatPages, Json, pageIdsOf, PNG_BASE64 } from './content-model-fixtures';
import { CR, editChangeRequest, mergeChangeRequest, openChangeRequest, pageMarkdown } from './change-request-fixtures';
import { commentPath, postComment } from './change-request-comment-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';

const OLD = '0.130.0';
const NEW = '0.202.0';
const P = '/spaces/{spaceId}/change-requests/{changeRequestId}';

describe('change requests through HTTP (lifecycle, content, update, merge)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let writer: ContentWriter;

  /** A space with two pages (Alpha, Beta), each of three paragraphs. */
  async function twoPageSpace(title = 'CR space') {
    const spaceId = (await createSpace(admin, orgId, { title })).id as string;
    const w = await writer.apply(owner.id, spaceId, [
      { operation: 'insert_page', title: 'Alpha', document: { markdown: 'a1\n\na2\n\na3' } },
      { operation: 'insert_page', title: 'Beta', document: { markdown: 'b1\n\nb2\n\nb3' } },
    ]);
    const [alpha, beta] = pageIdsOf(w);
    return { spaceId, alpha, beta, revision: w.revisionId };
  }

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'cr-owner');
    orgId = await createOrganization(sut, owner, 'Change requests');
    admin = http(sut.baseUrl, owner.token);
    writer = contentWriter(sut);
  });

  afterAll(() => writer?.close());

  it('opens change requests on the current revision, numbered per space, addressed by id or number', async () => {
    const { spaceId, revision } = await twoPageSpace();
    const first = await openChangeRequest(admin, spaceId, 'First');
    expect(first).toMatchObject({ object: 'change-request', number: 1, status: 'open', subject: 'First', revision, revisionInitial: revision, comments: 0, outdated: false });
    expect(first.createdBy).toMatchObject({ object: 'user', id: owner.id });
    const second = await openChangeRequest(admin, spaceId, 'Second');
    expect(second.number).toBe(2);
    const byNumber = await admin.get(CR(spaceId, 2));
    const byId = await admin.get(CR(spaceId, second.id));
    expect(byNumber.status).toBe(200);
    assertMatchesSpec(OLD, 'get', P, 200, byId.body);
    expect(byNumber.body).toEqual(byId.body);
    // another space's numbering starts again; a number of another space is not found here
    const other = await twoPageSpace('Other');
    expect((await openChangeRequest(admin, other.spaceId)).number).toBe(1);
    expect((await admin.get(CR(other.spaceId, second.id))).status).toBe(404);
    expect((await admin.get(CR(spaceId, 99))).status).toBe(404);
    expect((await admin.get(CR(spaceId, unknownId()))).status).toBe(404);
    // the official client reaches the same change request
    const api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    const viaClient = await api.spaces.getChangeRequestById(spaceId, String(first.number));
    expect(viaClient.data.id).toBe(first.id);
  });

  it('works with the official client: create, list, rename, read the head, merge', async () => {
    const { spaceId, alpha } = await twoPageSpace('Official client');
    const api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    const created = (await api.spaces.createChangeRequest(spaceId, { subject: 'Via the client' })).data;
    expect(created).toMatchObject({ number: 1, status: 'open', subject: 'Via the client' });
    const listed = (await api.spaces.listChangeRequestsForSpace(spaceId)).data;
    expect(listed.items.map((c) => c.id)).toEqual([created.id]);
    expect((await api.spaces.updateChangeRequestById(spaceId, created.id, { subject: 'Renamed', status: 'open' })).data.subject).toBe('Renamed');
    await editChangeRequest(admin, spaceId, created.id, [{ operation: 'update_page', page: alpha, title: 'Alpha via client' }]);
    const pages = (await api.spaces.listPagesInChangeRequest(spaceId, created.id)).data;
    expect(flatPages(pages.pages as Json[]).map((p) => p.title)).toEqual(['Alpha via client', 'Beta']);
    const merged = (await api.spaces.mergeChangeRequest(spaceId, String(created.number))).data;
    expect(merged.result).toBe('merge');
    expect((await api.spaces.getSpaceById(spaceId)).data.revision).toBe(merged.revision);
  });

  it('numbers concurrent creations uniquely (20 at once)', async () => {
    const { spaceId } = await twoPageSpace('Numbers');
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => openChangeRequest(admin, spaceId, `CR ${i}`)));
    expect(created.map((c) => c.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const { spaceId } = await twoPageSpace('Bad input');
    const cr = await openChangeRequest(admin, spaceId);
    const bad: Array<[string, string, unknown]> = [
      ['post', CR(spaceId), { subject: 'x'.repeat(101) }],
      ['post', CR(spaceId), { subject: 'ok', template: 'x' }],
      ['patch', CR(spaceId, cr.id), {}],
      ['patch', CR(spaceId, cr.id), { status: 'merged' }],
      ['patch', CR(spaceId, cr.id), { description: { object: 'nope' } }],
      ['post', `${CR(spaceId, cr.id)}/content`, { changes: [] }],
      ['post', `${CR(spaceId, cr.id)}/content`, { changes: [{ operation: 'insert_page' }] }],
      ['post', `${CR(spaceId, cr.id)}/content`, { changes: [{ operation: 'update_page', page: unknownId(), title: 'X' }] }],
      ['get', `${CR(spaceId)}?status=closed`, undefined],
      ['get', `${CR(spaceId, cr.id)}/changes?limit=0`, undefined],
    ];
    for (const [method, path, body] of bad) {
      const res = method === 'get' ? await admin.get(path) : method === 'patch' ? await admin.patch(path, body) : await admin.post(path, body);
      if (res.status !== 400) throw new Error(`${method} ${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
      assertErrorBody(res.status, res.body);
    }
    // documents not of the official JSONDocument shape: the answer names the first wrong field
    const description = await admin.patch(CR(spaceId, cr.id), { description: { '': -6.9e16, 'M0u\u000f': null } });
    expect(description.status).toBe(400);
    expect(description.body.error.message).toMatch(/^body\.description\.object is required/);
    const wrongNode = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraf', nodes: [] }] };
    const page = await admin.post(`${CR(spaceId, cr.id)}/content`, { changes: [{ operation: 'insert_page', title: 'X', document: { document: wrongNode } }] });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toMatch(/^body\.changes\.0\.document\.document\.nodes\.0\.type must be one of "paragraph", /);
    const after = await admin.get(CR(spaceId, cr.id));
    expect(after.body).toMatchObject({ revision: cr.revision, subject: cr.subject, status: 'open', updatedAt: cr.updatedAt });
  });

  it('edits the head without touching the space; reads the head through the content variants', async () => {
    const { spaceId, alpha, revision } = await twoPageSpace('Edits');
    const cr = await openChangeRequest(admin, spaceId);
    const edit = await editChangeRequest(admin, spaceId, cr.id, [
      { operation: 'update_page', page: alpha, document: { markdown: 'a1\n\nA2 edited\n\na3' } },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: 'g1' } },
    ]);
    expect(edit.changes).toHaveLength(2);
    const head = edit.changeRequest.revision as string;
    expect(head).not.toBe(revision);
    expect(edit.changeRequest.revisionInitial).toBe(revision);
    // the space is unchanged
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revision);
    expect(await pageMarkdown(admin, spaceId, alpha)).toContain('a2');
    // the change request's content variants read the head
    const base = `${CR(spaceId, cr.number)}/content`;
    const rev = await admin.get(base);
    expect(rev.status).toBe(200);
    assertMatchesSpec(OLD, 'get', `${P}/content`, 200, rev.body);
    expect(rev.body.id).toBe(head);
    const pages = await admin.get(`${base}/pages`);
    assertMatchesSpec(OLD, 'get', `${P}/content/pages`, 200, pages.body);
    expect(flatPages(pages.body.pages).map((p: Json) => p.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    const page = await admin.get(`${base}/page/${alpha}?format=markdown`);
    assertMatchesSpec(OLD, 'get', `${P}/content/page/{pageId}`, 200, page.body);
    expect(page.body.markdown).toContain('A2 edited');
    const byPath = await admin.get(`${base}/path/gamma`);
    assertMatchesSpec(OLD, 'get', `${P}/content/path/{pagePath}`, 200, byPath.body);
    expect(byPath.body.title).toBe('Gamma');
    const files = await admin.get(`${base}/files`);
    assertMatchesSpec(OLD, 'get', `${P}/content/files`, 200, files.body);
    const links = await admin.get(`${base}/page/${alpha}/links`);
    assertMatchesSpec(OLD, 'get', `${P}/content/page/{pageId}/links`, 200, links.body);
    expect((await admin.get(`${base}/files/${unknownId()}`)).status).toBe(404);
    // compat (default): the change request itself
    const compat = await admin.post(`${CR(spaceId, cr.id)}/content`, { changes: [{ operation: 'update_page', page: alpha, title: 'Alpha 2' }] });
    expect(compat.status).toBe(200);
    assertMatchesSpec(NEW, 'post', `${P}/content`, 200, compat.body);
    expect(compat.body).toMatchObject({ object: 'change-request', id: cr.id });
    // the changes, relative to where it started
    const changes = await admin.get(`${CR(spaceId, cr.id)}/changes`);
    expect(changes.status).toBe(200);
    assertMatchesSpec(NEW, 'get', `${P}/changes`, 200, changes.body);
    expect(changes.body.changes.map((c: Json) => c.type).sort()).toEqual(['page_created', 'page_edited']);
  });

  it('reports files added in a change request with absolute download URLs', async () => {
    const { spaceId } = await twoPageSpace('Files');
    const cr = await openChangeRequest(admin, spaceId);
    const edit = await editChangeRequest(admin, spaceId, cr.id, [{ operation: 'insert_files', files: [{ name: 'dot.png', base64: PNG_BASE64, contentType: 'image/png' }] }]);
    expect(edit.insertedFiles[0].downloadURL).toMatch(/^https?:\/\//);
    const changes = await admin.get(`${CR(spaceId, cr.id)}/changes`);
    assertMatchesSpec(NEW, 'get', `${P}/changes`, 200, changes.body);
    const created = changes.body.changes.find((c: Json) => c.type === 'file_created');
    expect(created.file).toMatchObject({ id: edit.insertedFiles[0].id, name: 'dot.png' });
    expect(created.file.downloadURL).toMatch(/^https?:\/\//);
    const download = await fetch(created.file.downloadURL);
    expect(download.status).toBe(200);
  });

  it('updates subject, description and status; archived and merged change requests refuse content edits', async () => {
    const { spaceId, alpha } = await twoPageSpace('Fields');
    const cr = await openChangeRequest(admin, spaceId);
    const description = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }],
    };
    const patched = await admin.patch(CR(spaceId, cr.id), { subject: 'Renamed', description, status: 'draft' });
    expect(patched.status).toBe(200);
    assertMatchesSpec(OLD, 'patch', P, 200, patched.body);
    expect(patched.body).toMatchObject({ subject: 'Renamed', status: 'draft', description });
    expect((await admin.patch(CR(spaceId, cr.id), { description: null })).body.description).toBeUndefined();
    expect((await admin.patch(CR(spaceId, cr.id), { status: 'archived' })).body.status).toBe('archived');
    const refused = await admin.post(`${CR(spaceId, cr.id)}/content`, { changes: [{ operation: 'update_page', page: alpha, title: 'X' }] });
    expect(refused.status).toBe(409);
    assertErrorBody(refused.status, refused.body);
    expect((await admin.post(`${CR(spaceId, cr.id)}/merge`, undefined)).status).toBe(409);
    expect((await admin.patch(CR(spaceId, cr.id), { status: 'open' })).body.status).toBe('open');
    await editChangeRequest(admin, spaceId, cr.id, [{ operation: 'update_page', page: alpha, title: 'Alpha merged' }]);
    expect((await mergeChangeRequest(admin, spaceId, cr.id)).result).toBe('merge');
    expect((await admin.patch(CR(spaceId, cr.id), { subject: 'Too late' })).status).toBe(409);
    expect((await admin.post(`${CR(spaceId, cr.id)}/content`, { changes: [{ operation: 'update_page', page: alpha, title: 'Y' }] })).status).toBe(409);
    expect((await admin.post(`${CR(spaceId, cr.id)}/merge`, undefined)).status).toBe(409);
    expect((await admin.post(`${CR(spaceId, cr.id)}/update`, undefined)).status).toBe(409);
  });

  it('lists per space and per organization with the status, creator and order filters, a page at a time', async () => {
    const { spaceId } = await twoPageSpace('Lists');
    const a = await openChangeRequest(admin, spaceId, 'A');
    const b = await openChangeRequest(admin, spaceId, 'B');
    const c = await openChangeRequest(admin, spaceId, 'C');
    await admin.patch(CR(spaceId, b.id), { status: 'draft' });
    const open = await admin.get(CR(spaceId));
    assertMatchesSpec(NEW, 'get', '/spaces/{spaceId}/change-requests', 200, open.body);
    // newest update first: C, A (B is a draft now)
    expect(open.body.items.map((x: Json) => x.subject)).toEqual(['C', 'A']);
    expect(open.body.count).toBe(2);
    expect((await admin.get(`${CR(spaceId)}?status=draft`)).body.items.map((x: Json) => x.id)).toEqual([b.id]);
    expect((await admin.get(`${CR(spaceId)}?orderBy=createdAt`)).body.items.map((x: Json) => x.id)).toEqual([c.id, a.id]);
    expect((await admin.get(`${CR(spaceId)}?creator=${unknownId()}`)).body.items).toEqual([]);
    expect((await admin.get(`${CR(spaceId)}?creator=${owner.id}`)).body.count).toBe(2);
    const first = await admin.get(`${CR(spaceId)}?limit=1`);
    expect(first.body.items).toHaveLength(1);
    const second = await admin.get(`${CR(spaceId)}?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.items.map((x: Json) => x.id)).toEqual([a.id]);
    expect(second.body.next).toBeUndefined();
    // the space counts them (content's copy of change-requests' counts, kept from its events: decisions/0006)
    await eventually(async () =>
      expect((await admin.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 0 }),
    );
    const org = await admin.get(`/v1/orgs/${orgId}/change-requests?space=${spaceId}&status=open&status=draft`);
    expect(org.status).toBe(200);
    assertMatchesSpec(NEW, 'get', '/orgs/{organizationId}/change-requests', 200, org.body);
    expect(org.body.items.map((x: Json) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it("keeps the space's counts from change-requests' events as change requests open, close and merge and comments are resolved", async () => {
    const { spaceId, alpha } = await twoPageSpace('Counts');
    const counts = async () => {
      const { comments, changeRequests, changeRequestsOpen, changeRequestsDraft } = (await admin.get(`/v1/spaces/${spaceId}`)).body;
      return { comments, changeRequests, changeRequestsOpen, changeRequestsDraft };
    };
    const a = await openChangeRequest(admin, spaceId, 'A');
    const b = await openChangeRequest(admin, spaceId, 'B');
    const first = await postComment(admin, spaceId, a.id);
    await postComment(admin, spaceId, a.id);
    await eventually(async () => expect(await counts()).toEqual({ changeRequests: 2, changeRequestsOpen: 2, changeRequestsDraft: 0, comments: 2 }));
    expect((await admin.put(commentPath(spaceId, a.id, first.id), { resolved: true })).status).toBe(200);
    expect((await admin.patch(CR(spaceId, b.id), { status: 'archived' })).status).toBe(200);
    await editChangeRequest(admin, spaceId, a.id, [{ operation: 'update_page', page: alpha, title: 'Alpha counted' }]);
    expect((await mergeChangeRequest(admin, spaceId, a.id)).result).toBe('merge');
    await eventually(async () => expect(await counts()).toEqual({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 1 }));
    expect((await admin.patch(CR(spaceId, b.id), { status: 'draft' })).status).toBe(200);
    await eventually(async () => expect(await counts()).toEqual({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 1, comments: 1 }));
  });

  it('merges with a merge revision of both parents; a space changed meanwhile keeps its changes', async () => {
    const { spaceId, alpha, beta, revision } = await twoPageSpace('Merge');
    const cr = await openChangeRequest(admin, spaceId);
    const edit = await editChangeRequest(admin, spaceId, cr.id, [{ operation: 'update_page', page: alpha, document: { markdown: 'a1\n\nA2 from the CR\n\na3' } }]);
    // meanwhile, a live edit of the other page
    const live = await writer.apply(owner.id, spaceId, [{ operation: 'update_page', page: beta, document: { markdown: 'b1\n\nB2 live\n\nb3' } }], { baseRevisionId: revision });
    const merged = await mergeChangeRequest(admin, spaceId, cr.id);
    expect(merged.result).toBe('merge');
    const space = (await admin.get(`/v1/spaces/${spaceId}`)).body;
    expect(space.revision).toBe(merged.revision);
    const mergeRevision = (await admin.get(`/v1/spaces/${spaceId}/revisions/${merged.revision}`)).body;
    expect(mergeRevision).toMatchObject({ type: 'merge', parents: [live.revisionId, edit.changeRequest.revision] });
    expect(await pageMarkdown(admin, spaceId, alpha)).toContain('A2 from the CR');
    expect(await pageMarkdown(admin, spaceId, beta)).toContain('B2 live');
    const after = (await admin.get(CR(spaceId, cr.id))).body;
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.revision, mergedBy: { id: owner.id } });
    const changes = (await admin.get(`${CR(spaceId, cr.id)}/changes`)).body;
    expect(changes.mergedFrom).toMatchObject({ id: cr.id, status: 'merged' });
  });

  it('answers conflicts for the same block edited twice and changes nothing; update brings a change request up to date', async () => {
    const { spaceId, alpha, beta } = await twoPageSpace('Conflicts');
    const one = await openChangeRequest(admin, spaceId, 'one');
    const two = await openChangeRequest(admin, spaceId, 'two');
    const three = await openChangeRequest(admin, spaceId, 'three');
    await editChangeRequest(admin, spaceId, one.id, [{ operation: 'update_page', page: alpha, document: { markdown: 'a1\n\nONE\n\na3' } }]);
    await editChangeRequest(admin, spaceId, two.id, [{ operation: 'update_page', page: alpha, document: { markdown: 'a1\n\nTWO\n\na3' } }]);
    await editChangeRequest(admin, spaceId, three.id, [{ operation: 'update_page', page: beta, document: { markdown: 'b1\n\nb2\n\nTHREE' } }]);
    const first = await mergeChangeRequest(admin, spaceId, one.id);
    expect(first.result).toBe('merge');
    const conflicted = await mergeChangeRequest(admin, spaceId, two.id);
    expect(conflicted).toEqual({ result: 'conflicts', revision: first.revision });
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(first.revision);
    expect((await admin.get(CR(spaceId, two.id))).body).toMatchObject({ status: 'open', outdated: true });
    const update = await admin.post(`${CR(spaceId, two.id)}/update`, undefined);
    expect(update.status).toBe(200);
    assertMatchesSpec(OLD, 'post', `${P}/update`, 200, update.body);
    expect(update.body.result).toBe('conflicts');
    // three touched another page: brought up to date, then merged, both edits kept
    const outdated = (await admin.get(CR(spaceId, three.id))).body;
    expect(outdated.outdated).toBe(true);
    const updated = await admin.post(`${CR(spaceId, three.id)}/update`, undefined);
    expect(updated.body.result).toBe('update');
    const fresh = (await admin.get(CR(spaceId, three.id))).body;
    expect(fresh).toMatchObject({ outdated: false, revisionMergedAncestor: first.revision, revision: updated.body.revision });
    const headPage = (await admin.get(`${CR(spaceId, three.id)}/content/page/${alpha}?format=markdown`)).body;
    expect(headPage.markdown).toContain('ONE');
    expect((await admin.post(`${CR(spaceId, three.id)}/update`, undefined)).body).toEqual({ result: 'update', revision: updated.body.revision });
    expect((await mergeChangeRequest(admin, spaceId, three.id)).result).toBe('merge');
    expect(await pageMarkdown(admin, spaceId, alpha)).toContain('ONE');
    expect(await pageMarkdown(admin, spaceId, beta)).toContain('THREE');
  });

  it('refuses merges on a locked space (412: the role is enough, the state of the space is not) but still takes edits in change requests', async () => {
    const space = await createSpace(admin, orgId, { title: 'Locked', editMode: 'locked' });
    const cr = await openChangeRequest(admin, space.id);
    await editChangeRequest(admin, space.id, cr.id, [{ operation: 'insert_page', title: 'New', document: { markdown: 'x' } }]);
    const res = await admin.post(`${CR(space.id, cr.id)}/merge`, undefined);
    expect(res.status).toBe(412);
    assertErrorBody(res.status, res.body);
    expect(res.body.error.message).toMatch(/locked/);
    expect((await admin.get(CR(space.id, cr.id))).body.status).toBe('open');
    expect((await admin.get(`/v1/spaces/${space.id}`)).body.revision).toBe(space.revision);
    // unlocked, the same change request merges: the refusal changed nothing
    expect((await admin.patch(`/v1/spaces/${space.id}`, { editMode: 'live' })).status).toBe(200);
    expect((await mergeChangeRequest(admin, space.id, cr.id)).result).toBe('merge');
  });

  // Longer than the tier: 50 rounds of two concurrent merges.
  it('merges two change requests sent at the same moment, 50 rounds: both land or one reports conflicts, nothing is lost', async () => {
    const { spaceId, alpha, beta } = await twoPageSpace('Race');
    const other = http(sut.baseUrl, owner.token);
    const outcomes = { both: 0, conflict: 0 };
    for (let round = 0; round < 50; round += 1) {
      // even rounds: different pages (both must land); odd rounds: the same block (one conflicts)
      const same = round % 2 === 1;
      const [x, y] = await Promise.all([openChangeRequest(admin, spaceId, `x${round}`), openChangeRequest(admin, spaceId, `y${round}`)]);
      await editChangeRequest(admin, spaceId, x.id, [{ operation: 'update_page', page: alpha, document: { markdown: `a1\n\nX${round}\n\na3` } }]);
      await editChangeRequest(admin, spaceId, y.id, [
        { operation: 'update_page', page: same ? alpha : beta, document: { markdown: same ? `a1\n\nY${round}\n\na3` : `b1\n\nY${round}\n\nb3` } },
      ]);
      const [rx, ry] = await Promise.all([mergeChangeRequest(admin, spaceId, x.id), mergeChangeRequest(other, spaceId, y.id)]);
      const results = [rx.result, ry.result].sort();
      const a = await pageMarkdown(admin, spaceId, alpha);
      const b = await pageMarkdown(admin, spaceId, beta);
      if (!same) {
        expect(results).toEqual(['merge', 'merge']);
        expect(a).toContain(`X${round}`);
        expect(b).toContain(`Y${round}`);
        outcomes.both += 1;
      } else {
        expect(results).toEqual(['conflicts', 'merge']);
        const winner = rx.result === 'merge' ? `X${round}` : `Y${round}`;
        expect(a).toContain(winner);
        outcomes.conflict += 1;
      }
      const space = (await admin.get(`/v1/spaces/${spaceId}`)).body;
      expect(space.revision).toBe(
        (rx.result === 'merge' && ry.result === 'merge' ? [rx.revision, ry.revision] : [rx.result === 'merge' ? rx.revision : ry.revision]).find((r) => r === space.revision),
      );
    }
    expect(outcomes).toEqual({ both: 25, conflict: 25 });
  }, 600_000);
});
