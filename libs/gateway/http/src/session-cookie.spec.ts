import { clearedSessionCookie, cookieIsSecure, cookieRequestAllowed, sessionCookieOf, sessionSetCookie } from './session-cookie';

describe('the session cookie', () => {
  test('is read among other cookies, by its exact name', () => {
    expect(sessionCookieOf('a=1; bindery_session=bsess_x; b=2')).toBe('bsess_x');
    expect(sessionCookieOf('xbindery_session=bsess_x')).toBeUndefined();
    expect(sessionCookieOf('bindery_session=')).toBeUndefined();
    expect(sessionCookieOf(undefined)).toBeUndefined();
  });

  test('is Secure except on a plain-http loopback public URL', () => {
    expect(cookieIsSecure('https://docs.example')).toBe(true);
    expect(cookieIsSecure('http://docs.example')).toBe(true);
    expect(cookieIsSecure('https://127.0.0.1:8080')).toBe(true);
    expect(cookieIsSecure('http://127.0.0.1:8080')).toBe(false);
    expect(cookieIsSecure('http://localhost:8080')).toBe(false);
    const expires = new Date(Date.now() + 3600_000);
    expect(sessionSetCookie('bsess_s', expires, 'https://docs.example')).toMatch(/^bindery_session=bsess_s; Max-Age=3(599|600); Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    expect(clearedSessionCookie('http://127.0.0.1:1')).toBe('bindery_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
  });

  test('lets state changes through only from this origin', () => {
    const url = 'https://docs.example';
    expect(cookieRequestAllowed('GET', {}, url)).toBe(true);
    expect(cookieRequestAllowed('POST', {}, url)).toBe(false);
    expect(cookieRequestAllowed('POST', { origin: 'https://docs.example' }, url)).toBe(true);
    expect(cookieRequestAllowed('DELETE', { origin: 'https://evil.example' }, url)).toBe(false);
    expect(cookieRequestAllowed('PATCH', { 'sec-fetch-site': 'same-origin' }, url)).toBe(true);
    expect(cookieRequestAllowed('PUT', { 'sec-fetch-site': 'same-site', origin: 'https://docs.example' }, url)).toBe(false);
    expect(cookieRequestAllowed('POST', { origin: 'null' }, url)).toBe(false);
  });
});
