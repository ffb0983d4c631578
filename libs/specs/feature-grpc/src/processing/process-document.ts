import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
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
  /** how long each step took, in ms (logged with the outcome) */
  timings: { fetch: number; load: number; validate: number; normalise: number };
}

/**
 * Processes a source: the entry (the text, or the URL fetched through `fetchFile`), parsed (JSON or
 * YAML), the files its `$ref`s reach, validated. Throws a DocumentProblem saying what failed and where.
 * The normalised form is the files as parsed and written again as JSON in their own key order: a change
 * of formatting, comments, quoting or JSON ↔ YAML is no new version; a change of content or of the
 * order of keys (which readers see) is.
 */
export async function processDocument(source: SpecSource, fetchFile: FileFetcher, maxFiles: number): Promise<ProcessedDocument> {
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - t);
    t = now;
    return ms;
  };
  const entry = source.kind === 'text' ? { text: source.text } : await fetchFile(source.url, 'The source URL').then((f) => ({ text: f.text, url: f.url }));
  const fetch = lap();
  const loaded = await loadFiles(entry, fetchFile, maxFiles);
  const load = lap();
  const problems = await validateFiles(loaded.filesystem);
  const validate = lap();
  if (problems.length) throw new DocumentProblem('PARSE_ERROR', problems);
  const filesystemJson = JSON.stringify(loaded.filesystem);
  const hash = createHash('sha256').update(filesystemJson).digest('hex');
  return {
    timings: { fetch, load, validate, normalise: lap() },
    filesystem: loaded.filesystem,
    filesystemJson,
    hash,
    raw: entry.text,
    format: loaded.format,
    ...(source.kind === 'url' ? { sourceUrl: source.url } : {}),
  };
}
