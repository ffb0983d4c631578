import type { ContentClients } from '@bindery/content/client';
import { contentRevisionsV1, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import { notFound } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';

/** A page of a revision as the stand-in holds it: its title and paragraphs, split by `# ` headings. */
export interface StandInPage {
  id: string;
  title: string;
  lines: string[];
}

interface StandInSpace {
  id: string;
  organizationId: string;
  title: string;
  readers: Set<string>;
  revision: string;
  live: boolean;
}

/** A page's document in the official shape: a `# ` line is a heading, any other a paragraph. */
function documentOf(lines: string[]) {
  const text = (t: string) => ({ object: 'text', leaves: [{ text: t }] });
  return {
    nodes: lines.map((l) => (l.startsWith('# ') ? { object: 'block', type: 'heading-1', nodes: [text(l.slice(2))] } : { object: 'block', type: 'paragraph', nodes: [text(l)] })),
  };
}

/**
 * The part of content search calls, held in memory: spaces with their readers and revisions of
 * pages. Like content, it answers a space the caller cannot read (or a deleted one) as not found,
 * and lets search itself (an internal caller) read every live space.
 */
export class ContentStandIn {
  private readonly spaces = new Map<string, StandInSpace>();
  private readonly revisions = new Map<string, StandInPage[]>();

  addSpace(id: string, organizationId: string, title: string, readers: string[]): void {
    this.spaces.set(id, { id, organizationId, title, readers: new Set(readers), revision: '', live: true });
  }

  /** A new revision of the space, made current; answers its id. */
  commit(spaceId: string, revisionId: string, pages: StandInPage[]): string {
    this.revisions.set(revisionId, pages);
    this.space(spaceId).revision = revisionId;
    return revisionId;
  }

  setLive(spaceId: string, live: boolean): void {
    this.space(spaceId).live = live;
  }

  private space(id: string): StandInSpace {
    const s = this.spaces.get(id);
    if (!s) throw new Error(`no space ${id} in the stand-in`);
    return s;
  }

  private readable(spaceId: string, caller: Caller | undefined): StandInSpace {
    const s = this.spaces.get(spaceId);
    if (!s?.live || !caller || !(isInternalCaller(caller.userId) || s.readers.has(caller.userId))) throw notFound('Space');
    return s;
  }

  private pagesOf(spaceId: string, revisionId: string, caller: Caller | undefined): { revisionId: string; pages: StandInPage[] } {
    const s = this.readable(spaceId, caller);
    const id = revisionId || s.revision;
    const pages = this.revisions.get(id);
    if (!pages) throw notFound('Revision');
    return { revisionId: id, pages };
  }

  /** The clients search is given instead of content's. */
  clients(): ContentClients {
    const spaceMessage = (s: StandInSpace) => ({ id: s.id, title: s.title, organization: s.organizationId, revision: s.revision });
    const stub = {
      spaces: {
        getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => spaceMessage(this.readable(req.spaceId, o?.caller)),
        listSpaces: async (req: { organizationId: string }, o?: { caller?: Caller }) => ({
          items: [...this.spaces.values()].filter((s) => s.organizationId === req.organizationId && s.live && o?.caller && s.readers.has(o.caller.userId)).map(spaceMessage),
          page: { count: 0, nextPage: '' },
        }),
        listAllSpaces: async () => ({ items: [...this.spaces.values()].filter((s) => s.live).map((s) => ({ spaceId: s.id, organizationId: s.organizationId })), next: '' }),
      },
      revisions: {
        listPages: async (req: { spaceId: string; revisionId: string }, o?: { caller?: Caller }) => {
          const { revisionId, pages } = this.pagesOf(req.spaceId, req.revisionId, o?.caller);
          return { revisionId, pages: pages.map((p) => contentRevisionsV1.RevisionPage.fromPartial({ id: p.id, title: p.title, document: {} })) };
        },
        getPage: async (req: { revision?: { spaceId: string; revisionId: string }; pageId: string }, o?: { caller?: Caller }) => {
          const { revisionId, pages } = this.pagesOf(req.revision!.spaceId, req.revision!.revisionId, o?.caller);
          const page = pages.find((p) => p.id === req.pageId);
          if (!page) throw notFound('Page');
          const path = page.title.toLowerCase().replace(/\W+/g, '-');
          return {
            revisionId,
            path,
            page: contentRevisionsV1.RevisionPage.fromPartial({
              id: page.id,
              title: page.title,
              path,
              document: { document: documentToMessage(documentOf(page.lines) as unknown as JsonObject) },
            }),
          };
        },
      },
      close: () => undefined,
    };
    return stub as unknown as ContentClients;
  }
}
