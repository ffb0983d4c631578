import type { ContentClients } from '@bindery/content/client';
import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentV1 } from '@bindery/shared/contracts';

interface StandInSpace {
  id: string;
  organizationId: string;
  title: string;
  /** who can read it: user ids, or everyone in `members` of the organization when absent */
  readers?: Set<string>;
  deletedAt?: string;
}

/**
 * The part of content sites calls (reading a space), held in memory. Like content, it answers a
 * space its caller cannot read as not found; sites itself (an internal caller) reads every space.
 */
export class SpacesStandIn {
  private readonly spaces = new Map<string, StandInSpace>();
  private readonly members = new Map<string, Set<string>>();
  /** spaces asked for, by caller: what the tests check reads against */
  readonly reads: Array<{ spaceId: string; userId: string }> = [];

  addMember(organizationId: string, userId: string): void {
    if (!this.members.has(organizationId)) this.members.set(organizationId, new Set());
    this.members.get(organizationId)!.add(userId);
  }

  addSpace(id: string, organizationId: string, title: string, readers?: string[]): void {
    this.spaces.set(id, { id, organizationId, title, readers: readers ? new Set(readers) : undefined });
  }

  deleteSpace(id: string): void {
    this.spaces.get(id)!.deletedAt = new Date().toISOString();
  }

  restoreSpace(id: string): void {
    delete this.spaces.get(id)!.deletedAt;
  }

  private canRead(s: StandInSpace, caller: Caller | undefined): boolean {
    if (!caller) return false;
    if (caller.isInstanceAdmin) return true;
    if (s.deletedAt) return false;
    return s.readers ? s.readers.has(caller.userId) : (this.members.get(s.organizationId)?.has(caller.userId) ?? false);
  }

  private message(s: StandInSpace, caller: Caller): contentV1.Space {
    const admin = caller.isInstanceAdmin;
    return {
      id: s.id,
      title: s.title,
      emoji: '',
      visibility: 'in-collection',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      deletedAt: s.deletedAt,
      editMode: 'live',
      organization: s.organizationId,
      revision: `rev-${s.id}`,
      defaultLevel: 'inherit',
      permissions: {
        view: true,
        access: true,
        admin,
        viewInviteLinks: admin,
        edit: true,
        triggerGitSync: admin,
        comment: true,
        merge: true,
        review: true,
        installIntegration: admin,
      },
    };
  }

  /** The clients sites is given instead of content's. */
  clients(): ContentClients & { close(): void } {
    const stub = {
      spaces: {
        getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
          this.reads.push({ spaceId: req.spaceId, userId: o?.caller?.userId ?? '' });
          const s = this.spaces.get(req.spaceId);
          if (!s || !this.canRead(s, o?.caller)) throw notFound('Space');
          return this.message(s, o!.caller!);
        },
      },
      close: () => undefined,
    };
    return stub as unknown as ContentClients & { close(): void };
  }
}
