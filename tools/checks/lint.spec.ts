import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/**
 * What the boundary rule's answer for one file depends on besides that file: every project's
 * project.json (names, tags) and the workspace settings. ESLint's cache keeps a file's result while the
 * file and the lint configuration are unchanged; it is kept per state of these inputs, so a changed tag
 * lints every file again.
 */
function boundaryInputsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory() && !['node_modules', 'dist', '.cache', '.nx', 'tmp'].includes(e.name)) walk(join(dir, e.name));
      else if (e.name === 'project.json' || e.name === 'service.json') hash.update(join(dir, e.name)).update(readFileSync(join(dir, e.name)));
    }
  };
  for (const dir of ['apps', 'libs', 'deploy', 'tools']) walk(join(root, dir));
  for (const file of ['nx.json', 'tsconfig.base.json', 'package-lock.json', 'eslint.config.cjs']) hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/** .cache/eslint/<inputs hash>/, the caches of other states removed. */
function eslintCache(): string {
  const parent = join(root, '.cache', 'eslint');
  const name = boundaryInputsHash();
  if (existsSync(parent)) for (const other of readdirSync(parent)) if (other !== name) rmSync(join(parent, other), { recursive: true, force: true });
  mkdirSync(join(parent, name), { recursive: true });
  return join(parent, name) + '/';
}

// Lint, including the module boundaries the Nx tags define, is part of the test suite so a
// forbidden import fails CI. Both tools cache by content (.cache/, ignored by git): a second run
// checks only the files that changed.
describe('workspace lint', () => {
  it('passes eslint with module boundaries enforced', () => {
    // The boundary rule reads Nx's project graph; compute it first (no daemon, no network).
    execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false' },
      stdio: 'ignore',
    });
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/eslint/bin/eslint.js'),
        'apps',
        'libs',
        'deploy',
        'tools',
        '--max-warnings=0',
        '--cache',
        '--cache-strategy=content',
        `--cache-location=${eslintCache()}`,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('is formatted by prettier (npm run format)', () => {
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/prettier/bin/prettier.cjs'),
        '--check',
        '--cache',
        '--cache-strategy=content',
        `--cache-location=${join(root, '.cache', 'prettier', 'check.json')}`,
        'apps/**/*.ts',
        'libs/**/*.ts',
        'tools/**/*.{js,cjs,mjs,ts}',
        'deploy/**/*.ts',
        '*.cjs',
      ],
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
