import type { ContentClients } from '@bindery/content/client';
import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { hasAtLeast, Role } from '@bindery/shared/roles';

interface StandInSpace {
  id: string;
  organizationId: string;
  roles: Map<string, Role>;
  revision: string;
  locked: boolean;
}

/**
 * The part of content change-requests calls, held in memory: spaces with their members' roles, and
 * revisions as sets of page ids. Like content, it answers a space the caller has no role on as not
 * found. An edit (`applyChanges`) takes a JSON list of page ids to add; a merge conflicts when the
 * head adds a page the space's current revision added too.
 */
export class ContentStandIn {
  private readonly spaces = new Map<string, StandInSpace>();
  private readonly revisions = new Map<string, { parent?: string; pages: string[] }>();
  private seq = 0;

  addSpace(id: string, organizationId: string, roles: Record<string, Role>, pages: string[] = []): void {
    const revision = this.newRevision(undefined, pages);
    this.spaces.set(id, { id, organizationId, roles: new Map(Object.entries(roles)), revision, locked: false });
  }

  /** An edit made to the space directly (not through a change request); answers the new revision. */
  editSpace(spaceId: string, pages: string[]): string {
    const s = this.space(spaceId);
    s.revision = this.newRevision(s.revision, [...this.revisions.get(s.revision)!.pages, ...pages]);
    return s.revision;
  }

  currentRevision(spaceId: string): string {
    return this.space(spaceId).revision;
  }

  pagesOf(revisionId: string): string[] {
    return this.revisions.get(revisionId)?.pages ?? [];
  }

  private newRevision(parent: string | undefined, pages: string[]): string {
    const id = `rev${++this.seq}`;
    this.revisions.set(id, { parent, pages: [...new Set(pages)] });
    return id;
  }

  private space(id: string): StandInSpace {
    const s = this.spaces.get(id);
    if (!s) throw notFound('Space');
    return s;
  }

  private visible(spaceId: string, caller: Caller | undefined): { space: StandInSpace; role: Role } {
    const space = this.spaces.get(spaceId);
    const role = caller && space?.roles.get(caller.userId);
    if (!space || !role) throw notFound('Space');
    return { space, role };
  }

  /** The clients change-requests is given instead of content's. */
  clients(): ContentClients {
    const spaceMessage = (s: StandInSpace, role: Role) => ({
      id: s.id,
      organization: s.organizationId,
      revision: s.revision,
      editMode: s.locked ? 'locked' : 'live',
      permissions: {
        view: true,
        comment: hasAtLeast(role, 'comment'),
        edit: !s.locked && hasAtLeast(role, 'edit'),
        review: hasAtLeast(role, 'review'),
        merge: hasAtLeast(role, 'review'),
        admin: hasAtLeast(role, 'admin'),
      },
    });
    const stub = {
      spaces: {
        getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
          const { space, role } = this.visible(req.spaceId, o?.caller);
          return spaceMessage(space, role);
        },
        listSpaces: async (req: { organizationId: string }, o?: { caller?: Caller }) => ({
          items: [...this.spaces.values()]
            .filter((s) => s.organizationId === req.organizationId && o?.caller && s.roles.has(o.caller.userId))
            .map((s) => spaceMessage(s, s.roles.get(o!.caller!.userId)!)),
          page: { count: 0, nextPage: '' },
        }),
      },
      permissions: {
        effectiveRoles: async (req: { target: { id: string }; users: string[] }, o?: { caller?: Caller }) => {
          const { space } = this.visible(req.target.id, o?.caller);
          return { items: req.users.map((userId) => ({ userId, role: space.roles.get(userId) })) };
        },
      },
      revisions: {
        applyChanges: async (req: { spaceId: string; baseRevisionId: string; changesJson: string }, o?: { caller?: Caller }) => {
          this.visible(req.spaceId, o?.caller);
          const base = this.revisions.get(req.baseRevisionId);
          if (!base) throw notFound('Revision');
          const added = JSON.parse(req.changesJson) as string[];
          return {
            revisionId: this.newRevision(req.baseRevisionId, [...base.pages, ...added]),
            changes: added.map((pageId) => ({ object: 'created_page', pageId })),
            insertedFiles: [],
          };
        },
        mergeRevisions: async (req: { spaceId: string; baseRevisionId: string; headRevisionId: string; mode: string }, o?: { caller?: Caller }) => {
          const { space } = this.visible(req.spaceId, o?.caller);
          const base = new Set(this.pagesOf(req.baseRevisionId));
          const theirs = this.pagesOf(space.revision).filter((p) => !base.has(p));
          const ours = this.pagesOf(req.headRevisionId).filter((p) => !base.has(p));
          const clash = ours.filter((p) => theirs.includes(p));
          if (clash.length)
            return {
              result: 'conflicts',
              revisionId: '',
              spaceRevisionId: space.revision,
              conflicts: clash.map((page) => ({ kind: 'page', page, reason: 'edited on both sides' })),
            };
          const merged = this.newRevision(space.revision, [...this.pagesOf(space.revision), ...ours]);
          if (req.mode === 'merge') space.revision = merged;
          return { result: req.mode, revisionId: merged, spaceRevisionId: space.revision, conflicts: [] };
        },
        getPage: async (req: { revision?: { spaceId: string; revisionId: string }; pageId: string }, o?: { caller?: Caller }) => {
          this.visible(req.revision!.spaceId, o?.caller);
          if (!this.pagesOf(req.revision!.revisionId).includes(req.pageId)) throw notFound('Page');
          return {
            revisionId: req.revision!.revisionId,
            path: req.pageId,
            page: contentRevisionsV1.RevisionPage.fromPartial({ id: req.pageId, title: `Page ${req.pageId}`, document: {} }),
          };
        },
      },
      close: () => undefined,
    };
    return stub as unknown as ContentClients;
  }
}
