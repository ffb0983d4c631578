/**
 * The apps deploy/ must deploy, from their descriptors apps/<name>/service.json, e.g.
 * {"name":"identity","kind":"grpc","port":25051,"database":"bindery_identity","secrets":["BINDERY_ADMIN_TOKEN"]}.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEPLOY_ROOT } from './yaml-files';

export interface ServiceDescriptor {
  name: string;
  kind: 'grpc' | 'http' | 'monolith';
  port: number;
  database?: string;
  secrets?: string[];
  /** an HTTP app's port variable (PORT when absent: the gateway) */
  portVariable?: string;
}

export const REPO_ROOT = path.resolve(DEPLOY_ROOT, '..');

/**
 * Every apps/<dir>/service.json of an app deployed on its own (kind grpc or http), sorted by name
 * (code-unit order, like deploy/base/kustomization.yaml). The monolith (kind monolith) has deploy/small.
 */
export function readServiceDescriptors(appsDir: string = path.join(REPO_ROOT, 'apps')): ServiceDescriptor[] {
  return readAllDescriptors(appsDir).filter((d) => d.kind !== 'monolith');
}

/** Every apps/<dir>/service.json, the monolith's too. */
export function readAllDescriptors(appsDir: string = path.join(REPO_ROOT, 'apps')): ServiceDescriptor[] {
  return fs
    .readdirSync(appsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(appsDir, d.name, 'service.json')))
    .map((d) => {
      const descriptor = JSON.parse(fs.readFileSync(path.join(appsDir, d.name, 'service.json'), 'utf8')) as ServiceDescriptor;
      if (descriptor.name !== d.name) throw new Error(`apps/${d.name}/service.json: name is ${descriptor.name}`);
      return descriptor;
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** identity → IDENTITY, change-requests → CHANGE_REQUESTS: the prefix of <NAME>_GRPC_PORT, <NAME>_DB, <NAME>_GRPC_URL. */
export const envPrefix = (name: string): string => name.toUpperCase().replace(/-/g, '_');
