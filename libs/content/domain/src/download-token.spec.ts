import { DownloadTokens } from './download-token';

const SECRET = 'a'.repeat(32);
const file = { spaceId: 'spaceA', blobId: 'blob1', name: 'report é.pdf', contentType: 'application/pdf' };

function tokensAt(now: { t: number }, secret = SECRET, ttl = 60_000) {
  return new DownloadTokens(secret, ttl, () => now.t);
}

/** Replaces the payload of a token, keeping its signature (what an attacker can do without the secret). */
function withPayload(token: string, payload: unknown[]): string {
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${token.split('.')[1]}`;
}

describe('download tokens', () => {
  test('a signed token verifies into the grant it was made for, URL-safe', () => {
    const now = { t: 1_000_000 };
    const token = tokensAt(now).sign(file);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const grant = tokensAt(now).verify(token);
    expect(grant).toMatchObject(file);
    expect(grant!.expiresAt).toBeGreaterThanOrEqual(now.t + 60_000);
    expect(grant!.expiresAt).toBeLessThanOrEqual(now.t + 66_000);
  });

  test('two reads close together give the same URL (expiry rounded up)', () => {
    const now = { t: 1_000_000 };
    const a = tokensAt(now).sign(file);
    now.t += 1;
    expect(tokensAt(now).sign(file)).toBe(a);
  });

  test('expired tokens are refused, from the expiry on', () => {
    const now = { t: 5_000_000 };
    const tokens = tokensAt(now);
    const token = tokens.sign(file);
    const { expiresAt } = tokens.verify(token)!;
    now.t = expiresAt - 1;
    expect(tokens.verify(token)).toBeDefined();
    now.t = expiresAt;
    expect(tokens.verify(token)).toBeUndefined();
  });

  test('a token signed with another secret is refused', () => {
    const now = { t: 0 };
    expect(tokensAt(now, 'b'.repeat(32)).verify(tokensAt(now).sign(file))).toBeUndefined();
  });

  test('a payload moved to another space, blob, name or expiry under the same signature is refused', () => {
    const now = { t: 0 };
    const tokens = tokensAt(now);
    const token = tokens.sign(file);
    const { expiresAt } = tokens.verify(token)!;
    for (const payload of [
      [1, 'spaceB', 'blob1', file.name, file.contentType, expiresAt],
      [1, 'spaceA', 'blob2', file.name, file.contentType, expiresAt],
      [1, 'spaceA', 'blob1', 'other.pdf', file.contentType, expiresAt],
      [1, 'spaceA', 'blob1', file.name, 'text/html', expiresAt],
      [1, 'spaceA', 'blob1', file.name, file.contentType, expiresAt + 3_600_000],
    ]) {
      expect(tokens.verify(withPayload(token, payload))).toBeUndefined();
    }
  });

  test('flipping any character of the token makes it invalid', () => {
    const tokens = tokensAt({ t: 0 });
    const token = tokens.sign(file);
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const flipped = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      if (flipped === token) continue;
      expect(tokens.verify(flipped)).toBeUndefined();
    }
  });

  test.each([[''], ['.'], ['abc'], ['a.b.c'], ['a+b.c'], ['x'.repeat(5000)], [undefined], [42]])('malformed token #%# is refused without throwing', (token) => {
    expect(tokensAt({ t: 0 }).verify(token)).toBeUndefined();
  });

  test('a short secret or lifetime is refused at construction', () => {
    expect(() => new DownloadTokens('short', 60_000)).toThrow(/at least 32/);
    expect(() => new DownloadTokens(SECRET, 999)).toThrow(/at least 1000/);
  });
});
