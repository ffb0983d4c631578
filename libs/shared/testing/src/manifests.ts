import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { envPrefix } from '@bindery/platform/config';
import { WORKSPACE_ROOT } from './processes';

export interface AppManifest {
  name: string;
  kind: 'grpc' | 'http';
  port: number;
  database?: string;
  /** an HTTP app's own port variable (PORT when absent: the gateway) */
  portVariable?: string;
}

/** Every app's manifest (apps/<name>/service.json), gRPC services first. */
export function appManifests(): AppManifest[] {
  const apps = join(WORKSPACE_ROOT, 'apps');
  return readdirSync(apps)
    .map((dir) => join(apps, dir, 'service.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as AppManifest)
    .sort((a, b) => Number(a.kind === 'http') - Number(b.kind === 'http') || a.name.localeCompare(b.name));
}

export { envPrefix };
