import { isLive, Ordered, StructureState } from './site-structure';

/** What breaks the structure's rules (none when it keeps them): for tests and checks. */
export function structureProblems(state: StructureState): string[] {
  const problems: string[] = [];
  const dense = (what: string, items: Ordered[]) => {
    const orders = items.map((i) => i.order).sort((a, b) => a - b);
    if (orders.some((o, i) => o !== i)) problems.push(`${what}: orders ${JSON.stringify(orders)} are not 0..${items.length - 1}`);
  };
  const groups = new Set(state.groups.map((g) => g._id));
  const sections = new Set(state.sections.map((s) => s._id));
  dense('top level', [...state.sections.filter((s) => !s.sectionGroupId), ...state.groups]);
  for (const g of state.groups)
    dense(
      `group ${g._id}`,
      state.sections.filter((s) => s.sectionGroupId === g._id),
    );
  for (const s of state.sections) {
    if (s.sectionGroupId && !groups.has(s.sectionGroupId)) problems.push(`section ${s._id} is in a group that is gone`);
    const own = state.siteSpaces.filter((ss) => ss.sectionId === s._id);
    dense(`section ${s._id}`, own);
    const live = own.filter(isLive);
    if (live.length && !live.some((ss) => ss._id === s.defaultSiteSpaceId)) problems.push(`section ${s._id} has no live default site space`);
  }
  const root = state.siteSpaces.filter((ss) => !ss.sectionId);
  dense('root', root);
  if (root.some(isLive) && !root.some((ss) => isLive(ss) && ss._id === state.defaultSiteSpaceId)) problems.push('the root has no live default site space');
  if (state.sections.length && root.length) problems.push('a site with sections has site spaces at its root');
  for (const ss of state.siteSpaces) if (ss.sectionId && !sections.has(ss.sectionId)) problems.push(`site space ${ss._id} is in a section that is gone`);
  if (state.sections.length && !sections.has(state.defaultSectionId ?? '')) problems.push('the default section is not a section of the site');
  if (!state.sections.length && state.defaultSectionId) problems.push('a site without sections has a default section');
  return problems;
}
