/**
 * Reading the YAML under deploy/ the way kubectl does: YAML 1.1 scalars (so `yes`, `on`, `0755`
 * mean what they mean to the API server's decoder), duplicate keys rejected, multi-document files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
};

export const DEPLOY_ROOT = path.resolve(__dirname, '..', '..');

/** Every *.yaml / *.yml file under `root`, sorted, skipping node_modules and dot folders. */
export function listYamlFiles(root: string = DEPLOY_ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(entry.name)) out.push(full);
    }
  };
  walk(root);
  return out.sort();
}

/** Parses YAML text into plain values, throwing on any syntax error or warning. */
export function parseYamlDocuments(text: string, label: string): unknown[] {
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(docs)) return []; // an empty stream
  const values: unknown[] = [];
  for (const doc of docs) {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length) throw new Error(`${label}: ${problems.map((p) => p.message).join('\n')}`);
    const value = doc.toJS({ maxAliasCount: 0 });
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

export function readYamlFile(file: string): unknown[] {
  return parseYamlDocuments(fs.readFileSync(file, 'utf8'), path.relative(DEPLOY_ROOT, file));
}

export function isKustomizeFile(value: unknown): boolean {
  const v = value as { apiVersion?: unknown } | null;
  return typeof v?.apiVersion === 'string' && v.apiVersion.startsWith('kustomize.config.k8s.io/');
}

export function isK8sObject(value: unknown): value is K8sObject {
  const v = value as Partial<K8sObject> | null;
  return !!v && typeof v === 'object' && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && !isKustomizeFile(v);
}
