import { assertCanJoinByEmailDomain, assertCanJoinWithLinkInvite, assertCanManageLinkInvites, LinkInviteRecord, linkInviteRedundant } from './link-invites';
import { organizationPermissions, Standing } from './organization-policy';
import { RoleOrGuest } from './roles';

const as = (role: RoleOrGuest): Standing => ({ role, ownsTeam: false });
const invite = (extra: Partial<LinkInviteRecord> = {}): LinkInviteRecord => ({
  _id: 'org:ref',
  organizationId: 'org',
  secret: 'gb_invite_x',
  role: 'edit',
  createdBy: 'u',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  ...extra,
});
const kindOf = (f: () => void): string => {
  try {
    f();
    return 'ok';
  } catch (err) {
    return (err as { kind: string }).kind;
  }
};

describe('link invite policy', () => {
  // [caller, outcome of managing (create/list/get/update/delete)]
  const manage: Array<[string, string, Standing | undefined]> = [
    ['non-member', 'not_found', undefined],
    ['guest', 'forbidden', as(null)],
    ['read', 'forbidden', as('read')],
    ['comment', 'forbidden', as('comment')],
    ['edit', 'forbidden', as('edit')],
    ['review', 'forbidden', as('review')],
    ['create', 'forbidden', as('create')],
    ['admin', 'ok', as('admin')],
  ];

  it.each(manage)('managing link invites as %s: %s', (_name, expected, standing) => {
    expect(kindOf(() => assertCanManageLinkInvites(standing))).toBe(expected);
    // The same answer as the organization's permissions object.
    expect(expected === 'ok').toBe(organizationPermissions(standing).admin);
  });

  // [caller, invite role, redundant]
  const redundant: Array<[string, RoleOrGuest, boolean, Standing | undefined]> = [
    ['non-member', null, false, undefined],
    ['guest', null, true, as(null)],
    ['guest', 'read', false, as(null)],
    ['read', 'edit', false, as('read')],
    ['review', 'edit', true, as('review')],
    ['edit', 'review', false, as('edit')],
    ['admin', 'admin', true, as('admin')],
    ['admin', null, true, as('admin')],
  ];

  it.each(redundant)('as %s, an invite giving %s is redundant: %s', (_name, role, expected, standing) => {
    expect(linkInviteRedundant(standing, role)).toBe(expected);
  });

  // [case, outcome, invite, inviteLinks]
  const join: Array<[string, string, LinkInviteRecord | null, boolean | null]> = [
    ['a live invite, links enabled', 'ok', invite(), true],
    ['a live invite, links disabled', 'forbidden', invite(), false],
    ['a deleted invite', 'not_found', invite({ deletedAt: '2024-01-02T00:00:00.000Z' }), true],
    ['no such invite', 'not_found', null, true],
    ['no such invite, links disabled (nothing revealed)', 'not_found', null, false],
    ['no such organization', 'not_found', invite(), null],
  ];

  it.each(join)('joining with %s: %s', (_name, expected, inv, inviteLinks) => {
    expect(kindOf(() => assertCanJoinWithLinkInvite(inv, inviteLinks === null ? null : { inviteLinks }))).toBe(expected);
  });

  // [case, outcome, emailDomains, email]
  const byDomain: Array<[string, string, string[] | null, string | undefined]> = [
    ['a matching domain', 'ok', ['example.com', 'corp.example'], 'ada@corp.example'],
    ['another domain', 'not_found', ['corp.example'], 'ada@example.com'],
    ['a subdomain is not the domain', 'not_found', ['example.com'], 'ada@mail.example.com'],
    ['an organization without domains', 'not_found', [], 'ada@example.com'],
    ['no such organization', 'not_found', null, 'ada@example.com'],
    ['an unknown user', 'not_found', ['example.com'], undefined],
  ];

  it.each(byDomain)('joining by e-mail domain with %s: %s', (_name, expected, emailDomains, email) => {
    expect(kindOf(() => assertCanJoinByEmailDomain(emailDomains === null ? null : { emailDomains }, email))).toBe(expected);
  });
});
