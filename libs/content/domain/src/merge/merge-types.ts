import type { Document } from '@bindery/shared/markdown';
import { FileNode, PageNode, RootNode } from '../model/page-node';

/** A whole revision in memory: the three inputs of a merge. */
export interface RevisionSnapshot {
  root: RootNode;
  pages: Map<string, PageNode>;
  documents: Map<string, Document>;
  files: Map<string, FileNode>;
}

export interface MergeConflict {
  kind: 'page' | 'document' | 'tree' | 'file';
  page?: string;
  file?: string;
  field?: string;
  reason: string;
}

export interface MergeResult {
  /** empty = clean; otherwise the rest is a best effort (ours' value where both sides changed one thing differently, an edited page over its deletion) and must not be published */
  conflicts: MergeConflict[];
  /** merged top-level order */
  root: RootNode;
  /** the merged page set (full) */
  pages: Map<string, PageNode>;
  /** documents the merged pages reference that are not in ours (new hashes, block-merged ones included) */
  documents: Map<string, Document>;
  /** the merged file set (full) */
  files: Map<string, FileNode>;
  /** relative to ours, sorted */
  changedPages: string[];
  deletedPages: string[];
}
