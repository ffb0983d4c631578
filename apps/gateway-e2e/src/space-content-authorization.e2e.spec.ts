import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentItem, grant, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { pageIdsOf, PNG_BASE64 } from './content-model-fixtures';
import { createUser, organizationWithEveryRole, TestUser } from './fixtures';
import { http } from './http-client';
import { Client, matrixMismatches, MatrixRow } from './matrix';

// The callers: one member per organization role (admin … read), a guest (a member without a role)
// with no grant, another guest with a direct `read` grant on both spaces under test, the admin of
// another organization, a token that was never issued, and none. The "read member on a restricted
// space" is the `read` column of the restricted rows.
type Who = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guest' | 'guestWithGrant' | 'stranger' | 'badToken' | 'noToken';
const WHO: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'guestWithGrant', 'stranger', 'badToken', 'noToken'];
type Access = 'open' | 'restricted';

/** A space with content, made and written by the organization admin. */
interface Seeded {
  spaceId: string;
  revisionId: string;
  /** guide/install */
  pageId: string;
  /** undefined when file storage is not wired */
  fileId?: string;
}

interface Ctx {
  space: Record<Access, Seeded>;
  /** the answers that differ from the same call about a space id that names nothing */
  shapes: string[];
}

interface Row {
  name: string;
  /** the path, for a space (its id may be one that names nothing) */
  path(spaceId: string, s: Seeded): string;
  /** expected status per caller, in the order of WHO, on the open space (default level inherit) */
  open: number[];
  /** … and on the restricted space (default level null) */
  restricted: number[];
  needsFile?: boolean;
}

const C = (id: string) => `/v1/spaces/${id}/content`;
const R = (id: string, s: Seeded) => `/v1/spaces/${id}/revisions/${s.revisionId}`;

// Reading of the expectations: every member with a role reads an open space (their organization role
// through `inherit`; read is enough), the guest only through a grant; a restricted space only the admin
// and the grantee see, the others get the same 404 as for a space that does not exist; the stranger is
// no member: 404; no token or a bad one: 401.
//                                                                                   admin create review edit comment read guest guestG stranger bad none
const ROWS: Row[] = [
  {
    name: 'GET content (getCurrentRevision)',
    path: (id) => C(id),
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content?metadata=false&computed=false',
    path: (id) => `${C(id)}?metadata=false&computed=false`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content/pages (listPages)',
    path: (id) => `${C(id)}/pages`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content/files (listFiles)',
    path: (id) => `${C(id)}/files?limit=10`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content/files/{fileId} (getFileById)',
    path: (id, s) => `${C(id)}/files/${s.fileId}`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
    needsFile: true,
  },
  {
    name: 'GET content/files/{fileId}/backlinks (listSpaceFileBacklinks)',
    path: (id, s) => `${C(id)}/files/${s.fileId}/backlinks`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
    needsFile: true,
  },
  {
    name: 'GET content/page/{pageId} (getPageById)',
    path: (id, s) => `${C(id)}/page/${s.pageId}`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content/page/{pageId}?format=markdown',
    path: (id, s) => `${C(id)}/page/${s.pageId}?format=markdown`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content/page/{pageId}/links (listPageLinksInSpace)',
    path: (id, s) => `${C(id)}/page/${s.pageId}/links`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET content/path/guide/install (getPageByPath)',
    path: (id) => `${C(id)}/path/guide/install`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET links (listSpaceLinks)',
    path: (id) => `/v1/spaces/${id}/links`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET links?status=broken',
    path: (id) => `/v1/spaces/${id}/links?status=broken`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId} (getRevisionById)',
    path: (id, s) => R(id, s),
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/pages (listPagesInRevisionById)',
    path: (id, s) => `${R(id, s)}/pages`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/files (listFilesInRevisionById)',
    path: (id, s) => `${R(id, s)}/files`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/files/{fileId} (getFileInRevisionById)',
    path: (id, s) => `${R(id, s)}/files/${s.fileId}`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
    needsFile: true,
  },
  {
    name: 'GET revisions/{revisionId}/page/{pageId} (getPageInRevisionById)',
    path: (id, s) => `${R(id, s)}/page/${s.pageId}`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/path/guide/install (getPageInRevisionByPath)',
    path: (id, s) => `${R(id, s)}/path/guide/install`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/changes (getRevisionSemanticChanges)',
    path: (id, s) => `${R(id, s)}/changes`,
    open: [200, 200, 200, 200, 200, 200, 404, 200, 404, 401, 401],
    restricted: [200, 404, 404, 404, 404, 404, 404, 200, 404, 401, 401],
  },
];

/**
 * The rows for one space as matrix rows. Whenever a caller gets a 404, the same call about a space id
 * that names nothing must answer the same status and body: a hidden space is a nonexistent one.
 */
function matrixRows(access: Access, rows: Row[]): Array<MatrixRow<Ctx, Who>> {
  return rows.map((row) => ({
    name: `${row.name} [${access}]`,
    expect: row[access],
    async call(c, x, who) {
      const s = x.space[access];
      const res = await c.get(row.path(s.spaceId, s));
      if (res.status === 404) {
        const ghostId = unknownId();
        const ghost = await c.get(row.path(ghostId, s));
        const seen = JSON.stringify(res.body).split(s.spaceId).join('<id>');
        const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
        if (ghost.status !== res.status || seen !== unknown)
          x.shapes.push(`${row.name} [${access}] as ${who}: ${res.status} ${seen}, for an unknown space ${ghost.status} ${unknown}`);
      }
      return res;
    },
  }));
}

// Writing (content's ApplyChanges, as change requests do): edit and up. Who sees the space without
// the edit role is refused (forbidden); who does not see it gets the not-found of a nonexistent space.
type Writer = Exclude<Who, 'badToken' | 'noToken'>;
const WRITERS: Writer[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'guestWithGrant', 'stranger'];
// Outcomes in the order of WRITERS: admin, create, review, edit, comment, read, guest, guestWithGrant, stranger.
const WRITE: Record<Access, string[]> = {
  open: ['ok', 'ok', 'ok', 'ok', 'forbidden', 'forbidden', 'not_found', 'forbidden', 'not_found'],
  restricted: ['ok', 'not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'forbidden', 'not_found'],
};

describe('authorization matrix: space content (revisions, pages, files, links)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let users: Record<Writer, TestUser>;
  let writer: ContentWriter;
  let ctx: Ctx;
  let writeSpaces: Record<Access, string>;
  let filesWired = true;

  // Longer than the tier: seeds open and restricted spaces with content and a member per role.
  beforeAll(async () => {
    sut = await sharedSystem();
    const { orgId, members, stranger } = await organizationWithEveryRole(sut);
    const admin = http(sut.baseUrl, members.admin.token);
    const grantee = await createUser(sut, 'guest-granted');
    const invited = await admin.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: grantee.email, role: null }] });
    if (invited.status !== 200 || invited.body.users[0] !== grantee.id) throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.body)}`);
    users = { ...members, guestWithGrant: grantee, stranger };
    clients = {
      ...(Object.fromEntries(Object.entries(users).map(([who, u]) => [who, http(sut.baseUrl, u.token)])) as Record<Writer, Client>),
      badToken: http(sut.baseUrl, 'gb_api_this-token-was-never-issued'),
      noToken: http(sut.baseUrl),
    };
    writer = contentWriter(sut);

    const space = async (access: Access, title: string) => {
      const id = await contentItem(admin, orgId, 'space', { title, ...(access === 'restricted' ? { defaultLevel: null } : {}) });
      await grant(admin, 'space', id, { role: 'read', users: [grantee.id] });
      return id;
    };
    const seeded = async (access: Access): Promise<Seeded> => {
      const spaceId = await space(access, `Content ${access}`);
      let fileId: string | undefined;
      if (filesWired) {
        try {
          const w = await writer.apply(members.admin.id, spaceId, [
            { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: PNG_BASE64 }] },
          ]);
          fileId = w.insertedFiles[0].id;
        } catch (err) {
          if ((err as { kind?: string }).kind !== 'unavailable') throw err;
          filesWired = false;
        }
      }
      const first = await writer.apply(members.admin.id, spaceId, [
        { operation: 'insert_page', title: 'Guide', document: { markdown: `See [the web](https://example.com)${fileId ? ` and ![the logo](/files/${fileId})` : ''}.` } },
      ]);
      const [guide] = pageIdsOf(first);
      const second = await writer.apply(members.admin.id, spaceId, [
        { operation: 'insert_page', title: 'Install', into: guide, document: { markdown: 'Back to [the guide](/pages/guide).' } },
      ]);
      return { spaceId, revisionId: second.revisionId, pageId: pageIdsOf(second)[0], fileId };
    };
    ctx = { space: { open: await seeded('open'), restricted: await seeded('restricted') }, shapes: [] };
    writeSpaces = { open: await space('open', 'Written open'), restricted: await space('restricted', 'Written restricted') };
  }, 180_000);

  afterAll(() => writer?.close());

  beforeEach(() => {
    ctx.shapes = [];
  });

  const check = async (access: Access, rows: Row[]) => {
    expect(await matrixMismatches(matrixRows(access, rows), WHO, clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);
  };
  const withoutFiles = ROWS.filter((r) => !r.needsFile);
  const fileRows = ROWS.filter((r) => r.needsFile);

  // Longer than the tier: one request per cell of the authorization matrix.
  it('answers every read of an open space as written, a hidden one like a nonexistent one', () => check('open', withoutFiles), 300_000);
  it('answers every read of a restricted space as written, a hidden one like a nonexistent one', () => check('restricted', withoutFiles), 300_000);
  it('answers every file read as written (open and restricted)', async () => {
    if (!filesWired) {
      console.warn('file storage is not wired (insert_files: unavailable): the file rows of the matrix are not run');
      return;
    }
    await check('open', fileRows);
    await check('restricted', fileRows);
  }, 300_000);

  it('lets edit and up write; whoever sees the space without the edit role is forbidden, whoever does not gets not found', async () => {
    const outcome = async (who: Writer, spaceId: string) => {
      try {
        await writer.apply(users[who].id, spaceId, [{ operation: 'insert_page', title: `By ${who}`, document: { markdown: 'Written.' } }]);
        return 'ok';
      } catch (err) {
        return (err as { kind?: string }).kind ?? String(err);
      }
    };
    const ghost = async (who: Writer) => {
      try {
        await writer.apply(users[who].id, unknownId(), [{ operation: 'insert_page', title: 'Nowhere', document: {} }]);
        return 'ok';
      } catch (err) {
        return (err as Error).message;
      }
    };
    const mismatches: string[] = [];
    for (const access of ['open', 'restricted'] as const) {
      for (const [i, who] of WRITERS.entries()) {
        const got = await outcome(who, writeSpaces[access]);
        if (got !== WRITE[access][i]) mismatches.push(`write [${access}] as ${who}: expected ${WRITE[access][i]}, got ${got}`);
        if (got === 'not_found') {
          let message = '';
          try {
            await writer.apply(users[who].id, writeSpaces[access], [{ operation: 'insert_page', title: 'Again', document: {} }]);
          } catch (err) {
            message = (err as Error).message;
          }
          const unknown = await ghost(who);
          if (message !== unknown) mismatches.push(`write [${access}] as ${who}: "${message}", for an unknown space "${unknown}"`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // What was written: one page per writer, in order.
    const titles = async (access: Access) => ((await clients.admin.get(`${C(writeSpaces[access])}/pages`)).body.pages as Array<{ title: string }>).map((p) => p.title);
    expect(await titles('open')).toEqual(['By admin', 'By create', 'By review', 'By edit']);
    expect(await titles('restricted')).toEqual(['By admin']);
  });
});
