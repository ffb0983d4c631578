import { createHmac } from 'node:crypto';
import { signVisitorToken, verifyVisitorToken } from './visitor-tokens';

const KEY = 'site-key';
const NOW = Date.parse('2026-03-01T00:00:00.000Z');
const exp = NOW / 1000 + 600;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('visitor tokens', () => {
  it('verifies an HS256 JWT signed with the key, answering every claim and its expiry', () => {
    const token = signVisitorToken({ sub: 'v1', plan: 'pro', exp }, KEY);
    expect(verifyVisitorToken(token, KEY, NOW)).toEqual({ claims: { sub: 'v1', plan: 'pro', exp }, expiresAt: exp * 1000 });
    // what jsonwebtoken makes: the key's text is the secret
    const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ a: 1, exp })}`;
    expect(verifyVisitorToken(`${signed}.${createHmac('sha256', KEY).update(signed).digest('base64url')}`, KEY, NOW)?.claims).toEqual({ a: 1, exp });
  });

  it('refuses every other token', () => {
    const good = signVisitorToken({ exp }, KEY);
    const [h, p, sig] = good.split('.');
    const cases: Record<string, string> = {
      'another key': signVisitorToken({ exp }, 'other'),
      expired: signVisitorToken({ exp: NOW / 1000 }, KEY),
      'no exp': signVisitorToken({ sub: 'x' }, KEY),
      'exp not a number': signVisitorToken({ exp: String(exp) }, KEY),
      'not yet valid': signVisitorToken({ exp, nbf: NOW / 1000 + 1 }, KEY),
      'alg none': `${b64({ alg: 'none' })}.${p}.`,
      'alg HS512': `${b64({ alg: 'HS512' })}.${p}.${sig}`,
      'payload swapped': `${h}.${b64({ exp, admin: true })}.${sig}`,
      'two parts': `${h}.${p}`,
      'not base64url': `${h}.${p}.${sig}!`,
      'too long': `${h}.${'a'.repeat(9000)}.${sig}`,
      'payload not an object': (() => {
        const signed = `${b64({ alg: 'HS256' })}.${b64([exp])}`;
        return `${signed}.${createHmac('sha256', KEY).update(signed).digest('base64url')}`;
      })(),
    };
    for (const [name, token] of Object.entries(cases)) expect({ name, verified: verifyVisitorToken(token, KEY, NOW) }).toEqual({ name, verified: undefined });
    expect(verifyVisitorToken(good, '', NOW)).toBeUndefined();
    expect(verifyVisitorToken(good, KEY, NOW)).toBeDefined();
  });
});
