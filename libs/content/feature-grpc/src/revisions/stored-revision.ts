import type { Document } from '@bindery/shared/markdown';
import {
  EMPTY_TRIE_HASH,
  FileNode,
  PageNode,
  RevisionReader,
  ROOT_KEY,
  RevisionSource,
  RootNode,
  TrieNode,
  TrieNodeSource,
  trieEntries,
  trieGet,
  trieGetMany,
} from '@bindery/content/domain';
import type { ContentObjectsRepository, RevisionRecord } from '@bindery/content/data-access';

/** The page and file maps of one stored revision, read lazily through the content-addressed store. */
export class StoredRevision implements RevisionSource, RevisionReader {
  readonly nodes: TrieNodeSource;
  private allFiles?: Promise<FileNode[]>;

  constructor(
    private readonly objects: ContentObjectsRepository,
    readonly spaceId: string,
    readonly record: RevisionRecord,
  ) {
    this.nodes = { nodes: (hashes) => this.objects.getMany<TrieNode>(spaceId, hashes) };
  }

  get pagesRoot(): string {
    return this.record.pages ?? EMPTY_TRIE_HASH;
  }

  get filesRoot(): string {
    return this.record.files ?? EMPTY_TRIE_HASH;
  }

  async page(id: string): Promise<PageNode | undefined> {
    if (id === ROOT_KEY) return undefined;
    const hash = await trieGet(this.nodes, this.pagesRoot, id);
    return hash ? this.objects.get<PageNode>(this.spaceId, hash) : undefined;
  }

  async root(): Promise<RootNode> {
    const hash = await trieGet(this.nodes, this.pagesRoot, ROOT_KEY);
    return (hash && (await this.objects.get<RootNode>(this.spaceId, hash))) || { children: [] };
  }

  async file(id: string): Promise<FileNode | undefined> {
    const hash = await trieGet(this.nodes, this.filesRoot, id);
    return hash ? this.objects.get<FileNode>(this.spaceId, hash) : undefined;
  }

  files(): Promise<FileNode[]> {
    this.allFiles ??= (async () => {
      const entries = await trieEntries(this.nodes, this.filesRoot);
      const records = await this.objects.getMany<FileNode>(this.spaceId, [...entries.values()]);
      return [...entries.values()].map((h) => records.get(h)!).filter(Boolean);
    })();
    return this.allFiles;
  }

  /** The pages with these ids (absent ones left out), in a few round trips whatever their number. */
  async pagesOf(ids: readonly string[]): Promise<Map<string, PageNode>> {
    return this.recordsOf<PageNode>(
      this.pagesRoot,
      ids.filter((id) => id !== ROOT_KEY),
    );
  }

  /** The files with these ids (absent ones left out). */
  async filesOf(ids: readonly string[]): Promise<Map<string, FileNode>> {
    return this.recordsOf<FileNode>(this.filesRoot, ids);
  }

  private async recordsOf<T>(root: string, keys: readonly string[]): Promise<Map<string, T>> {
    if (!keys.length) return new Map();
    const addresses = await trieGetMany(this.nodes, root, keys);
    const records = await this.objects.getMany<T>(this.spaceId, [...addresses.values()]);
    const out = new Map<string, T>();
    for (const [key, hash] of addresses) {
      const record = records.get(hash);
      if (record) out.set(key, record);
    }
    return out;
  }

  document(hash: string): Promise<Document | undefined> {
    return this.objects.get<Document>(this.spaceId, hash);
  }

  async documents(hashes: readonly string[]): Promise<Map<string, Document>> {
    return this.objects.getMany<Document>(this.spaceId, hashes);
  }

  /** Every page of the revision by id, and the root order (a whole-tree read). */
  async allPages(): Promise<{ pages: Map<string, PageNode>; root: RootNode }> {
    const entries = await trieEntries(this.nodes, this.pagesRoot);
    const records = await this.objects.getMany<PageNode | RootNode>(this.spaceId, [...entries.values()]);
    const pages = new Map<string, PageNode>();
    let root: RootNode = { children: [] };
    for (const [key, hash] of entries) {
      const record = records.get(hash);
      if (!record) continue;
      if (key === ROOT_KEY) root = record as RootNode;
      else pages.set(key, record as PageNode);
    }
    return { pages, root };
  }
}
