import { isForbiddenAddress } from './address-policy';

describe('isForbiddenAddress', () => {
  it.each<[string, boolean]>([
    // IPv4 forbidden
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['0.0.0.0', true],
    ['0.1.2.3', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['224.0.0.1', true],
    ['239.255.255.250', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    ['192.0.2.10', true],
    // IPv4 allowed, including the neighbours of every forbidden range edge
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['93.184.216.34', false],
    ['172.15.255.255', false],
    ['172.32.0.0', false],
    ['100.63.255.255', false],
    ['100.128.0.0', false],
    ['169.253.255.255', false],
    ['11.0.0.0', false],
    ['126.255.255.255', false],
    ['128.0.0.0', false],
    ['192.167.255.255', false],
    ['223.255.255.255', false],
    // IPv6 forbidden
    ['::1', true],
    ['::', true],
    ['0:0:0:0:0:0:0:1', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['fe80::1', true],
    ['febf:ffff::1', true],
    ['fe80::1%eth0', true],
    ['ff02::1', true],
    ['[::1]', true],
    // IPv4 embedded in IPv6
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:a9fe:a9fe', true], // 169.254.169.254
    ['::127.0.0.1', true], // IPv4-compatible
    ['::7f00:1', true],
    ['64:ff9b::127.0.0.1', true], // NAT64
    ['64:ff9b::c0a8:101', true], // NAT64 192.168.1.1
    ['2002:7f00:1::', true], // 6to4 of 127.0.0.1
    ['::ffff:0:7f00:1', true], // IPv4-translated
    // IPv6 allowed
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
    ['::ffff:808:808', false],
    ['64:ff9b::8.8.8.8', false],
    ['2002:808:808::', false],
    ['fec0::1', true],
    ['fbff::1', false],
    ['fe7f::1', false],
    // Not IP literals: fail closed
    ['localhost', true],
    ['example.com', true],
    ['0177.0.0.1', true],
    ['2130706433', true],
    ['', true],
  ])('%s -> forbidden=%s', (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });
});

// Node's WHATWG URL parser canonicalises every IPv4 spelling for special schemes;
// the policy relies on that, so these rows pin the behaviour down.
describe('URL hostname normalisation feeding isForbiddenAddress', () => {
  it.each<[string, string, boolean]>([
    ['http://2130706433/', '127.0.0.1', true],
    ['http://0177.0.0.1/', '127.0.0.1', true],
    ['http://0x7f.1/', '127.0.0.1', true],
    ['http://0x7f000001/', '127.0.0.1', true],
    ['http://017700000001/', '127.0.0.1', true],
    ['http://127.1/', '127.0.0.1', true],
    ['http://127.0.0.1./', '127.0.0.1', true],
    ['https://0/', '0.0.0.0', true],
    ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254', true],
    ['http://3232235777/', '192.168.1.1', true],
    ['http://[::1]/', '[::1]', true],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', true],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '[::ffff:7f00:1]', true],
    ['http://[::127.0.0.1]/', '[::7f00:1]', true],
    ['http://[64:ff9b::10.0.0.1]/', '[64:ff9b::a00:1]', true],
    ['http://[fe80::abcd]/', '[fe80::abcd]', true],
    ['http://134744072/', '8.8.8.8', false],
    ['http://0x08080808/', '8.8.8.8', false],
    ['http://[2001:4860:4860::8888]/', '[2001:4860:4860::8888]', false],
    ['https://user:pw@93.184.216.34:8443/x', '93.184.216.34', false],
  ])('%s has hostname %s (forbidden=%s)', (url, hostname, forbidden) => {
    const parsed = new URL(url);
    expect(parsed.hostname).toBe(hostname);
    expect(isForbiddenAddress(parsed.hostname)).toBe(forbidden);
  });
});
