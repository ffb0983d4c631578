import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CachedSource, CacheSettings } from '../cached-source';
import type { CachedApiSpecs } from '../api-specs';
import { FixtureSite, FixtureSource, FixtureSpace } from '../fixture-source';
import { createReader, Reader, ReaderOptions } from '../reader';
import { sampleSites } from '../sample-site';

export interface ServedReader {
  url: string;
  fixture: FixtureSource;
  cached: CachedSource;
  reader: Reader;
  server: Server;
  close(): Promise<void>;
}

/** The reader over the sample sites on a loopback port (tests, the browser check, the bench). */
export async function serveSampleReader(
  options: {
    cache?: Partial<CacheSettings>;
    port?: number;
    domain?: string;
    apiSpecs?: CachedApiSpecs;
    reader?: Pick<ReaderOptions, 'mcpRateLimit' | 'llmsFullMaxBytes'>;
    /** sites served beside the samples, made once the reader's URL is known */
    more?: (url: string) => Array<{ site: FixtureSite; space: FixtureSpace }>;
  } = {},
): Promise<ServedReader> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { sites, spaces } = sampleSites();
  const more = options.more?.(url) ?? [];
  const fixture = new FixtureSource([...sites, ...more.map((m) => m.site)], [...spaces, ...more.map((m) => m.space)], { domain: options.domain });
  const cached = new CachedSource(fixture, options.cache);
  const reader = createReader({ source: cached, publicUrl: url, publicDomain: options.domain, apiSpecs: options.apiSpecs, ...options.reader });
  server.on('request', reader.handle);
  return {
    url,
    fixture,
    cached,
    reader,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
