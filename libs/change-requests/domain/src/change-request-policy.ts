import { forbidden } from '@bindery/platform/errors';

/** What content says the caller may do with a space (its `permissions`). */
export interface SpaceAccess {
  organizationId: string;
  spaceId: string;
  /** the space's current revision */
  revision: string;
  can: { view: boolean; comment: boolean; edit: boolean; review: boolean; admin: boolean };
}

/**
 * Who may do what with change requests, from the caller's role on the space (the ladder read <
 * comment < edit < review < create < admin):
 * - read: see change requests, their content, changes, comments, reviews and requested reviewers;
 * - comment: post comments and replies, react, resolve;
 * - edit: create change requests, edit their subject, description, status and content, bring them
 *   up to date, request reviewers;
 * - review: submit reviews, merge (content, which merges, refuses a locked space with 412);
 * - admin: delete anyone's comment or reply.
 * Content answers 404 for a space the caller cannot read, so nothing here has to.
 */
export type ChangeRequestAction = 'comment' | 'edit' | 'review' | 'merge';

/** The permission of the space each action needs (merging needs the review role; the lock is content's rule). */
const PERMISSION: Record<ChangeRequestAction, Exclude<keyof SpaceAccess['can'], 'view' | 'admin'>> = { comment: 'comment', edit: 'edit', review: 'review', merge: 'review' };

const NEEDS: Record<ChangeRequestAction, string> = {
  comment: 'Commenting needs the comment role on this space.',
  edit: 'Editing change requests needs the edit role on this space.',
  review: 'Reviewing needs the review role on this space.',
  merge: 'Merging needs the review role on this space.',
};

export function assertMay(access: SpaceAccess, action: ChangeRequestAction): void {
  if (!access.can[PERMISSION[action]]) throw forbidden(NEEDS[action]);
}
