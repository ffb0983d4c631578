import { isInternalCaller, SITE_CALLER_PREFIX } from '@bindery/platform/grpc';
import { ClientSession } from '@bindery/platform/mongo';
import { CollectionRecord, effectiveRole, GrantRecord, Principal, resolvedDefault, SpaceRecord, Tree, TreeItem, VisibleSpaces } from '@bindery/content/domain';
import { RoleOrGuest } from '@bindery/shared/roles';
import type { ContentDeps } from './content-deps';

export const spaceItem = (s: Pick<SpaceRecord, '_id' | 'parent' | 'defaultLevel'>): TreeItem => ({ id: s._id, kind: 'space', parent: s.parent, defaultLevel: s.defaultLevel });
export const collectionItem = (c: Pick<CollectionRecord, '_id' | 'parent' | 'defaultLevel'>): TreeItem => ({
  id: c._id,
  kind: 'collection',
  parent: c.parent,
  defaultLevel: c.defaultLevel,
});

/**
 * A service's own caller (see internalCaller) reads every organization as its admin would; a site
 * token's caller is no member of any (its spaces are opened by visibleSpace alone); users get their membership.
 */
export async function principalOf(deps: ContentDeps, organizationId: string, userId: string): Promise<Principal> {
  if (isInternalCaller(userId)) return { userId, member: { role: 'admin', teams: [] } };
  if (userId.startsWith(SITE_CALLER_PREFIX)) return { userId, member: undefined };
  const access = await deps.access.accessOf(organizationId, userId);
  return { userId, member: access ? { role: access.role as RoleOrGuest, teams: access.teams } : undefined };
}

/**
 * One organization as one principal sees it: its collections (the tree) and the principal's grants,
 * loaded once per request, so that roles of many items are computed without more reads.
 */
export class OrgView implements Tree {
  private readonly byId: Map<string, CollectionRecord>;

  private constructor(
    readonly organizationId: string,
    readonly principal: Principal,
    readonly collections: CollectionRecord[],
    readonly grants: GrantRecord[],
  ) {
    this.byId = new Map(collections.map((c) => [c._id, c]));
  }

  /** With `includeDeleted`, deleted collections stay in the tree (to restore what was inside them). */
  static async load(deps: ContentDeps, organizationId: string, userId: string, options: { includeDeleted?: boolean; session?: ClientSession } = {}): Promise<OrgView> {
    const principal = await principalOf(deps, organizationId, userId);
    return OrgView.of(deps, organizationId, principal, options);
  }

  static async of(deps: ContentDeps, organizationId: string, principal: Principal, options: { includeDeleted?: boolean; session?: ClientSession } = {}): Promise<OrgView> {
    if (!principal.member) return new OrgView(organizationId, principal, [], []);
    const { session, includeDeleted } = options;
    const member = principal.member;
    const loadCollections = () => deps.collections.ofOrganization(organizationId, options);
    const loadGrants = () => deps.grants.ofPrincipal(organizationId, principal.userId, member.teams, session);
    if (session) {
      // Inside a transaction: its own reads, one after the other (a session runs one operation at a time).
      const collections = await loadCollections();
      return new OrgView(organizationId, principal, collections, await loadGrants());
    }
    const [collections, grants] = await Promise.all([
      deps.views.collections.get(`${organizationId}|${includeDeleted ? 'all' : 'live'}`, loadCollections),
      deps.views.grants.get(`${organizationId}|${principal.userId}|${member.teams.join(',')}`, loadGrants),
    ]);
    return new OrgView(organizationId, principal, collections, grants);
  }

  collection(id: string): TreeItem | undefined {
    const c = this.byId.get(id);
    return c ? collectionItem(c) : undefined;
  }

  collectionRecord(id: string): CollectionRecord | undefined {
    return this.byId.get(id);
  }

  roleOf(item: TreeItem): RoleOrGuest {
    return effectiveRole(this.principal, item, this, this.grants);
  }

  liveCollections(): CollectionRecord[] {
    return this.collections.filter((c) => !c.deletedAt);
  }

  /**
   * The spaces of this organization the principal can see (at least read), said without reading
   * them: by default level, by a grant on the space, or by a grant on a collection above it. Null: none.
   */
  visibleSpaces(): VisibleSpaces | null {
    const member = this.principal.member;
    if (!member) return null;
    const organizationId = this.organizationId;
    if (member.role === 'admin') return { organizationId, all: true };
    const visible: VisibleSpaces = { organizationId };
    if (member.role !== null) {
      visible.ownDefaultLevel = true;
      const open = this.liveCollections()
        .filter((c) => resolvedDefault(collectionItem(c), this, member.role) !== null)
        .map((c) => c._id);
      visible.inheritingUnder = [null, ...open];
    }
    const grantedSpaces = this.grants.filter((g) => g.targetKind === 'space').map((g) => g.targetId);
    if (grantedSpaces.length) visible.ids = grantedSpaces;
    const grantedCollections = new Set(this.grants.filter((g) => g.targetKind === 'collection').map((g) => g.targetId));
    if (grantedCollections.size) {
      const covered = this.liveCollections()
        .filter((c) => this.chainIds(c).some((id) => grantedCollections.has(id)))
        .map((c) => c._id);
      if (covered.length) visible.under = covered;
    }
    return visible.ownDefaultLevel || visible.ids || visible.under ? visible : null;
  }

  private chainIds(c: CollectionRecord): string[] {
    const ids: string[] = [];
    const seen = new Set<string>();
    for (let at: CollectionRecord | undefined = c; at && !seen.has(at._id); at = at.parent ? this.byId.get(at.parent) : undefined) {
      seen.add(at._id);
      ids.push(at._id);
    }
    return ids;
  }
}
