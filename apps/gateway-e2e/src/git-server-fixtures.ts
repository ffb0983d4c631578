import * as fs from 'node:fs';
import * as path from 'node:path';

// The loopback git server lives in @bindery/shared/testing (the git bench serves its repository with it too).
export { startTestGitServer } from '@bindery/shared/testing';
export type { GitRequest, TestGitServer } from '@bindery/shared/testing';

/** The files of a fixture folder (every file below it, as bytes), keyed by their path in it. */
export function fixtureFiles(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const file = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(file);
      else out[file] = fs.readFileSync(path.join(dir, file));
    }
  };
  walk('');
  return out;
}
