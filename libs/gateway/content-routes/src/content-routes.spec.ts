import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { forbidden, notFound } from '@bindery/platform/errors';
import { createGatewayApp, JsonSchema, RouteRegistry } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import { contentV1 } from '@bindery/shared/contracts';
import { assertMatchesSpec, SpecVersion } from '@bindery/shared/testing';
import { registerContentRoutes } from './content-routes';
import { collectionJson, spaceJson } from './representations';

const root = join(__dirname, '../../../..');
const urls = { publicUrl: 'https://api.bindery.test', appUrl: 'https://app.bindery.test' };
const VERSIONS: SpecVersion[] = ['0.130.0', '0.202.0'];

const SPACE: contentV1.Space = {
  id: 'sp1',
  title: 'Guide',
  emoji: '',
  visibility: 'private',
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
  editMode: 'live',
  organization: 'org1',
  revision: 'rev1',
  permissions: {
    view: true,
    access: true,
    admin: true,
    viewInviteLinks: true,
    edit: true,
    triggerGitSync: false,
    comment: true,
    merge: true,
    review: true,
    installIntegration: true,
  },
};
const FULL_SPACE: contentV1.Space = {
  ...SPACE,
  id: 'sp2',
  emoji: '1f389',
  icon: 'https://cdn.bindery.test/icon.png',
  visibility: 'in-collection',
  deletedAt: '2026-01-03T00:00:00.000Z',
  parent: 'col1',
  defaultLevel: 'inherit',
};
const COLLECTION: contentV1.Collection = { id: 'col1', title: 'Docs', organization: 'org1', permissions: { view: true, admin: false, viewInviteLinks: false, create: true } };
const FULL_COLLECTION: contentV1.Collection = { ...COLLECTION, id: 'col2', description: 'All of it', parent: 'col1', defaultLevel: 'read' };
const USER = { id: 'u1', displayName: 'Ada', email: 'ada@bindery.test' };
const TEAM = { id: 't1', title: 'Writers', members: 2, spaces: 1, createdAt: '2026-01-01T00:00:00.000Z', permissions: { admin: false, view: true } };
const PAGE = { count: 2 };

describe('content representations', () => {
  it.each(VERSIONS)('are official Spaces and Collections (@gitbook/api %s)', (version) => {
    for (const s of [SPACE, FULL_SPACE]) assertMatchesSpec(version, 'get', '/spaces/{spaceId}', 200, spaceJson(s, urls));
    for (const c of [COLLECTION, FULL_COLLECTION]) assertMatchesSpec(version, 'get', '/collections/{collectionId}', 200, collectionJson(c, urls));
  });

  it('say what content says, and add what is not content’s', () => {
    expect(spaceJson(FULL_SPACE, urls)).toMatchObject({
      object: 'space',
      emoji: '1f389',
      parent: 'col1',
      deletedAt: '2026-01-03T00:00:00.000Z',
      defaultLevel: 'inherit',
      mergeRules: { type: 'inherit' },
      urls: { location: 'https://api.bindery.test/v1/spaces/sp2', app: 'https://app.bindery.test/s/sp2', icon: 'https://cdn.bindery.test/icon.png' },
    });
    const minimal = spaceJson(SPACE, urls);
    expect(minimal.defaultLevel).toBeNull();
    for (const absent of ['parent', 'deletedAt', 'icon', 'type']) expect(minimal).not.toHaveProperty(absent);
    expect(minimal.urls).not.toHaveProperty('icon');
    expect(collectionJson(COLLECTION, urls)).toEqual({
      object: 'collection',
      id: 'col1',
      title: 'Docs',
      organization: 'org1',
      defaultLevel: null,
      urls: { location: 'https://api.bindery.test/v1/collections/col1', app: 'https://app.bindery.test/c/col1' },
      permissions: COLLECTION.permissions,
    });
  });
});

/** Fake clients: every call is recorded; answers come from `answers` (a function, or a value). */
function fakes(answers: Record<string, unknown>) {
  const calls: Array<[string, unknown]> = [];
  const service = (name: string) =>
    new Proxy(
      {},
      {
        get: (_t, method) => async (req: unknown) => {
          const key = `${name}.${String(method)}`;
          calls.push([key, req]);
          const answer = answers[key];
          if (answer === undefined) throw new Error(`${key} was not expected`);
          return typeof answer === 'function' ? (answer as (r: unknown) => unknown)(req) : answer;
        },
      },
    );
  const content = { spaces: service('spaces'), collections: service('collections'), permissions: service('permissions') } as unknown as ContentClients;
  const identity = { identity: service('identity'), teams: service('teams'), members: service('members') } as unknown as IdentityClients;
  return { content, identity, calls };
}

describe('content routes', () => {
  let server: Server;
  let base: string;
  let answers: Record<string, unknown>;
  let calls: Array<[string, unknown]>;

  beforeAll(async () => {
    const f = fakes(
      new Proxy(
        {},
        {
          get: (_t, key: string) => answers[key],
        },
      ),
    );
    calls = f.calls;
    const registry = registerContentRoutes(new RouteRegistry(), f.content, f.identity, urls, async () => {
      throw new Error('no change request is read here');
    });
    const app = createGatewayApp({
      registry,
      authenticate: async () => ({ userId: 'u1', isInstanceAdmin: false }),
      readiness: {},
      publicUrl: urls.publicUrl,
      requestBudgetMs: 5000,
      bodyLimit: '1mb',
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    answers = {};
    calls.length = 0;
  });

  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: 'Bearer t', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, location: res.headers.get('location') };
  };
  const sent = (key: string) => calls.filter(([k]) => k === key).map(([, req]) => req);
  const expectInvalid = (r: { status: number; body: { error: { message: string } } }, ...words: string[]) => {
    expect(r.status).toBe(400);
    for (const w of words) expect(r.body.error.message).toContain(w);
  };

  describe('spaces', () => {
    it('creates an empty space (201, Location), with or without a body', async () => {
      answers['spaces.createSpace'] = SPACE;
      const r = await request('POST', '/v1/orgs/org1/spaces', { title: 'Guide', emoji: '1f389', parent: 'col1', editMode: 'locked', empty: true });
      expect(r).toMatchObject({ status: 201, location: 'https://api.bindery.test/v1/spaces/sp1' });
      expect(sent('spaces.createSpace')[0]).toEqual({ organizationId: 'org1', title: 'Guide', emoji: '1f389', parent: 'col1', editMode: 'locked' });
      expect((await request('POST', '/v1/orgs/org1/spaces')).status).toBe(201);
    });

    it('refuses what is not available yet, and unknown fields, naming them', async () => {
      for (const field of ['template', 'computedSource', 'language', 'visibility']) {
        expectInvalid(await request('POST', '/v1/orgs/org1/spaces', { [field]: 'x' }), `"${field}"`);
      }
      expectInvalid(await request('POST', '/v1/orgs/org1/spaces', { empty: false }), 'body.empty');
      expectInvalid(await request('POST', '/v1/orgs/org1/spaces', { title: 'x'.repeat(51) }), 'body.title');
      expect(calls).toEqual([]);
    });

    it('updates with nullable emoji, icon and default level', async () => {
      answers['spaces.updateSpace'] = FULL_SPACE;
      const r = await request('PATCH', '/v1/spaces/sp2', { title: 'New', emoji: null, icon: 'https://cdn.bindery.test/i.png', defaultLevel: null, editMode: 'live' });
      expect(r.status).toBe(200);
      for (const v of VERSIONS) assertMatchesSpec(v, 'patch', '/spaces/{spaceId}', 200, r.body);
      expect(sent('spaces.updateSpace')[0]).toEqual({
        spaceId: 'sp2',
        title: 'New',
        emoji: {},
        icon: { value: 'https://cdn.bindery.test/i.png' },
        defaultLevel: {},
        editMode: 'live',
      });
      await request('PATCH', '/v1/spaces/sp2', { emoji: '1f389', icon: null, defaultLevel: 'inherit' });
      expect(sent('spaces.updateSpace')[1]).toEqual({ spaceId: 'sp2', emoji: { value: '1f389' }, icon: {}, defaultLevel: { value: 'inherit' } });
    });

    it('refuses an emoji and an icon together, and read-only or unknown fields', async () => {
      expectInvalid(await request('PATCH', '/v1/spaces/sp1', { emoji: '1f389', icon: 'https://cdn.bindery.test/i.png' }), 'emoji or an icon');
      for (const field of ['id', 'visibility', 'revision', 'language', 'mergeRules', 'object']) {
        expectInvalid(await request('PATCH', '/v1/spaces/sp1', { [field]: 'x' }), `unknown field "${field}"`);
      }
      expectInvalid(await request('PATCH', '/v1/spaces/sp1', { icon: 'not a url' }));
      expectInvalid(await request('PATCH', '/v1/spaces/sp1', { defaultLevel: 'owner' }));
      expect(calls).toEqual([]);
    });

    it('answers a delete with 205, or 204 when nothing was deleted', async () => {
      answers['spaces.deleteSpace'] = { deleted: true };
      expect((await request('DELETE', '/v1/spaces/sp1')).status).toBe(205);
      answers['spaces.deleteSpace'] = { deleted: false };
      expect((await request('DELETE', '/v1/spaces/sp1')).status).toBe(204);
    });

    it('gets, lists, duplicates, restores and transfers in the official shapes', async () => {
      answers['spaces.getSpace'] = SPACE;
      answers['spaces.listSpaces'] = { items: [SPACE, FULL_SPACE], page: { count: 3, nextPage: 'c1.abc' } };
      answers['spaces.duplicateSpace'] = FULL_SPACE;
      answers['spaces.restoreSpace'] = SPACE;
      answers['spaces.transferSpace'] = SPACE;
      const get = await request('GET', '/v1/spaces/sp1?shareKey=k1');
      for (const v of VERSIONS) assertMatchesSpec(v, 'get', '/spaces/{spaceId}', 200, get.body);
      expect(sent('spaces.getSpace')[0]).toEqual({ spaceId: 'sp1', shareKey: 'k1' });
      const list = await request('GET', '/v1/orgs/org1/spaces?limit=2');
      for (const v of VERSIONS) assertMatchesSpec(v, 'get', '/orgs/{organizationId}/spaces', 200, list.body);
      expect(list.body).toMatchObject({ count: 3, next: { page: 'c1.abc' } });
      expect(sent('spaces.listSpaces')[0]).toEqual({ organizationId: 'org1', page: { page: '', limit: 2 } });
      const copy = await request('POST', '/v1/spaces/sp1/duplicate');
      expect(copy).toMatchObject({ status: 201, location: 'https://api.bindery.test/v1/spaces/sp2' });
      expect((await request('POST', '/v1/spaces/sp1/restore')).status).toBe(200);
      expect((await request('POST', '/v1/spaces/sp1/transfer', { organization: 'org2' })).status).toBe(200);
      expect(sent('spaces.transferSpace')[0]).toEqual({ id: 'sp1', organizationId: 'org2' });
      expectInvalid(await request('POST', '/v1/spaces/sp1/transfer', {}), 'body.organization is required');
    });

    it('moves: parent absent, null or set, and a position among siblings', async () => {
      answers['spaces.moveSpace'] = SPACE;
      await request('POST', '/v1/spaces/sp1/move', { position: { before: { type: 'space', space: 'sp9' }, after: { type: 'collection', collection: 'col9' } } });
      await request('POST', '/v1/spaces/sp1/move', { parent: null });
      await request('POST', '/v1/spaces/sp1/move', { parent: 'col1', position: {} });
      expect(sent('spaces.moveSpace')).toEqual([
        { id: 'sp1', position: { before: { type: 'space', id: 'sp9' }, after: { type: 'collection', id: 'col9' } } },
        { id: 'sp1', parent: {} },
        { id: 'sp1', parent: { value: 'col1' }, position: {} },
      ]);
      expectInvalid(await request('POST', '/v1/spaces/sp1/move', {}));
      expectInvalid(await request('POST', '/v1/spaces/sp1/move', { position: { before: { type: 'space', collection: 'col1' } } }));
      expectInvalid(await request('POST', '/v1/spaces/sp1/move', { position: { before: { type: 'space', space: 'sp9', extra: 1 } } }));
      expect(sent('spaces.moveSpace')).toHaveLength(3);
    });
  });

  describe('collections', () => {
    it('lists nested collections unless nested=false', async () => {
      answers['collections.listCollections'] = { items: [COLLECTION, FULL_COLLECTION], page: PAGE };
      const r = await request('GET', '/v1/orgs/org1/collections');
      for (const v of VERSIONS) assertMatchesSpec(v, 'get', '/orgs/{organizationId}/collections', 200, r.body);
      await request('GET', '/v1/orgs/org1/collections?nested=false&limit=5');
      await request('GET', '/v1/orgs/org1/collections?nested=true');
      expect(sent('collections.listCollections').map((q) => (q as { nested: boolean }).nested)).toEqual([true, false, true]);
      expectInvalid(await request('GET', '/v1/orgs/org1/collections?nested=maybe'), 'query.nested');
    });

    it('creates, updates (nullable description and default level) and deletes', async () => {
      answers['collections.createCollection'] = COLLECTION;
      answers['collections.updateCollection'] = FULL_COLLECTION;
      answers['collections.deleteCollection'] = { deleted: false };
      expect(await request('POST', '/v1/orgs/org1/collections', { title: 'Docs', parent: 'col0' })).toMatchObject({
        status: 201,
        location: 'https://api.bindery.test/v1/collections/col1',
      });
      expect(sent('collections.createCollection')[0]).toEqual({ organizationId: 'org1', title: 'Docs', parent: 'col0' });
      const r = await request('PATCH', '/v1/collections/col2', { description: null, defaultLevel: 'read' });
      for (const v of VERSIONS) assertMatchesSpec(v, 'patch', '/collections/{collectionId}', 200, r.body);
      expect(sent('collections.updateCollection')[0]).toEqual({ collectionId: 'col2', description: {}, defaultLevel: { value: 'read' } });
      expectInvalid(await request('PATCH', '/v1/collections/col2', { description: 'x'.repeat(101) }), 'body.description');
      expectInvalid(await request('PATCH', '/v1/collections/col2', { organization: 'org2' }), 'unknown field "organization"');
      expect((await request('DELETE', '/v1/collections/col2')).status).toBe(204);
    });

    it("lists a collection's spaces, moves and transfers", async () => {
      answers['collections.listCollectionSpaces'] = { items: [SPACE], page: { count: 1 } };
      answers['collections.moveCollection'] = COLLECTION;
      answers['collections.transferCollection'] = COLLECTION;
      const r = await request('GET', '/v1/collections/col1/spaces');
      for (const v of VERSIONS) assertMatchesSpec(v, 'get', '/collections/{collectionId}/spaces', 200, r.body);
      await request('POST', '/v1/collections/col1/move', { parent: null, position: { after: { type: 'space', space: 'sp1' } } });
      expect(sent('collections.moveCollection')[0]).toEqual({ id: 'col1', parent: {}, position: { after: { type: 'space', id: 'sp1' } } });
      expect((await request('POST', '/v1/collections/col1/transfer', { organization: 'org2' })).status).toBe(200);
    });
  });

  describe('permissions', () => {
    it.each([
      ['spaces', 'space', 'sp1'],
      ['collections', 'collection', 'col1'],
    ])('invites users and teams to %s (204); role null removes their grants', async (path, kind, id) => {
      answers['permissions.invite'] = {};
      expect((await request('POST', `/v1/${path}/${id}/permissions`, { role: 'edit', users: ['u2'], teams: ['t1'] })).status).toBe(204);
      expect((await request('POST', `/v1/${path}/${id}/permissions`, { role: null, teams: ['t1'] })).status).toBe(204);
      expect(sent('permissions.invite')).toEqual([
        { target: { kind, id }, role: 'edit', users: ['u2'], teams: ['t1'] },
        { target: { kind, id }, users: [], teams: ['t1'] },
      ]);
      expectInvalid(await request('POST', `/v1/${path}/${id}/permissions`, { role: 'read' }), 'body.users is required', 'body.teams is required');
      expectInvalid(await request('POST', `/v1/${path}/${id}/permissions`, { users: ['u2'] }), 'body.role is required');
      expectInvalid(await request('POST', `/v1/${path}/${id}/permissions`, { role: 'read', users: [] }));
      expectInvalid(await request('POST', `/v1/${path}/${id}/permissions`, { role: 'owner', users: ['u2'] }));
      expect(sent('permissions.invite')).toHaveLength(2);
    });

    it.each([
      ['spaces', 'space', 'sp1', 'Space'],
      ['collections', 'collection', 'col1', 'Collection'],
    ])('updates and removes the grants of users and teams on %s', async (path, kind, id) => {
      answers['permissions.updateGrant'] = {};
      answers['permissions.removeGrant'] = (req: { principalKind: string }) => ({ removed: req.principalKind === 'user' });
      expect((await request('PATCH', `/v1/${path}/${id}/permissions/users/u2`, { role: 'review' })).status).toBe(204);
      expect((await request('PATCH', `/v1/${path}/${id}/permissions/teams/t1`, { role: null })).status).toBe(204);
      expect(sent('permissions.updateGrant')).toEqual([
        { grant: { target: { kind, id }, principalKind: 'user', principalId: 'u2' }, role: 'review' },
        { grant: { target: { kind, id }, principalKind: 'team', principalId: 't1' } },
      ]);
      expectInvalid(await request('PATCH', `/v1/${path}/${id}/permissions/users/u2`, {}), 'body.role is required');
      expect((await request('DELETE', `/v1/${path}/${id}/permissions/users/u2`)).status).toBe(205);
      expect((await request('DELETE', `/v1/${path}/${id}/permissions/teams/t1`)).status).toBe(204);
    });

    it.each([
      ['spaces', 'space', 'sp1', '/spaces/{spaceId}'],
      ['collections', 'collection', 'col1', '/collections/{collectionId}'],
    ])('lists user grants and effective roles on %s with the profiles the caller may see', async (path, kind, id, specPath) => {
      const grants = {
        items: [
          { userId: 'u1', permission: 'admin' },
          { userId: 'hidden', permission: 'read' },
        ],
        page: PAGE,
      };
      answers['permissions.listUserGrants'] = grants;
      answers['permissions.listAggregate'] = grants;
      answers['identity.lookupUsers'] = { users: [USER] };
      const users = await request('GET', `/v1/${path}/${id}/permissions/users`);
      expect(users.body.items).toEqual([{ permission: 'admin', user: expect.objectContaining({ object: 'user', id: 'u1', displayName: 'Ada' }) }]);
      const aggregate = await request('GET', `/v1/${path}/${id}/permissions/aggregate?role=admin&limit=10`);
      for (const v of VERSIONS) {
        assertMatchesSpec(v, 'get', `${specPath}/permissions/users`, 200, users.body);
        assertMatchesSpec(v, 'get', `${specPath}/permissions/aggregate`, 200, aggregate.body);
      }
      expect(sent('identity.lookupUsers')[0]).toEqual({ userIds: ['u1', 'hidden'] });
      expect(sent('permissions.listAggregate')[0]).toEqual({ target: { kind, id }, page: { page: '', limit: 10 }, role: 'admin' });
      expectInvalid(await request('GET', `/v1/${path}/${id}/permissions/aggregate?role=guest`), 'query.role');
    });

    it.each([
      ['spaces', 'sp1', '/spaces/{spaceId}', 'spaces.getSpace', SPACE],
      ['collections', 'col1', '/collections/{collectionId}', 'collections.getCollection', COLLECTION],
    ])('lists team grants on %s with the teams the caller may see in its organization', async (path, id, specPath, get, item) => {
      answers[get] = item;
      answers['permissions.listTeamGrants'] = {
        items: [
          { teamId: 't1', permission: 'edit' },
          { teamId: 'hidden', permission: 'read' },
          { teamId: 'gone', permission: 'read' },
        ],
        page: PAGE,
      };
      answers['teams.getTeam'] = (req: { teamId: string }) => {
        if (req.teamId === 'hidden') throw forbidden('Guests cannot see teams.');
        if (req.teamId === 'gone') throw notFound('Team');
        return TEAM;
      };
      const r = await request('GET', `/v1/${path}/${id}/permissions/teams`);
      expect(r.body.items).toEqual([{ permission: 'edit', team: expect.objectContaining({ object: 'team', id: 't1' }) }]);
      for (const v of VERSIONS) assertMatchesSpec(v, 'get', `${specPath}/permissions/teams`, 200, r.body);
      expect(sent('teams.getTeam')).toContainEqual({ organizationId: 'org1', teamId: 't1' });
    });
  });

  describe("a member's spaces", () => {
    it('asks identity whether the caller may see the member first', async () => {
      answers['members.getMember'] = () => {
        throw notFound('Member');
      };
      expect((await request('GET', '/v1/orgs/org1/members/u2/spaces')).status).toBe(404);
      expect(sent('spaces.listMemberSpaces')).toEqual([]);
    });

    it('lists the spaces with the member’s role in each', async () => {
      answers['members.getMember'] = {};
      answers['spaces.listMemberSpaces'] = { items: [{ permission: 'edit', space: SPACE }], page: { count: 1 } };
      const r = await request('GET', '/v1/orgs/org1/members/u2/spaces?order=desc&limit=5');
      for (const v of VERSIONS) assertMatchesSpec(v, 'get', '/orgs/{organizationId}/members/{userId}/spaces', 200, r.body);
      expect(r.body.items[0]).toMatchObject({ permission: 'edit', space: { object: 'space', id: 'sp1' } });
      expect(sent('spaces.listMemberSpaces')[0]).toEqual({ organizationId: 'org1', userId: 'u2', page: { page: '', limit: 5 }, order: 'desc' });
    });
  });

  describe('the OpenAPI document', () => {
    let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    beforeAll(async () => {
      doc = (await request('GET', '/openapi.json')).body;
    });

    it('is valid OpenAPI 3.1', () => {
      const r = spawnSync(process.execPath, [join(root, 'tools/openapi/validate-document.mjs')], { input: JSON.stringify(doc), encoding: 'utf8' });
      expect({ status: r.status, stderr: r.stderr, ...JSON.parse(r.stdout || '{}') }).toEqual({ status: 0, stderr: '', valid: true, version: '3.1', errors: null });
    });

    it('serves every route with the official response of its operation', () => {
      const vendored = JSON.parse(readFileSync(join(root, 'libs/gateway/http/src/generated/official-schemas.json'), 'utf8')) as {
        operations: Record<string, { schema: JsonSchema }>;
      };
      const problems: string[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops) as Array<
          [string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }]
        >) {
          const schema = Object.entries(op.responses).find(([status, r]) => /^2/.test(status) && r.content)?.[1].content?.['application/json']?.schema;
          if (schema && JSON.stringify(schema) !== JSON.stringify(vendored.operations[op.operationId]?.schema)) problems.push(`${method} ${path} ${op.operationId}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('says of every request string what it takes: a format, a fixed value, or a pattern refusing NUL', () => {
      const ajv = addFormats(new Ajv({ strict: false }));
      const loose: string[] = [];
      const visit = (node: unknown, where: string) => {
        if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${where}[${i}]`));
        else if (node && typeof node === 'object') {
          const s = node as JsonSchema;
          if (s.type === 'string' && !s.format && !s.enum && s.const === undefined) {
            const valid = typeof s.pattern === 'string' ? ajv.compile(s) : () => true;
            if (valid('a\u0000b') || valid('\u0000')) loose.push(where);
          }
          for (const [k, v] of Object.entries(s)) if (typeof v === 'object' && k !== 'responses') visit(v, `${where}.${k}`);
        }
      };
      visit(doc.paths, 'paths');
      expect(loose).toEqual([]);
    });
  });
});

describe('content routes open to site tokens', () => {
  it('are the reads of a published space: the space, a revision by id, its page tree, pages by id or path, page documents and meta links, reusable contents, files', () => {
    const f = fakes({});
    const registry = registerContentRoutes(new RouteRegistry(), f.content, f.identity, urls, async () => {
      throw new Error('no change request is read here');
    });
    const open = registry.routes.filter((r) => r.siteToken).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(open.sort()).toEqual(
      [
        'GET /v1/spaces/:spaceId',
        'GET /v1/spaces/:spaceId/content/pages',
        'GET /v1/spaces/:spaceId/content/page/:pageId',
        'GET /v1/spaces/:spaceId/content/path/*pagePath',
        'GET /v1/spaces/:spaceId/content/files',
        'GET /v1/spaces/:spaceId/content/files/:fileId',
        'GET /v1/spaces/:spaceId/revisions/:revisionId',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/pages',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/path/*pagePath',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/files',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/files/:fileId',
        'GET /v1/spaces/:spaceId/content/reusable-contents/:reusableContentId',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/document',
        'GET /v1/spaces/:spaceId/content/page/:pageId/meta-links',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links',
        'GET /v1/spaces/:spaceId/revisions/:revisionId/changes',
        'GET /v1/spaces/:spaceId/embed',
      ].sort(),
    );
    // every one of them is a read
    expect(registry.routes.filter((r) => r.siteToken && r.method !== 'get')).toEqual([]);
  });
});
