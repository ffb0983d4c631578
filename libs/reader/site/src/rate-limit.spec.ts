import { clientAddressOf, RateLimiter } from './rate-limit';

test('a bucket per client: the burst at once, then tokens at the rate, Retry-After until the next', () => {
  let now = 0;
  const limiter = new RateLimiter({ burst: 2, perMinute: 6, clock: () => now });
  expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 0]);
  expect(limiter.take('a')).toBe(10);
  expect(limiter.take('b')).toBe(0);
  now = 5_000;
  expect(limiter.take('a')).toBe(5);
  now = 10_000;
  expect(limiter.take('a')).toBe(0);
  expect(limiter.take('a')).toBe(10);
  // a long wait refills the bucket to its size, no more
  now = 1_000_000;
  expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 10]);
});

test('clients past the bound are forgotten, the least recently seen first', () => {
  const limiter = new RateLimiter({ burst: 1, perMinute: 1, maxClients: 2, clock: () => 0 });
  expect([limiter.take('a'), limiter.take('b'), limiter.take('a')]).toEqual([0, 0, 60]);
  expect(limiter.take('c')).toBe(0); // b forgotten
  expect(limiter.take('b')).toBe(0);
  expect(limiter.take('a')).toBe(0); // a forgotten when b came back
});

test('the client address: the peer, or the last one a named proxy header carries', () => {
  const req = { headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' }, socket: { remoteAddress: '10.0.0.1' } };
  expect(clientAddressOf(req)).toBe('10.0.0.1');
  expect(clientAddressOf(req, 'X-Forwarded-For')).toBe('198.51.100.7');
  expect(clientAddressOf({ headers: {}, socket: { remoteAddress: '10.0.0.1' } }, 'x-forwarded-for')).toBe('10.0.0.1');
});
