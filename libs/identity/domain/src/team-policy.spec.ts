import { Standing } from './organization-policy';
import { RoleOrGuest } from './roles';
import { assertCanEditTeams, assertCanListTeams, assertCanListTeamsOf, assertCanManageTeamMembers, assertCanViewTeam, teamPermissions } from './team-policy';
import { planTeamMembersChange, TeamRole, validTeamTitle } from './teams';

const as = (role: RoleOrGuest): Standing => ({ role, ownsTeam: false });

type Outcome = 'ok' | 'forbidden' | 'not_found';
function outcome(check: () => void): Outcome {
  try {
    check();
    return 'ok';
  } catch (err) {
    return (err as { kind: Outcome }).kind;
  }
}

describe('team policy', () => {
  // standing, role in the team → permissions.view, permissions.admin, list teams, create/rename/delete, view team, manage members
  const table: Array<[string, Standing | undefined, TeamRole | undefined, boolean, boolean, Outcome, Outcome, Outcome, Outcome]> = [
    ['non-member', undefined, undefined, false, false, 'not_found', 'not_found', 'not_found', 'not_found'],
    ['guest', as(null), undefined, false, false, 'forbidden', 'forbidden', 'forbidden', 'forbidden'],
    ['guest team member', as(null), 'member', true, false, 'forbidden', 'forbidden', 'ok', 'forbidden'],
    ['guest team owner', as(null), 'owner', true, true, 'forbidden', 'forbidden', 'ok', 'ok'],
    ['read', as('read'), undefined, true, false, 'ok', 'forbidden', 'ok', 'forbidden'],
    ['comment', as('comment'), undefined, true, false, 'ok', 'forbidden', 'ok', 'forbidden'],
    ['edit', as('edit'), undefined, true, false, 'ok', 'forbidden', 'ok', 'forbidden'],
    ['review', as('review'), undefined, true, false, 'ok', 'forbidden', 'ok', 'forbidden'],
    ['create', as('create'), undefined, true, false, 'ok', 'forbidden', 'ok', 'forbidden'],
    ['read team member', as('read'), 'member', true, false, 'ok', 'forbidden', 'ok', 'forbidden'],
    ['read team owner', as('read'), 'owner', true, true, 'ok', 'forbidden', 'ok', 'ok'],
    ['admin', as('admin'), undefined, true, true, 'ok', 'ok', 'ok', 'ok'],
    ['admin team member', as('admin'), 'member', true, true, 'ok', 'ok', 'ok', 'ok'],
  ];

  it.each(table)('%s', (_name, standing, teamRole, view, admin, list, edit, viewTeam, manage) => {
    expect(teamPermissions(standing, teamRole)).toEqual({ view, admin });
    expect(outcome(() => assertCanListTeams(standing))).toBe(list);
    expect(outcome(() => assertCanEditTeams(standing))).toBe(edit);
    expect(outcome(() => assertCanViewTeam(standing, teamRole))).toBe(viewTeam);
    expect(outcome(() => assertCanManageTeamMembers(standing, teamRole))).toBe(manage);
    // The checks agree with the permissions object they come from.
    expect(viewTeam === 'ok').toBe(view);
    expect(manage === 'ok').toBe(admin);
  });

  // standing, caller is the member → listing that member's teams
  const teamsOf: Array<[string, Standing | undefined, boolean, Outcome]> = [
    ['non-member, self', undefined, true, 'not_found'],
    ['guest, self', as(null), true, 'ok'],
    ['guest, other', as(null), false, 'forbidden'],
    ['read, other', as('read'), false, 'ok'],
    ['admin, other', as('admin'), false, 'ok'],
  ];
  it.each(teamsOf)("member's teams: %s", (_name, standing, self, expected) => {
    expect(outcome(() => assertCanListTeamsOf(standing, 'caller', self ? 'caller' : 'someone'))).toBe(expected);
  });
});

describe('team rules', () => {
  it.each([
    ['Docs', 'Docs'],
    ['  Padded  ', 'Padded'],
    ['x', 'x'],
    ['y'.repeat(64), 'y'.repeat(64)],
  ])('keeps the title %j as %j', (input, expected) => {
    expect(validTeamTitle(input)).toBe(expected);
  });

  it.each(['', '   ', 'z'.repeat(65)])('refuses the title %j naming the field', (input) => {
    expect(() => validTeamTitle(input)).toThrow(/^title /);
  });

  const current = new Map<string, TeamRole>([
    ['owner1', 'owner'],
    ['member1', 'member'],
  ]);
  // change → added, updated, removed
  const plans: Array<[string, { add?: string[]; remove?: string[]; roles?: Array<[string, TeamRole]> }, string[], string[], string[]]> = [
    ['adds a newcomer as a member', { add: ['new'] }, ['new:member'], [], []],
    ['adds with the given role', { roles: [['new', 'owner']] }, ['new:owner'], [], []],
    ['add + role for the same newcomer', { add: ['new'], roles: [['new', 'owner']] }, ['new:owner'], [], []],
    ['re-adding a member changes nothing', { add: ['member1', 'owner1'] }, [], [], []],
    [
      'promotes and demotes',
      {
        roles: [
          ['member1', 'owner'],
          ['owner1', 'member'],
        ],
      },
      [],
      ['member1:owner<member', 'owner1:member<owner'],
      [],
    ],
    ['same role: nothing', { roles: [['owner1', 'owner']] }, [], [], []],
    ['removes a member', { remove: ['member1'] }, [], [], ['member1']],
    ['removing a non-member: nothing', { remove: ['stranger'] }, [], [], []],
    ['add and remove: removed', { add: ['member1', 'new'], remove: ['member1', 'new'] }, [], [], ['member1']],
    ['role and remove: removed', { roles: [['owner1', 'member']], remove: ['owner1'] }, [], [], ['owner1']],
  ];
  it.each(plans)('%s', (_name, change, added, updated, removed) => {
    const plan = planTeamMembersChange({ add: change.add ?? [], remove: change.remove ?? [], roles: new Map(change.roles ?? []) }, current);
    expect(plan.added.map((a) => `${a.userId}:${a.role}`)).toEqual(added);
    expect(plan.updated.map((u) => `${u.userId}:${u.role}<${u.previous}`)).toEqual(updated);
    expect(plan.removed).toEqual(removed);
  });
});
