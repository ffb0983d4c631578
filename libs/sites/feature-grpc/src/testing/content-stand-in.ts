import type { ContentClients } from '@bindery/content/client';
import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';

interface StandInSpace {
  id: string;
  organization: string;
  title: string;
  readers: Set<string>;
  revision: string;
  pages: string[];
}

/**
 * The part of content sites calls, held in memory: spaces with the users who may read them. Like
 * content, it answers a space the caller may not read as not found; a space created through it is
 * readable by its creator; a live edit adds its pages' titles to the space.
 */
export class ContentStandIn {
  private readonly spaces = new Map<string, StandInSpace>();
  private seq = 0;

  addSpace(id: string, organization: string, title: string, readers: string[]): void {
    this.spaces.set(id, { id, organization, title, readers: new Set(readers), revision: `rev-${++this.seq}`, pages: [] });
  }

  space(id: string): StandInSpace | undefined {
    return this.spaces.get(id);
  }

  spacesOf(organization: string): StandInSpace[] {
    return [...this.spaces.values()].filter((s) => s.organization === organization);
  }

  private visible(spaceId: string, caller: Caller | undefined): StandInSpace {
    const space = this.spaces.get(spaceId);
    if (!space || !caller || !space.readers.has(caller.userId)) throw notFound('Space');
    return space;
  }

  private message(s: StandInSpace) {
    return { id: s.id, title: s.title, organization: s.organization, revision: s.revision, visibility: 'private', emoji: '', editMode: 'live' };
  }

  /** The clients sites is given instead of content's. */
  clients(): ContentClients & { close(): void } {
    const stub = {
      spaces: {
        getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => this.message(this.visible(req.spaceId, o?.caller)),
        createSpace: async (req: { organizationId: string; title?: string }, o?: { caller?: Caller }) => {
          const id = `new-space-${++this.seq}`;
          this.addSpace(id, req.organizationId, req.title ?? 'Untitled', o?.caller ? [o.caller.userId] : []);
          return this.message(this.spaces.get(id)!);
        },
      },
      revisions: {
        applyChanges: async (req: { spaceId: string; baseRevisionId: string; changesJson: string; updateCurrent: boolean }, o?: { caller?: Caller }) => {
          const space = this.visible(req.spaceId, o?.caller);
          const changes = JSON.parse(req.changesJson) as Array<{ title?: string }>;
          space.pages.push(...changes.map((c) => c.title ?? ''));
          space.revision = `rev-${++this.seq}`;
          return { revisionId: space.revision, changes: [], insertedFiles: [], parentRevisionId: req.baseRevisionId };
        },
      },
      close: () => undefined,
    };
    return stub as unknown as ContentClients & { close(): void };
  }
}
