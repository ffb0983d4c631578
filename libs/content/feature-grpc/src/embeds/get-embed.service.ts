import { invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { safeFetch } from '@bindery/platform/outbound-http';
import { contentEmbedsV1 as pb } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { visibleSpace } from '../space-visibility';
import { fetchEmbed } from './fetch-embed';
import type { Embeds } from './embeds';

/** The most characters of a URL to embed. */
const URL_MAX = 2048;

/**
 * The URL an embed is fetched and remembered by: absolute http(s), without its fragment and without
 * credentials (an embed is a preview of a public page: none are sent).
 */
export function embedUrlOf(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('The url is not a valid URL.');
  }
  if (raw.length > URL_MAX) throw invalid(`The url must be at most ${URL_MAX} characters.`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('The url must use http or https.');
  url.hash = '';
  url.username = '';
  url.password = '';
  return url;
}

/** The embed of a URL, for readers of the space and site tokens of it (others: the space is not found). */
export async function getEmbed(deps: ContentDeps, caller: Caller, req: pb.GetEmbedRequest): Promise<pb.Embed> {
  await visibleSpace(deps, caller, req.spaceId);
  const url = embedUrlOf(req.url);
  const embeds: Embeds = deps.embeds;
  return embeds.cache.get(url.href, () => fetchEmbed(url, { fetch: embeds.fetch ?? safeFetch, allowPrivate: embeds.allowPrivate, limits: embeds.limits }));
}
