import { DomainError, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { FilesystemEntry } from './processing/load-files';
import type { SpecsDeps } from './specs-deps';

/** What a published page names: a spec's slug, or the URL of a spec's source. */
export interface PublishedSpecName {
  slug?: string;
  sourceUrl?: string;
}

/**
 * The latest processed version of a spec for a published site's page (the reader's API blocks).
 *
 * Only a site token's caller reads this way, and only specs of the token's organization: the
 * organization comes from the caller's signed scope, never from the request, so a site can name
 * another organization's slug without ever reading its spec. The reader asks only for specs a page
 * it serves to the visitor names. Whatever is not there for the site — another organization's spec, a
 * deleted one, one never processed — is not found; any other caller is refused.
 */
export async function publishedSpec(deps: SpecsDeps, caller: Caller, name: PublishedSpecName, knownVersionId = '') {
  const site = caller.site;
  if (!site) throw new DomainError('forbidden', 'Published specs are read by published sites only.');
  if (!name.slug === !name.sourceUrl) throw new DomainError('invalid', 'Name the spec by its slug or by its source URL (one of them).');
  const spec = name.slug ? await deps.specs.bySlug(site.organizationId, name.slug) : await deps.specs.bySourceUrl(site.organizationId, name.sourceUrl!);
  if (!spec || spec.organizationId !== site.organizationId || !spec.lastVersionId) throw notFound('OpenAPI spec');
  // The caller holds the latest version already: its files (up to megabytes) are not read again.
  const unchanged = knownVersionId === spec.lastVersionId;
  const [version, content] = await Promise.all([deps.versions.get(spec._id, spec.lastVersionId), unchanged ? undefined : deps.versions.content(spec._id, spec.lastVersionId)]);
  if (!version || (!unchanged && !content)) throw notFound('OpenAPI spec');
  // stored as the JSON text its hash is made of (process-document.ts), the entry first
  return { spec, version, files: content ? (JSON.parse(content.filesystemJson) as FilesystemEntry[]) : [] };
}
