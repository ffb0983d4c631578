import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the outbound guard must refuse, shared by every end-to-end test of a feature that fetches a URL
 * a user chose (website import, OpenAPI specs): the spellings, and a recorder to prove no request
 * reached the loopback canary.
 */

/** A loopback server that records every request reaching it and answers with a page (or a redirect). */
export async function recorder(handler: (req: nodeHttp.IncomingMessage, res: nodeHttp.ServerResponse) => void) {
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

/**
 * Every spelling of "this machine, a private network or the cloud metadata service" a fetch must
 * refuse: `p` is the canary's port, `r` a redirector's (on loopback, redirecting to the canary), `path`
 * the path asked for on them.
 */
export function refusedUrlSpellings(p: number, r: number, path = '/docs/'): string[] {
  return [
    // loopback, plainly and by name (localhost resolves through /etc/hosts: a DNS name answering 127.0.0.1)
    `http://127.0.0.1:${p}${path}`,
    `http://localhost:${p}${path}`,
    `http://LOCALHOST:${p}${path}`,
    `http://localhost.:${p}${path}`,
    `http://127.0.0.1.:${p}${path}`,
    `https://127.0.0.1:${p}${path}`,
    `http://127.0.0.2:${p}${path}`,
    `http://127.255.255.254:${p}${path}`,
    // shortened, decimal, octal and hex IPv4
    `http://127.1:${p}${path}`,
    `http://127.0.1:${p}${path}`,
    `http://2130706433:${p}${path}`,
    `http://0x7f000001:${p}${path}`,
    `http://0x7F.0x0.0x0.0x1:${p}${path}`,
    `http://0x7f.1:${p}${path}`,
    `http://0177.0.0.1:${p}${path}`,
    `http://0177.0000.0000.0001:${p}${path}`,
    `http://017700000001:${p}${path}`,
    `http://127.000.000.001:${p}${path}`,
    `http://0:${p}${path}`,
    `http://0.0.0.0:${p}${path}`,
    // percent-encoded and full-width digits (the URL parser normalises them to 127.0.0.1)
    `http://%31%32%37.0.0.1:${p}${path}`,
    `http://１２７.０.０.１:${p}${path}`,
    // credentials and confusing userinfo
    `http://user:secret@127.0.0.1:${p}${path}`,
    `http://example.com@127.0.0.1:${p}${path}`,
    // IPv6 loopback, IPv4-mapped, -compatible, NAT64 and 6to4 forms
    `http://[::1]:${p}${path}`,
    `http://[0:0:0:0:0:0:0:1]:${p}${path}`,
    `http://[::]:${p}${path}`,
    `http://[::ffff:127.0.0.1]:${p}${path}`,
    `http://[::ffff:7f00:1]:${p}${path}`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${p}${path}`,
    `http://[::127.0.0.1]:${p}${path}`,
    `http://[64:ff9b::127.0.0.1]:${p}${path}`,
    `http://[2002:7f00:1::]:${p}${path}`,
    // private networks, carrier-grade NAT, link-local, unique local
    `http://10.0.0.1:${p}${path}`,
    `http://172.16.0.1:${p}${path}`,
    `http://192.168.1.1:${p}${path}`,
    `http://100.64.0.1:${p}${path}`,
    `http://[fc00::1]:${p}${path}`,
    `http://[fe80::1]:${p}${path}`,
    `http://[::ffff:10.0.0.1]:${p}${path}`,
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
    `ftp://127.0.0.1:${p}${path}`,
    `gopher://127.0.0.1:${p}/_GET`,
    `ws://127.0.0.1:${p}${path}`,
  ];
}
