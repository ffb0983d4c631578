import { redactUrlPath } from './redact-url';

describe('redactUrlPath', () => {
  it.each([
    ['/v1/orgs/o1/invites/gb_invite_secret', '/v1/orgs/o1/invites/[redacted]'],
    ['/v1/orgs/o1/link-invites/abc/x', '/v1/orgs/o1/link-invites/[redacted]/x'],
    ['/v1/orgs/o1?token=zzz', '/v1/orgs/o1'],
    ['/v1/orgs/o1/members', '/v1/orgs/o1/members'],
    ['/v1/orgs/o1/invites', '/v1/orgs/o1/invites'],
    ['/downloads/eyJ0b2tlbiJ9.c2ln/report.pdf', '/downloads/[redacted]/report.pdf'],
  ])('%s → %s', (input, output) => {
    expect(redactUrlPath(input)).toBe(output);
  });
});
