import { createHash } from 'node:crypto';
import type { DocumentFormat, SpecSource } from '@bindery/specs/domain';
import { DocumentProblem } from './document-problem';
import type { FileFetcher } from './fetch-file';
import { FilesystemEntry, loadFiles } from './load-files';
import { validateFiles } from './validate-files';

/** A document that passed: its files (normalised: parsed and written again as JSON), their hash and what was received. */
export interface ProcessedDocument {
  filesystem: FilesystemEntry[];
  /** the files as JSON text; a version is new only when this text differs (its sha-256) */
  filesystemJson: string;
  hash: string;
  /** the entry file as received */
  raw: string;
  format: DocumentFormat;
  /** the URL the entry came from, after redirects (a URL source) */
  sourceUrl?: string;
}

/**
 * Processes a source: the entry (the text, or the URL fetched through `fetchFile`), parsed (JSON or
 * YAML), the files its `$ref`s reach, validated. Throws a DocumentProblem saying what failed and where.
 * The normalised form is the files as parsed and written again as JSON in their own key order: a change
 * of formatting, comments, quoting or JSON ↔ YAML is no new version; a change of content or of the
 * order of keys (which readers see) is.
 */
export async function processDocument(source: SpecSource, fetchFile: FileFetcher, maxFiles: number): Promise<ProcessedDocument> {
  const entry = source.kind === 'text' ? { text: source.text } : await fetchFile(source.url, 'The source URL').then((f) => ({ text: f.text, url: f.url }));
  const loaded = await loadFiles(entry, fetchFile, maxFiles);
  const problems = await validateFiles(loaded.filesystem);
  if (problems.length) throw new DocumentProblem('PARSE_ERROR', problems);
  const filesystemJson = JSON.stringify(loaded.filesystem);
  return {
    filesystem: loaded.filesystem,
    filesystemJson,
    hash: createHash('sha256').update(filesystemJson).digest('hex'),
    raw: entry.text,
    format: loaded.format,
    ...(source.kind === 'url' ? { sourceUrl: source.url } : {}),
  };
}
