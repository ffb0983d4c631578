// Shared Jest settings: SWC transpiles TypeScript; tsconfig path aliases map to library sources.
const path = require('node:path');
const { paths } = require('./tsconfig.base.json').compilerOptions;

const moduleNameMapper = {};
// `@bindery/<scope>/<name>` → libs/<scope>/<name>/src/index.ts (one wildcard alias, so a new library needs no entry).
for (const [alias, [target]] of Object.entries(paths)) {
  const pattern = alias.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '(.*)');
  moduleNameMapper[`^${pattern}$`] = path.join(__dirname, target.replace('*', '$1'));
}

module.exports = {
  testEnvironment: 'node',
  // `module-sync` is the condition Node's own require(esm) resolves with (file-type exports only that and import).
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons', 'module-sync'] },
  transform: {
    '^.+\\.m?js$': path.join(__dirname, 'tools/test/esm-package-transform.cjs'),
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper,
  // Only ES-module-only packages are compiled (see the transformer); the rest of node_modules passes through.
  transformIgnorePatterns: [],
  testMatch: ['**/*.spec.ts', '**/*.test.ts'],
  // Unit tests: in memory, no process or database to wait for.
  globals: { TEST_TIMEOUT_MS: 5000 },
  setupFilesAfterEnv: [path.join(__dirname, 'tools/test/test-timeout.cjs')],
};
