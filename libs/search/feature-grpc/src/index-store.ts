import { ClientSession, Db, IndexPlan, withTransaction } from '@bindery/platform/mongo';
import { frequencies, PageSection } from '@bindery/search/domain';

export const COLLECTIONS = { sections: 'sections', spaces: 'spaces' } as const;

/**
 * The inverted index: one document per section of a page of a space's current revision, with its
 * distinct terms (multikey: the postings) and term frequencies; per space, its number of sections
 * and their total length (BM25's corpus statistics).
 */
export const SEARCH_INDEXES: IndexPlan = {
  [COLLECTIONS.sections]: [
    { key: { terms: 1, spaceId: 1 }, name: 'postings' },
    { key: { spaceId: 1, pageId: 1 }, name: 'space_page' },
  ],
  [COLLECTIONS.spaces]: [{ key: { organizationId: 1 }, name: 'organization' }],
};

export interface SectionRecord {
  _id: string;
  spaceId: string;
  organizationId: string;
  revisionId: string;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  n: number;
  anchor: string;
  title: string;
  body: string;
  terms: string[];
  tf: Record<string, number>;
  ttf: Record<string, number>;
  len: number;
}

export interface SpaceRecord {
  _id: string;
  organizationId: string;
  revisionId?: string;
  sections: number;
  totalLen: number;
}

export interface IndexedPage {
  pageId: string;
  title: string;
  path: string;
  sections: PageSection[];
}

export function sectionRecords(space: { spaceId: string; organizationId: string; revisionId: string }, page: IndexedPage): SectionRecord[] {
  return page.sections.map((s) => {
    const tf = frequencies(s.body);
    const ttf = frequencies(s.n === 0 ? page.title : `${page.title} ${s.title}`);
    const len = Object.values(tf).reduce((a, b) => a + b, 0) + Object.values(ttf).reduce((a, b) => a + b, 0);
    return {
      _id: `${space.spaceId}:${page.pageId}:${s.n}`,
      ...space,
      pageId: page.pageId,
      pageTitle: page.title,
      pagePath: page.path,
      n: s.n,
      anchor: s.anchor,
      title: s.n === 0 ? page.title : s.title,
      body: s.body,
      terms: [...new Set([...Object.keys(tf), ...Object.keys(ttf)])],
      tf,
      ttf,
      len,
    };
  });
}

export class IndexStore {
  constructor(private readonly db: Db) {}

  get sections() {
    return this.db.collection<SectionRecord>(COLLECTIONS.sections);
  }

  get spaces() {
    return this.db.collection<SpaceRecord>(COLLECTIONS.spaces);
  }

  /** Replaces what the index holds of these pages (absent from `pages`: only removed), and the space's statistics with them. */
  async replacePages(space: { spaceId: string; organizationId: string; revisionId: string }, removed: string[], pages: IndexedPage[]): Promise<void> {
    const pageIds = [...new Set([...removed, ...pages.map((p) => p.pageId)])];
    const fresh = pages.flatMap((p) => sectionRecords(space, p));
    await withTransaction(this.db, async (session) => {
      const old = await this.sections.find({ spaceId: space.spaceId, pageId: { $in: pageIds } }, { session, projection: { len: 1 } }).toArray();
      if (old.length) await this.sections.deleteMany({ spaceId: space.spaceId, pageId: { $in: pageIds } }, { session });
      if (fresh.length) await this.sections.insertMany(fresh, { session });
      const dLen = fresh.reduce((a, s) => a + s.len, 0) - old.reduce((a, s) => a + s.len, 0);
      await this.spaces.updateOne(
        { _id: space.spaceId },
        { $set: { organizationId: space.organizationId, revisionId: space.revisionId }, $inc: { sections: fresh.length - old.length, totalLen: dLen } },
        { upsert: true, session },
      );
    });
  }

  async knownSpace(spaceId: string, organizationId: string, session?: ClientSession): Promise<void> {
    await this.spaces.updateOne({ _id: spaceId }, { $set: { organizationId }, $setOnInsert: { sections: 0, totalLen: 0 } }, { upsert: true, session });
  }

  async removeSpace(spaceId: string): Promise<void> {
    await this.sections.deleteMany({ spaceId });
    await this.spaces.deleteOne({ _id: spaceId });
  }

  async clearSpace(spaceId: string): Promise<void> {
    await withTransaction(this.db, async (session) => {
      await this.sections.deleteMany({ spaceId }, { session });
      await this.spaces.updateOne({ _id: spaceId }, { $set: { sections: 0, totalLen: 0 } }, { session });
    });
  }

  async moveToOrganization(spaceIds: string[], organizationId: string): Promise<void> {
    if (!spaceIds.length) return;
    await this.sections.updateMany({ spaceId: { $in: spaceIds } }, { $set: { organizationId } });
    await this.spaces.updateMany({ _id: { $in: spaceIds } }, { $set: { organizationId } });
  }

  async stats(spaceIds: string[]): Promise<{ sections: number; avgLen: number }> {
    const rows = await this.spaces.find({ _id: { $in: spaceIds } }, { projection: { sections: 1, totalLen: 1 } }).toArray();
    const sections = rows.reduce((a, r) => a + r.sections, 0);
    const total = rows.reduce((a, r) => a + r.totalLen, 0);
    return { sections, avgLen: sections ? total / sections : 1 };
  }
}
