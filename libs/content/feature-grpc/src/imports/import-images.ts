import { logger } from '@bindery/platform/telemetry';
import type { FileNode, InsertFileItem } from '@bindery/content/domain';
import type { ContentDeps } from '../content-deps';

export interface StoredImages {
  /** the insert_files items with the records stored for them */
  files: Map<InsertFileItem, FileNode>;
  /** an image URL → the batch-local file reference it is stored as */
  refOfUrl: Map<string, string>;
  /** images not stored: over the byte budget, refused by the outbound guard, failing */
  failed: number;
  bytes: number;
}

function fileNameOf(url: string, taken: Set<string>): string {
  let last: string;
  try {
    last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    last = '';
  }
  last = last.slice(-200) || 'image';
  const dot = last.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [last.slice(0, dot), last.slice(dot)] : [last, ''];
  let name = last;
  for (let i = 1; taken.has(name); i += 1) name = `${stem}-${i}${ext}`;
  taken.add(name);
  return name;
}

/**
 * Stores each image once through the files ingestion `insert_files` uses (the outbound guard, the size
 * limit, type sniffing, dimensions), named after its URL's last segment (made unique). An image that
 * fails is counted and left out: its page keeps the external URL. `bytesSoFar` counts against `maxBytes`.
 */
export async function storeImages(deps: ContentDeps, spaceId: string, urls: string[], bytesSoFar: number, maxBytes: number): Promise<StoredImages> {
  const out: StoredImages = { files: new Map(), refOfUrl: new Map(), failed: 0, bytes: bytesSoFar };
  const names = new Set<string>();
  for (const url of urls) {
    if (out.bytes >= maxBytes) {
      out.failed += 1;
      continue;
    }
    const item: InsertFileItem = { name: fileNameOf(url, names), url, ref: `file-${out.refOfUrl.size}` };
    try {
      const file = await deps.files.ingest(spaceId, item);
      out.files.set(item, file);
      out.refOfUrl.set(url, item.ref!);
      out.bytes += file.size;
    } catch (err) {
      out.failed += 1;
      logger.warn('website import: an image was not stored', { host: new URL(url).host, error: (err as Error).message });
    }
  }
  return out;
}
