// Lint rules, and the module boundaries the Nx tags enforce (see docs/architecture.md).
const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

const SCOPES = ['identity', 'content', 'change-requests', 'sites', 'specs', 'git-sync'];

module.exports = [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.cache/**', 'tmp/**', '**/*.cjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // By type: apps wire libs; features use data-access, domain, clients, utils; domain is pure.
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:client', 'type:util', 'type:domain'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:client', 'type:util', 'type:domain', 'type:feature'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:domain', 'type:client', 'type:util'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            // By scope: a service uses its own libs, platform, shared, and other services' clients only.
            ...SCOPES.map((scope) => ({
              sourceTag: `scope:${scope}`,
              onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:platform', 'scope:shared', 'type:client'],
            })),
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:platform', 'scope:shared', 'type:client'] },
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:platform', 'scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:platform'] },
          ],
        },
      ],
      // Infrastructure packages stay in their one home.
      'no-restricted-imports': ['error', { paths: [{ name: 'kafkajs', message: 'kafkajs is used only in libs/platform/events.' }] }],
    },
  },
  { files: ['libs/platform/events/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['libs/*/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['mongodb', 'kafkajs', '@grpc/*', 'express', 'ajv'], message: 'Domain libraries hold no I/O.' }] }],
    },
  },
  {
    files: ['libs/*/feature-grpc/**/*.ts', 'libs/*/client/**/*.ts', 'libs/*/domain/**/*.ts', 'apps/identity/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['express', 'ajv', 'ajv-formats'], message: 'express and ajv belong to the gateway.' }, { group: ['kafkajs'], message: 'kafkajs is used only in libs/platform/events.' }] }],
    },
  },
];
