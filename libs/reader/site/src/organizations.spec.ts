import { request } from 'node:http';
import { serveSampleReader, ServedReader } from './testing/serve';

/** A GET with a Host of our choosing (fetch does not let a Host header through). */
function getAt(r: ServedReader, host: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const u = new URL(r.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers: { ...headers, Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sites of two organizations under one reader', () => {
  let r: ServedReader;
  beforeAll(async () => {
    r = await serveSampleReader();
  });
  afterAll(() => r.close());
  const get = (path: string) => fetch(`${r.url}${path}`, { redirect: 'manual' });

  test('each organization publishes a site named `acme`, each read at `/<organization>/acme`', async () => {
    const acme = await get('/acme-inc/acme/install');
    expect(acme.status).toBe(200);
    expect(await acme.text()).toContain('<h1>Install</h1>');
    const globex = await get('/globex/acme/');
    expect(globex.status).toBe(200);
    const html = await globex.text();
    expect(html).toContain('<h1>Globex home</h1>');
    expect(html).toContain(`<link rel="canonical" href="${r.url}/globex/acme/">`);
    expect((await get('/globex/acme/install')).status).toBe(404);
  });

  test('the earlier form `/<basename>/…` moves for good to the first site of that basename, its path and query kept', async () => {
    const moved = await get('/acme/install?x=1');
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/acme-inc/acme/install?x=1']);
    expect((await get('/team/handbook')).headers.get('location')).toBe('/acme-inc/team/handbook');
    for (const path of ['/globex', '/globex/', '/nobody/acme', '/draft/']) expect([path, (await get(path)).status]).toEqual([path, 404]);
  });
});

describe('an organization at its own host below the reader domain', () => {
  let r: ServedReader;
  const host = 'acme-inc.docs.test';
  beforeAll(async () => {
    r = await serveSampleReader({ domain: 'docs.test' });
  });
  afterAll(() => r.close());

  test('serves its sites at `/<basename>`, with links, canonical URLs and listings at that host', async () => {
    const page = await getAt(r, host, '/acme/install');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Install</h1>');
    expect(page.body).toContain(`<link rel="canonical" href="http://${host}/acme/install">`);
    expect(page.body).toContain('<a rel="next" href="/acme/install/docker">');
    const llms = await getAt(r, host, '/acme/llms.txt');
    expect(llms.body).toContain(`- [Install](http://${host}/acme/install.md): Install Acme.`);
    expect((await getAt(r, 'globex.docs.test', '/acme/')).body).toContain('<h1>Globex home</h1>');
    expect((await getAt(r, 'nobody.docs.test', '/acme/')).status).toBe(404);
  });

  test('cookies of a share link and a visitor token are scoped to the site below that host', async () => {
    const share = await getAt(r, host, '/team/~share/bshare-good-key/handbook');
    expect([share.status, share.headers.location, share.headers['set-cookie']]).toEqual([
      303,
      '/team/handbook',
      ['bindery_share=bshare-good-key; Path=/team/; HttpOnly; SameSite=Lax'],
    ]);
    expect((await getAt(r, host, '/team/handbook', { Cookie: 'bindery_share=bshare-good-key' })).status).toBe(200);
    expect((await getAt(r, host, '/team/handbook')).status).toBe(404);
    const jwt = await getAt(r, host, '/members/area?jwt_token=jwt-pro');
    expect(jwt.headers['set-cookie']).toEqual(['bindery_visitor=jwt-pro; Path=/members/; HttpOnly; SameSite=Lax']);
  });
});
