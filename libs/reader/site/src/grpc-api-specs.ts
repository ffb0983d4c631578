import { isDomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { SitesClients } from '@bindery/sites/client';
import type { SpecsClients } from '@bindery/specs/client';
import type { ApiSpecFile, ApiSpecName } from '@bindery/reader/render';
import type { ApiSpecAnswer, ApiSpecSource } from './api-specs';
import { digest } from './cached-source';
import { defaultSiteCaller, SiteScope } from './grpc-source';
import { Lru } from './lru';

export interface GrpcApiSpecsOptions {
  sites: Pick<SitesClients, 'published'>;
  specs: Pick<SpecsClients, 'specs'>;
  /** who the reader is towards sites (to learn a site token's scope) */
  readerCaller: Caller;
  siteCaller?: (scope: SiteScope) => Caller;
  /** the scope the resolver already answered for this token (the reader's source keeps them): no call to sites then */
  knownScope?: (token: string) => SiteScope | undefined;
}

/**
 * Specs read as the site: the site token the resolver handed out for the page (its scope as the
 * resolver answered it, else from AuthenticateSiteToken, kept a minute) is the caller of specs' GetPublishedSpec, which answers only
 * specs of the token's organization.
 */
export class GrpcApiSpecs implements ApiSpecSource {
  private readonly scopes = new Lru<Promise<SiteScope>>(10_000, 60_000);

  constructor(private readonly o: GrpcApiSpecsOptions) {}

  private scopeOf(token: string): Promise<SiteScope> {
    const known = this.o.knownScope?.(token);
    if (known) return Promise.resolve(known);
    const key = digest(token);
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = this.o.sites.published
        .authenticateSiteToken({ token }, { caller: this.o.readerCaller })
        .then((s) => ({ organizationId: s.organizationId, siteId: s.siteId, spaceIds: s.spaceIds, tokenId: s.tokenId }));
      scope.catch(() => this.scopes.delete(key));
      this.scopes.set(key, scope);
    }
    return scope;
  }

  async publishedSpec(site: { organizationId: string; credential?: string }, name: ApiSpecName, known?: string): Promise<ApiSpecAnswer | undefined> {
    if (!site.credential) return undefined;
    const scope = await this.scopeOf(site.credential);
    try {
      const got = await this.o.specs.specs.getPublishedSpec(
        { slug: 'slug' in name ? name.slug : '', sourceUrl: 'url' in name ? name.url : '', knownVersionId: known ?? '' },
        { caller: (this.o.siteCaller ?? defaultSiteCaller)(scope) },
      );
      return { specId: got.specId, versionId: got.versionId, slug: got.slug, files: got.files.length ? (got.files as ApiSpecFile[]) : undefined };
    } catch (err) {
      if (isDomainError(err) && (err.kind === 'not_found' || err.kind === 'forbidden')) return undefined;
      throw err;
    }
  }
}
