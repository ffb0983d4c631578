import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { unauthenticated } from '@bindery/platform/errors';
import { siteCaller, SITE_TOKEN_REFUSAL } from '@bindery/platform/grpc';
import { createGatewayApp } from './gateway-app';
import { RouteRegistry } from './route-registry';
import { object, TEXT_PATTERN } from './schemas';

describe('gateway app: authentication comes before the body', () => {
  let server: Server;
  let base: string;
  let authentications = 0;

  beforeAll(async () => {
    const body = object({ title: { type: 'string', minLength: 2 } }, ['title']);
    const echo = async ({ body: b }: { body: unknown }) => ({ status: 201, body: b });
    const registry = new RouteRegistry().add(
      { method: 'post', path: '/private', operationId: 'private', summary: 'needs a user', tags: [], body, success: { status: 201, description: 'ok' }, handler: echo },
      {
        method: 'post',
        path: '/public',
        operationId: 'public',
        summary: 'anyone',
        tags: [],
        auth: 'none',
        body,
        success: { status: 201, description: 'ok' },
        alternatives: [{ status: 204, description: 'nothing' }],
        handler: echo,
      },
      {
        method: 'post',
        path: '/read',
        operationId: 'read',
        summary: 'a read a site token may make',
        tags: [],
        siteToken: true,
        body,
        success: { status: 201, description: 'ok' },
        handler: async ({ caller, body: b }) => ({ status: 201, body: { ...(b as object), site: caller.site?.siteId ?? null } }),
      },
      {
        method: 'post',
        path: '/optional',
        operationId: 'optional',
        summary: 'anyone; a token sent is checked',
        tags: [],
        auth: 'optional',
        body,
        success: { status: 201, description: 'ok' },
        handler: async ({ caller, body: b }) => ({ status: 201, body: { ...(b as object), user: caller?.userId ?? null } }),
      },
    );
    const app = createGatewayApp({
      registry,
      async authenticate(header) {
        authentications++;
        if (header === 'Bearer site') return siteCaller({ organizationId: 'o1', siteId: 's1', spaceIds: ['sp1'], tokenId: 't1' });
        if (header !== 'Bearer good') throw unauthenticated();
        return { userId: 'u1', isInstanceAdmin: false };
      },
      readiness: {},
      publicUrl: 'http://127.0.0.1',
      requestBudgetMs: 1000,
      bodyLimit: '1kb',
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (path: string, payload: string, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(base + path, { method: 'POST', headers, body: payload });
    return { status: res.status, body: await res.json() };
  };
  const malformed = '{"title": ';
  const oversized = JSON.stringify({ title: 'x'.repeat(4096) });
  const invalid = JSON.stringify({ title: 1 });

  it('answers 401 to a caller without a valid token, whatever the body', async () => {
    for (const payload of [malformed, oversized, invalid, JSON.stringify({ title: 'fine' })]) {
      for (const token of [undefined, 'bad']) {
        const res = await post('/private', payload, token);
        expect({ payload: payload.slice(0, 20), token, status: res.status }).toEqual({ payload: payload.slice(0, 20), token, status: 401 });
        expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } });
      }
    }
  });

  it('reads and validates the body once the caller is known', async () => {
    expect((await post('/private', malformed, 'good')).status).toBe(400);
    expect((await post('/private', oversized, 'good')).status).toBe(413);
    expect((await post('/private', invalid, 'good')).status).toBe(400);
    expect(await post('/private', JSON.stringify({ title: 'fine' }), 'good')).toEqual({ status: 201, body: { title: 'fine' } });
  });

  it('answers 405 with Allow for a served path and another method, 204 with Allow to OPTIONS, 404 elsewhere', async () => {
    const trace = await fetch(`${base}/private`, { method: 'DELETE', headers: { authorization: 'Bearer good' } });
    expect(trace.status).toBe(405);
    expect(trace.headers.get('allow')).toBe('OPTIONS, POST');
    expect(await trace.json()).toEqual({ error: { code: 405, message: expect.stringContaining('DELETE is not served on /private') } });
    const options = await fetch(`${base}/private`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('OPTIONS, POST');
    expect((await fetch(`${base}/nowhere`, { method: 'DELETE' })).status).toBe(404);
  });

  it('documents the other answers of a route, and the text rule of its strings', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(Object.keys(doc.paths['/private'].post.responses).sort()).toEqual(['201', 'default']);
    expect(doc.paths['/public'].post.responses['204']).toEqual({ description: 'nothing' });
    expect(doc.paths['/public'].post.requestBody.content['application/json'].schema.properties.title.pattern).toBe(TEXT_PATTERN);
  });

  it('keeps validating public routes, without asking for a token', async () => {
    const before = authentications;
    expect((await post('/public', malformed)).status).toBe(400);
    expect((await post('/public', oversized)).status).toBe(413);
    expect((await post('/public', invalid)).status).toBe(400);
    expect((await post('/public', JSON.stringify({ title: 'fine' }))).status).toBe(201);
    expect(authentications).toBe(before);
  });

  it('answers 403 to a site token on every route not declared siteToken, before reading the body', async () => {
    for (const payload of [malformed, oversized, invalid, JSON.stringify({ title: 'fine' })]) {
      expect(await post('/private', payload, 'site')).toEqual({ status: 403, body: { error: { code: 403, message: SITE_TOKEN_REFUSAL } } });
    }
    expect(await post('/read', JSON.stringify({ title: 'fine' }), 'site')).toEqual({ status: 201, body: { title: 'fine', site: 's1' } });
    expect((await post('/read', invalid, 'site')).status).toBe(400);
    // the route stays open to users
    expect(await post('/read', JSON.stringify({ title: 'fine' }), 'good')).toEqual({ status: 201, body: { title: 'fine', site: null } });
  });

  it('takes a request without credentials on an optional route, and checks those sent', async () => {
    const before = authentications;
    const fine = JSON.stringify({ title: 'fine' });
    expect(await post('/optional', fine)).toEqual({ status: 201, body: { title: 'fine', user: null } });
    expect((await post('/optional', invalid)).status).toBe(400);
    expect(authentications).toBe(before);
    expect(await post('/optional', fine, 'good')).toEqual({ status: 201, body: { title: 'fine', user: 'u1' } });
    expect((await post('/optional', fine, 'bad')).status).toBe(401);
    expect((await post('/optional', fine, 'site')).status).toBe(403);
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(doc.paths['/optional'].post.security).toEqual([{}, { bearer: [] }, { session: [] }]);
    expect(doc.paths['/private'].post.security).toBeUndefined();
  });
});
