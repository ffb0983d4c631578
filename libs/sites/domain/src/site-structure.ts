import { invalid, notFound } from '@bindery/platform/errors';
import type { SectionGroupRecord, SectionRecord, SiteSpaceRecord } from './site-records';

/**
 * A site's structure as one value: its sections, section groups and site spaces with their orders
 * and the defaults. Use cases load it in a transaction, change it with the methods below, and write
 * back what differs (structureChanges, in structure-changes.ts; structureProblems says what breaks the rules). Every method keeps the rules of the structure:
 * - orders are dense, 0..n-1, in each container: the site's top level (ungrouped sections and
 *   groups share one sequence), each group's sections, each section's site spaces, the root's site
 *   spaces (a site without sections);
 * - the default section is a section of the site whenever it has one; a section's (or the root's)
 *   default site space is one of its live site spaces whenever it has one (a site space whose space
 *   is deleted is hidden, not live, but keeps its place so that a restore brings it back there).
 */
export interface StructureState {
  defaultSectionId?: string;
  defaultSiteSpaceId?: string;
  sections: SectionRecord[];
  groups: SectionGroupRecord[];
  siteSpaces: SiteSpaceRecord[];
}

export const ITEM_TYPES = ['site-space', 'site-section', 'site-section-group'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export interface ItemPointer {
  type: ItemType | string;
  id: string;
}

/** Where to move an item among the items of its own container; neither: to the end. */
export interface ItemPosition {
  before?: ItemPointer;
  after?: ItemPointer;
}

export type TopItem = { type: 'site-section'; record: SectionRecord } | { type: 'site-section-group'; record: SectionGroupRecord };

export type Ordered = { _id: string; order: number };
const byOrder = <T extends Ordered>(a: T, b: T) => a.order - b.order || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** A site space whose space is not deleted (a deleted one is hidden but keeps its place). */
export const isLive = (ss: SiteSpaceRecord) => !ss.spaceDeletedAt;

/** The ids in their new order after moving `moving` before or after `anchor` (or to the end). */
export function reorder(ids: string[], moving: string, position: { before?: string; after?: string }): string[] {
  if (position.before !== undefined && position.after !== undefined) throw invalid('Give position.before or position.after, not both.');
  const rest = ids.filter((id) => id !== moving);
  const anchor = position.before ?? position.after;
  if (anchor === undefined) return [...rest, moving];
  if (anchor === moving) throw invalid('An item cannot be moved next to itself.');
  const at = rest.indexOf(anchor);
  if (at < 0) throw invalid('The position names an item that is not beside the moved one (items move among the items of their own level).');
  rest.splice(position.before !== undefined ? at : at + 1, 0, moving);
  return rest;
}

export class SiteStructure {
  readonly state: StructureState;

  constructor(state: StructureState) {
    this.state = clone(state);
  }

  // ---- reading ----

  hasSections(): boolean {
    return this.state.sections.length > 0;
  }

  section(id: string): SectionRecord {
    const s = this.state.sections.find((x) => x._id === id);
    if (!s) throw notFound('Site section');
    return s;
  }

  group(id: string): SectionGroupRecord {
    const g = this.state.groups.find((x) => x._id === id);
    if (!g) throw notFound('Site section group');
    return g;
  }

  /** A site space, hidden ones only when asked (a hidden one is not there for the API). */
  siteSpace(id: string, { includeHidden = false } = {}): SiteSpaceRecord {
    const ss = this.state.siteSpaces.find((x) => x._id === id);
    if (!ss || (!includeHidden && !isLive(ss))) throw notFound('Site space');
    return ss;
  }

  findSection(id: string): SectionRecord | undefined {
    return this.state.sections.find((x) => x._id === id);
  }

  /** The top level in order: ungrouped sections and groups. */
  topLevel(): TopItem[] {
    const items: Array<TopItem & { order: number; _id: string }> = [
      ...this.state.sections.filter((s) => !s.sectionGroupId).map((record) => ({ type: 'site-section' as const, record, order: record.order, _id: record._id })),
      ...this.state.groups.map((record) => ({ type: 'site-section-group' as const, record, order: record.order, _id: record._id })),
    ];
    return items.sort(byOrder).map(({ type, record }) => ({ type, record }) as TopItem);
  }

  sectionsOf(groupId: string): SectionRecord[] {
    return this.state.sections.filter((s) => s.sectionGroupId === groupId).sort(byOrder);
  }

  /** Every section in the order a reader meets them (groups opened in place). */
  sectionsInOrder(): SectionRecord[] {
    return this.topLevel().flatMap((i) => (i.type === 'site-section' ? [i.record] : this.sectionsOf(i.record._id)));
  }

  /** The site spaces of a section, or of the root (undefined), in order; hidden ones too when asked. */
  siteSpacesOf(sectionId: string | undefined, { includeHidden = false } = {}): SiteSpaceRecord[] {
    return this.state.siteSpaces.filter((ss) => ss.sectionId === sectionId && (includeHidden || isLive(ss))).sort(byOrder);
  }

  /** Site spaces shown: those whose space is not deleted. */
  liveCount(): number {
    return this.state.siteSpaces.filter(isLive).length;
  }

  /** Whether the site space is the default of its section (or of the root). */
  isDefaultSiteSpace(ss: SiteSpaceRecord): boolean {
    const holder = ss.sectionId ? this.findSection(ss.sectionId)?.defaultSiteSpaceId : this.state.defaultSiteSpaceId;
    return holder === ss._id;
  }

  // ---- sections ----

  /**
   * Adds a section at the end of the top level with its first site space (its default). The first
   * section of a site that has site spaces at its root takes them in `wrapper` first, so nothing of
   * the site is left outside its sections.
   */
  addSection(section: Omit<SectionRecord, 'order'>, siteSpace: Omit<SiteSpaceRecord, 'order' | 'sectionId'>, wrapper?: Omit<SectionRecord, 'order'>): void {
    const root = this.siteSpacesOf(undefined, { includeHidden: true });
    if (!this.hasSections() && root.length) {
      if (!wrapper) throw new Error('a site with site spaces at its root needs a section to hold them');
      this.appendTop({ ...wrapper, defaultSiteSpaceId: this.state.defaultSiteSpaceId, order: 0 } as SectionRecord, 'site-section');
      for (const ss of root) ss.sectionId = wrapper._id;
      this.state.defaultSiteSpaceId = undefined;
    }
    this.appendTop({ ...section, defaultSiteSpaceId: siteSpace._id, order: 0 } as SectionRecord, 'site-section');
    this.state.siteSpaces.push({ ...siteSpace, sectionId: section._id, order: 0 });
    this.fixDefaults();
  }

  /** Removes a section with its site spaces; the default section moves to the first one left. */
  removeSection(id: string): void {
    const section = this.section(id);
    this.state.siteSpaces = this.state.siteSpaces.filter((ss) => ss.sectionId !== id);
    this.state.sections = this.state.sections.filter((s) => s._id !== id);
    this.densifyContainerOf(section);
    this.fixDefaults();
  }

  setSectionDefault(sectionId: string, siteSpaceId: string): void {
    const section = this.section(sectionId);
    const ss = this.state.siteSpaces.find((x) => x._id === siteSpaceId && isLive(x));
    if (!ss || ss.sectionId !== sectionId) throw invalid('defaultSiteSpace must be a site space of this section.');
    section.defaultSiteSpaceId = siteSpaceId;
  }

  // ---- section groups ----

  /** Adds a group where the first of `sectionIds` stands (or at the end), holding those sections in the order given. */
  addGroup(group: Omit<SectionGroupRecord, 'order'>, sectionIds: string[]): void {
    const ids = [...new Set(sectionIds)];
    const sections = ids.map((id) => {
      const s = this.state.sections.find((x) => x._id === id);
      if (!s) throw invalid(`sections names ${JSON.stringify(id)}, which is no section of this site.`);
      return s;
    });
    const first = sections[0];
    const anchor: ItemPointer | undefined = first
      ? first.sectionGroupId
        ? { type: 'site-section-group', id: first.sectionGroupId }
        : { type: 'site-section', id: first._id }
      : undefined;
    this.appendTop({ ...group, order: 0 } as SectionGroupRecord, 'site-section-group');
    if (anchor) this.placeTop(reorder(this.topIds(), group._id, { before: anchor.id }));
    for (const s of sections) this.moveSectionInto(s, group._id);
  }

  /** Removes a group; its sections return to the top level where the group stood, in their order. */
  removeGroup(id: string): void {
    this.group(id);
    const sections = this.sectionsOf(id);
    const ids: string[] = [];
    for (const item of this.topLevel()) {
      if (item.record._id === id) ids.push(...sections.map((s) => s._id));
      else ids.push(item.record._id);
    }
    for (const s of sections) s.sectionGroupId = undefined;
    this.state.groups = this.state.groups.filter((g) => g._id !== id);
    this.placeTop(ids);
  }

  /** Puts a section at the end of the group (from the top level or another group); nothing when it is there already. */
  addSectionToGroup(groupId: string, sectionId: string): void {
    this.group(groupId);
    const section = this.state.sections.find((s) => s._id === sectionId);
    if (!section) throw invalid('sectionId names no section of this site.');
    if (section.sectionGroupId === groupId) return;
    this.moveSectionInto(section, groupId);
  }

  /** Takes a section out of the group, to the top level just after the group; false when it was not in it. */
  removeSectionFromGroup(groupId: string, sectionId: string): boolean {
    this.group(groupId);
    const section = this.state.sections.find((s) => s._id === sectionId);
    if (!section || section.sectionGroupId !== groupId) return false;
    section.sectionGroupId = undefined;
    this.placeGroup(
      groupId,
      this.sectionsOf(groupId).map((s) => s._id),
    );
    this.placeTop(reorder([...this.topIds().filter((x) => x !== sectionId)], sectionId, { after: groupId }));
    return true;
  }

  // ---- site spaces ----

  /** Adds a site space at the end of a section (or of the root); the first live one becomes the default. */
  addSiteSpace(siteSpace: Omit<SiteSpaceRecord, 'order' | 'sectionId'>, sectionId: string | undefined): SiteSpaceRecord {
    if (sectionId) this.section(sectionId);
    else if (this.hasSections()) throw new Error('a site with sections takes site spaces into a section');
    const record: SiteSpaceRecord = { ...siteSpace, ...(sectionId ? { sectionId } : {}), order: this.siteSpacesOf(sectionId, { includeHidden: true }).length };
    this.state.siteSpaces.push(record);
    this.fixDefaults();
    return record;
  }

  /** Removes a site space (hidden or not); false when there is none. */
  removeSiteSpace(id: string): boolean {
    const ss = this.state.siteSpaces.find((x) => x._id === id);
    if (!ss) return false;
    this.removeSiteSpaces([ss]);
    return true;
  }

  /** Hides the site spaces of a deleted space (they keep their place); answers how many changed. */
  hideSpace(spaceId: string, at: string): number {
    const hit = this.state.siteSpaces.filter((ss) => ss.spaceId === spaceId && isLive(ss));
    for (const ss of hit) ss.spaceDeletedAt = at;
    this.fixDefaults();
    return hit.length;
  }

  /** Shows again the site spaces of a restored space; answers how many changed. */
  showSpace(spaceId: string): number {
    const hit = this.state.siteSpaces.filter((ss) => ss.spaceId === spaceId && !isLive(ss));
    for (const ss of hit) delete ss.spaceDeletedAt;
    this.fixDefaults();
    return hit.length;
  }

  /** Removes for good the site spaces of a space; answers how many there were. */
  removeSpace(spaceId: string): number {
    const hit = this.state.siteSpaces.filter((ss) => ss.spaceId === spaceId);
    if (hit.length) this.removeSiteSpaces(hit);
    return hit.length;
  }

  // ---- moves ----

  /** Moves an item among the items of its own container (the top level, a group, a section or the root). */
  move(item: ItemPointer, position: ItemPosition): void {
    const anchor = position.before ?? position.after;
    const to = { before: position.before?.id, after: position.after?.id };
    switch (item.type) {
      case 'site-space': {
        const ss = this.siteSpace(item.id);
        if (anchor && anchor.type !== 'site-space') throw invalid('A site space moves among site spaces.');
        this.placeSiteSpaces(
          ss.sectionId,
          reorder(
            this.siteSpacesOf(ss.sectionId, { includeHidden: true }).map((x) => x._id),
            ss._id,
            to,
          ),
        );
        return;
      }
      case 'site-section': {
        const section = this.section(item.id);
        if (section.sectionGroupId) {
          if (anchor && anchor.type !== 'site-section') throw invalid('A section of a group moves among the sections of its group.');
          this.placeGroup(
            section.sectionGroupId,
            reorder(
              this.sectionsOf(section.sectionGroupId).map((s) => s._id),
              section._id,
              to,
            ),
          );
        } else {
          if (anchor && anchor.type !== 'site-section' && anchor.type !== 'site-section-group') throw invalid('A section moves among sections and section groups.');
          this.placeTop(reorder(this.topIds(), section._id, to));
        }
        return;
      }
      case 'site-section-group': {
        this.group(item.id);
        if (anchor && anchor.type !== 'site-section' && anchor.type !== 'site-section-group') throw invalid('A section group moves among sections and section groups.');
        this.placeTop(reorder(this.topIds(), item.id, to));
        return;
      }
      default:
        throw invalid('item.type must be site-space, site-section or site-section-group.');
    }
  }

  // ---- keeping the rules ----

  private topIds(): string[] {
    return this.topLevel().map((i) => i.record._id);
  }

  private appendTop(record: SectionRecord | SectionGroupRecord, type: 'site-section' | 'site-section-group'): void {
    record.order = this.topLevel().length;
    if (type === 'site-section') this.state.sections.push(record as SectionRecord);
    else this.state.groups.push(record as SectionGroupRecord);
  }

  private placeTop(ids: string[]): void {
    ids.forEach((id, order) => {
      const record = this.state.sections.find((s) => s._id === id && !s.sectionGroupId) ?? this.state.groups.find((g) => g._id === id);
      if (record) record.order = order;
    });
  }

  private placeGroup(groupId: string, ids: string[]): void {
    ids.forEach((id, order) => {
      const s = this.state.sections.find((x) => x._id === id && x.sectionGroupId === groupId);
      if (s) s.order = order;
    });
  }

  private placeSiteSpaces(sectionId: string | undefined, ids: string[]): void {
    ids.forEach((id, order) => {
      const ss = this.state.siteSpaces.find((x) => x._id === id && x.sectionId === sectionId);
      if (ss) ss.order = order;
    });
  }

  private moveSectionInto(section: SectionRecord, groupId: string): void {
    const from = section.sectionGroupId;
    section.sectionGroupId = groupId;
    section.order = this.sectionsOf(groupId).filter((s) => s._id !== section._id).length;
    if (from)
      this.placeGroup(
        from,
        this.sectionsOf(from).map((s) => s._id),
      );
    else this.placeTop(this.topIds());
  }

  private densifyContainerOf(section: SectionRecord): void {
    if (section.sectionGroupId)
      this.placeGroup(
        section.sectionGroupId,
        this.sectionsOf(section.sectionGroupId).map((s) => s._id),
      );
    else this.placeTop(this.topIds());
  }

  private removeSiteSpaces(hit: SiteSpaceRecord[]): void {
    const gone = new Set(hit.map((ss) => ss._id));
    this.state.siteSpaces = this.state.siteSpaces.filter((ss) => !gone.has(ss._id));
    for (const sectionId of new Set(hit.map((ss) => ss.sectionId))) {
      this.placeSiteSpaces(
        sectionId,
        this.siteSpacesOf(sectionId, { includeHidden: true }).map((ss) => ss._id),
      );
    }
    this.fixDefaults();
  }

  /** Points every default at something that is there (keeping those that are). */
  private fixDefaults(): void {
    const sections = this.sectionsInOrder();
    if (!sections.some((s) => s._id === this.state.defaultSectionId)) this.state.defaultSectionId = sections[0]?._id;
    for (const s of this.state.sections) {
      const live = this.siteSpacesOf(s._id);
      if (!live.some((ss) => ss._id === s.defaultSiteSpaceId)) s.defaultSiteSpaceId = live[0]?._id;
    }
    const root = this.siteSpacesOf(undefined);
    if (!root.some((ss) => ss._id === this.state.defaultSiteSpaceId)) this.state.defaultSiteSpaceId = root[0]?._id;
  }
}
