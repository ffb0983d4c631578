import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';

/** A loopback server that records every request reaching it and answers with a page (or a redirect). */
async function recorder(handler: (req: nodeHttp.IncomingMessage, res: nodeHttp.ServerResponse) => void) {
  const requests: string[] = [];
  const server = nodeHttp.createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Every spelling of "this machine, a private network or the cloud metadata service" the import must refuse. */
function spellings(p: number, r: number): string[] {
  return [
    // loopback, plainly and by name (localhost resolves through /etc/hosts: a DNS name answering 127.0.0.1)
    `http://127.0.0.1:${p}/docs/`,
    `http://localhost:${p}/docs/`,
    `http://LOCALHOST:${p}/docs/`,
    `http://localhost.:${p}/docs/`,
    `http://127.0.0.1.:${p}/docs/`,
    `https://127.0.0.1:${p}/docs/`,
    `http://127.0.0.2:${p}/docs/`,
    `http://127.255.255.254:${p}/docs/`,
    // shortened, decimal, octal and hex IPv4
    `http://127.1:${p}/docs/`,
    `http://127.0.1:${p}/docs/`,
    `http://2130706433:${p}/docs/`,
    `http://0x7f000001:${p}/docs/`,
    `http://0x7F.0x0.0x0.0x1:${p}/docs/`,
    `http://0x7f.1:${p}/docs/`,
    `http://0177.0.0.1:${p}/docs/`,
    `http://0177.0000.0000.0001:${p}/docs/`,
    `http://017700000001:${p}/docs/`,
    `http://127.000.000.001:${p}/docs/`,
    `http://0:${p}/docs/`,
    `http://0.0.0.0:${p}/docs/`,
    // percent-encoded and full-width digits (the URL parser normalises them to 127.0.0.1)
    `http://%31%32%37.0.0.1:${p}/docs/`,
    `http://１２７.０.０.１:${p}/docs/`,
    // credentials and confusing userinfo
    `http://user:secret@127.0.0.1:${p}/docs/`,
    `http://example.com@127.0.0.1:${p}/docs/`,
    // IPv6 loopback, IPv4-mapped, -compatible, NAT64 and 6to4 forms
    `http://[::1]:${p}/docs/`,
    `http://[0:0:0:0:0:0:0:1]:${p}/docs/`,
    `http://[::]:${p}/docs/`,
    `http://[::ffff:127.0.0.1]:${p}/docs/`,
    `http://[::ffff:7f00:1]:${p}/docs/`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${p}/docs/`,
    `http://[::127.0.0.1]:${p}/docs/`,
    `http://[64:ff9b::127.0.0.1]:${p}/docs/`,
    `http://[2002:7f00:1::]:${p}/docs/`,
    // private networks, carrier-grade NAT, link-local, unique local
    `http://10.0.0.1:${p}/docs/`,
    `http://172.16.0.1:${p}/docs/`,
    `http://192.168.1.1:${p}/docs/`,
    `http://100.64.0.1:${p}/docs/`,
    `http://[fc00::1]:${p}/docs/`,
    `http://[fe80::1]:${p}/docs/`,
    `http://[::ffff:10.0.0.1]:${p}/docs/`,
    // cloud metadata, in several spellings
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
    'http://0xa9fea9fe/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    // redirects towards the canary: the redirector itself is on loopback, so the first hop is refused
    `http://127.0.0.1:${r}/to-canary`,
    `http://localhost:${r}/to-canary`,
    `http://[::ffff:127.0.0.1]:${r}/to-canary`,
    // schemes other than http(s)
    `file:///etc/passwd`,
    `ftp://127.0.0.1:${p}/docs/`,
    `gopher://127.0.0.1:${p}/_GET`,
    `ws://127.0.0.1:${p}/docs/`,
  ];
}

describe('website import refuses loopback, private and metadata addresses (outbound guard on, as by default)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><h1>Canary</h1></main></body></html>'));
    redirector = await recorder((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/docs/` }).end());
    sut = await sharedSystem();
    // The shared system runs with the guard's default: private addresses refused.
    expect(sut.env.BINDERY_OUTBOUND_ALLOW_PRIVATE).toBeUndefined();
    const owner = await createUser(sut, 'ssrf-owner');
    orgId = await createOrganization(sut, owner, 'SSRF');
    admin = http(sut.baseUrl, owner.token);
  });
  afterAll(async () => {
    await canary?.close();
    await redirector?.close();
  });

  test('40+ spellings: each 400 with the error body, nothing created, no request reaches the canary or the redirector', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Target' })).id;
    const revision = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    const urls = spellings(canary.port, redirector.port);
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const answers: Array<[string, number, string]> = [];
    for (const url of urls) {
      const res = await admin.post(`/v1/spaces/${spaceId}/content/import`, { source: 'website', url });
      assertErrorBody(res.status, res.body);
      answers.push([url, res.status, res.body.error.message]);
    }
    expect(answers.filter(([, status]) => status !== 400)).toEqual([]);
    // messages name the host at most, never the URL (it may carry credentials)
    expect(answers.filter(([, , message]) => /secret|meta-data|docs/.test(message))).toEqual([]);
    expect(canary.requests).toEqual([]);
    expect(redirector.requests).toEqual([]);
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revision);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
  });
});
