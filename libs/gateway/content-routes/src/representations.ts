import type { Urls } from '@bindery/gateway/identity-routes';
import { contentV1 as pb } from '@bindery/shared/contracts';

/**
 * REST representations of content's resources, in the official API's shapes. The messages carry the
 * REST field names (json_name, written once in content.proto); the gateway adds what is not content's
 * to say: `object`, `urls`, and the counts other services will keep (comments, change requests).
 */
export type { Urls };

/**
 * The official Space, valid against both releases: 0.202.0 requires `mergeRules`; 0.130.0 lists
 * `type` as required without defining it (an erratum drops it), and `type` is only ever `styleguide`
 * in 0.202.0, which no space here is, so it is left out.
 */
export function spaceJson(s: pb.Space, urls: Urls) {
  const { defaultLevel, icon, deletedAt, parent, emoji, permissions, counts, ...fields } = s;
  const id = encodeURIComponent(s.id);
  return {
    object: 'space',
    ...fields,
    emoji,
    defaultLevel: defaultLevel ?? null,
    ...(parent ? { parent } : {}),
    ...(deletedAt ? { deletedAt } : {}),
    mergeRules: { type: 'inherit' },
    // change-requests' counts, as content's projection of its events holds them
    comments: counts?.comments ?? 0,
    changeRequests: counts?.changeRequests ?? 0,
    changeRequestsOpen: counts?.changeRequestsOpen ?? 0,
    changeRequestsDraft: counts?.changeRequestsDraft ?? 0,
    urls: { location: `${urls.publicUrl}/v1/spaces/${id}`, app: `${urls.appUrl}/s/${id}`, ...(icon ? { icon } : {}) },
    permissions: { ...permissions! },
  };
}

/** The official Collection. */
export function collectionJson(c: pb.Collection, urls: Urls) {
  const id = encodeURIComponent(c.id);
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    organization: c.organization,
    ...(c.parent ? { parent: c.parent } : {}),
    defaultLevel: c.defaultLevel ?? null,
    urls: { location: `${urls.publicUrl}/v1/collections/${id}`, app: `${urls.appUrl}/c/${id}` },
    permissions: { ...c.permissions! },
  };
}

/** An item of a member's spaces (the official MemberContentPermission). */
export function memberSpaceJson(m: pb.MemberSpace, urls: Urls) {
  return { permission: m.permission, space: spaceJson(m.space!, urls) };
}
