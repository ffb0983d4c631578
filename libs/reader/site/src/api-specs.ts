import type { ElementContent } from 'hast';
import {
  ApiSpecName,
  apiSpecKey,
  apiSpecNameOf,
  apiSpecNamesIn,
  API_BLOCK_TYPES,
  Document,
  DocumentBlock,
  hastToHtml,
  PublishedApiSpec,
  renderApiBlock,
} from '@bindery/reader/render';
import { Lru, PromiseCache } from './lru';

/**
 * Where the reader finds the specs a published page's API blocks name (`openapi-operation`, `swagger`,
 * …): the latest processed version of one of the site's organization's specs, read as the site
 * (grpc-api-specs.ts). Undefined: the site may not show it (another organization's, none such, never
 * processed, a URL that is none of the organization's specs) — the block is then a note.
 */
export interface ApiSpecSource {
  /** `known`: the version the caller holds; the answer may then omit the files (`files: undefined`) */
  publishedSpec(site: { organizationId: string; credential?: string }, name: ApiSpecName, known?: string): Promise<ApiSpecAnswer | undefined>;
}

export interface ApiSpecAnswer {
  specId: string;
  versionId: string;
  slug: string;
  /** absent when the version is the one the caller said it holds */
  files?: PublishedApiSpec['files'];
}

export interface ApiSpecCacheSettings {
  /** how long a spec's latest version is reused without asking (a new version's event drops it sooner) */
  ttlMs: number;
  maxSpecs: number;
  /** rendered blocks kept, per spec version and block */
  maxBlocks: number;
  /** told of a failed read (the block shows its note meanwhile; the next request asks again) */
  failed?: (err: unknown) => void;
}

/** Specs whose files are kept (each up to the specs service's 6 MB): the bound on the memory they take. */
const MAX_HELD_SPECS = 100;

/**
 * The specs a site shows, cached: which version is a spec's latest for `ttlMs` (or until specs'
 * event of a new version or a deletion drops it), each version's files while they are the latest,
 * and each block rendered per (spec, version, block) — a version never changes.
 */
export class CachedApiSpecs {
  private readonly latest: PromiseCache<ApiSpecAnswer | undefined>;
  /** the files of the version each spec was last seen at (asked again with `known`: none sent back) */
  private readonly held = new Lru<PublishedApiSpec>(MAX_HELD_SPECS);
  private readonly blocks: Lru<string | null>;
  readonly failed: (err: unknown) => void;

  constructor(
    private readonly source: ApiSpecSource,
    settings: Partial<ApiSpecCacheSettings> = {},
    clock: () => number = Date.now,
  ) {
    const s = { ttlMs: 1000, maxSpecs: MAX_HELD_SPECS, maxBlocks: 5000, ...settings };
    this.latest = new PromiseCache(s.maxSpecs, s.ttlMs, clock);
    this.blocks = new Lru(s.maxBlocks);
    this.failed = s.failed ?? (() => undefined);
  }

  /** The spec a site's page names, at its latest version (undefined: not the site's to show). */
  async spec(site: { organizationId: string; credential?: string }, name: ApiSpecName): Promise<PublishedApiSpec | undefined> {
    const key = `${site.organizationId} ${apiSpecKey(name)}`;
    const answer = await this.latest.load(key, async () => {
      const held = this.held.get(key);
      const got = await this.source.publishedSpec(site, name, held?.versionId);
      if (!got) {
        this.held.delete(key);
        return undefined;
      }
      const files = got.files ?? (held?.versionId === got.versionId ? held.files : undefined);
      if (!files) throw new Error('specs sent no files for a version the reader does not hold');
      this.held.set(key, { specId: got.specId, versionId: got.versionId, files });
      return { ...got, files };
    });
    return answer?.files ? { specId: answer.specId, versionId: answer.versionId, files: answer.files } : undefined;
  }

  /**
   * A block rendered from its spec's version, as HTML (undefined: the spec does not hold what it
   * names). Kept serialized: a large operation is tens of kilobytes of HTML whose serializing took as
   * long as rendering it, on every page render that used it.
   */
  rendered(spec: PublishedApiSpec, block: DocumentBlock): ElementContent | undefined {
    const data = block.data ?? {};
    const key = JSON.stringify([spec.specId, spec.versionId, block.type, data.path, data.method, data.name, data.schemas]);
    let out = this.blocks.get(key);
    if (out === undefined) {
      const element = renderApiBlock(spec, block);
      out = element ? hastToHtml([element]) : null;
      this.blocks.set(key, out);
    }
    return out === null ? undefined : ({ type: 'raw', value: out } as unknown as ElementContent);
  }

  /** Drops what is known of an organization's spec (by slug) and of every spec named by URL there: its events. */
  invalidateSpec(organizationId: string, slug: string): void {
    this.latest.delete(`${organizationId} ${apiSpecKey({ slug })}`);
    this.latest.deletePrefix(`${organizationId} url:`);
  }
}

/** The specs each document names (documents are immutable and cached: a page's walk is done once). */
const namesOfDocument = new WeakMap<Document, ApiSpecName[]>();
const namesIn = (doc: Document) => {
  let names = namesOfDocument.get(doc);
  if (!names) namesOfDocument.set(doc, (names = apiSpecNamesIn([doc])));
  return names;
};

/** The specs the documents' API blocks name, each looked up for the site once; failures show the note. */
export async function apiSpecsFor(specs: CachedApiSpecs | undefined, site: { organizationId: string; credential?: string }, docs: Array<Document | undefined>) {
  const found = new Map<string, PublishedApiSpec>();
  if (!specs) return found;
  const names = new Map(docs.flatMap((d) => (d ? namesIn(d) : [])).map((n) => [apiSpecKey(n), n] as const));
  await Promise.all(
    [...names.values()].map(async (name) => {
      const spec = await specs.spec(site, name).catch((err: unknown) => void specs.failed(err));
      if (spec) found.set(apiSpecKey(name), spec);
    }),
  );
  return found;
}

/** A cache-key part: the versions of the specs a page shows ('' for a page without API blocks). */
export const apiVersionsKey = (found: Map<string, PublishedApiSpec>) =>
  [...found.entries()]
    .map(([k, s]) => `${k}=${s.versionId}`)
    .sort()
    .join(',');

/** The render context's `apiReference`: blocks whose spec the site may show, rendered from it. */
export function apiReferenceOf(specs: CachedApiSpecs | undefined, found: Map<string, PublishedApiSpec>) {
  return (block: DocumentBlock): ElementContent | undefined => {
    if (!specs || !API_BLOCK_TYPES.has(block.type)) return undefined;
    const name = apiSpecNameOf(block);
    const spec = name ? found.get(apiSpecKey(name)) : undefined;
    return spec ? specs.rendered(spec, block) : undefined;
  };
}
