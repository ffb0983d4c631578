import type { StructureState } from './site-structure';

type Changes<T> = { inserted: T[]; updated: Array<{ id: string; set: Partial<T>; unset: string[] }>; removed: string[] };

function changesOf<T extends { _id: string }>(before: T[], after: T[]): Changes<T> {
  const old = new Map(before.map((r) => [r._id, r]));
  const now = new Set(after.map((r) => r._id));
  const out: Changes<T> = { inserted: [], updated: [], removed: before.filter((r) => !now.has(r._id)).map((r) => r._id) };
  for (const r of after) {
    const was = old.get(r._id);
    if (!was) {
      out.inserted.push(r);
      continue;
    }
    const set: Partial<T> = {};
    const unset: string[] = [];
    for (const key of new Set([...Object.keys(was), ...Object.keys(r)]) as Set<keyof T & string>) {
      if (key === '_id') continue;
      const a = was[key];
      const b = r[key];
      if (b === undefined) {
        if (a !== undefined) unset.push(key);
      } else if (JSON.stringify(a) !== JSON.stringify(b)) set[key] = b;
    }
    if (Object.keys(set).length || unset.length) out.updated.push({ id: r._id, set, unset });
  }
  return out;
}

/** What to write so that the stored structure becomes `after`: records inserted, changed, removed, and the site's defaults. */
export function structureChanges(before: StructureState, after: StructureState) {
  return {
    sections: changesOf(before.sections, after.sections),
    groups: changesOf(before.groups, after.groups),
    siteSpaces: changesOf(before.siteSpaces, after.siteSpaces),
  };
}

export type StructureChanges = ReturnType<typeof structureChanges>;
