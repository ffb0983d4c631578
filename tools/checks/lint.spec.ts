import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

// Lint, including the module boundaries the Nx tags define, is part of the test suite so a
// forbidden import fails CI.
describe('workspace lint', () => {
  it('passes eslint with module boundaries enforced', () => {
    // The boundary rule reads Nx's project graph; compute it first (no daemon, no network).
    execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false' },
      stdio: 'ignore',
    });
    const r = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), 'apps', 'libs', '--max-warnings=0'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
