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
    const r = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), 'apps', 'libs', 'deploy', 'tools', '--max-warnings=0'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('is formatted by prettier (npm run format)', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', 'apps/**/*.ts', 'libs/**/*.ts', 'tools/**/*.{js,cjs,mjs,ts}', 'deploy/**/*.ts', '*.cjs'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(r.stdout.split('\n').filter((l) => l.startsWith('[warn]'))).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('has its generated files up to date (contracts, gateway modules, vendored schemas)', () => {
    for (const script of ['tools/proto/generate.js', 'tools/generators/gateway-modules.js', 'tools/generators/monolith-services.js', 'tools/openapi/vendor-schemas.js']) {
      const r = spawnSync(process.execPath, [join(root, script), '--check'], { cwd: root, encoding: 'utf8' });
      expect({ script, status: r.status, output: r.stderr.trim() }).toEqual({ script, status: 0, output: '' });
    }
  });
});
