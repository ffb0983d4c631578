/**
 * Which of an organization's spaces a principal sees, said as data: the repository turns it into its
 * query, so the rule (domain) and the query (data-access) each have one home. A space is seen when
 * any one of the ways holds.
 */
export interface VisibleSpaces {
  organizationId: string;
  /** every space of the organization (its admins) */
  all?: boolean;
  /** spaces whose default level is a role of its own (not `inherit`) */
  ownDefaultLevel?: boolean;
  /** spaces that inherit their default level, directly under one of these parents (null: the top) */
  inheritingUnder?: (string | null)[];
  /** these spaces (a grant on each) */
  ids?: string[];
  /** spaces directly under these collections (a grant on one of them or above) */
  under?: string[];
}

/** Spaces a list shows: those `visible` sees, narrowed to one parent and to those `alsoVisible` sees too. */
export interface SpaceSelection {
  visible: VisibleSpaces;
  parent?: string;
  alsoVisible?: VisibleSpaces;
}
