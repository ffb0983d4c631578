// Lint rules, and the module boundaries the Nx tags enforce (see docs/architecture.md).
const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

// Every service's scope: the planned ones and whatever apps/*/service.json declares.
const SCOPES = [
  ...new Set([
    'identity',
    'content',
    'change-requests',
    'sites',
    'specs',
    'git-sync',
    'reader',
    ...require('./tools/stack/manifests')
      .grpcServices()
      .map((m) => m.name),
  ]),
];

const HOMES = {
  kafkajs: 'kafkajs is used only in libs/platform/events.',
  mongodb: 'mongodb is used only in data-access libraries and libs/platform/mongo.',
  '@grpc/*': 'Domain libraries hold no I/O.',
  express: 'express belongs to the gateway.',
  ajv: 'ajv belongs to the gateway.',
  'ajv-formats': 'ajv belongs to the gateway.',
};

/** The no-restricted-imports rule refusing these packages, each with where it belongs (and these modules, whole). */
function banned(packages, modules = {}) {
  return [
    'error',
    {
      patterns: packages.map((p) => ({ group: [p], message: HOMES[p] })),
      paths: Object.entries(modules).map(([name, message]) => ({ name, message })),
    },
  ];
}

/**
 * The MongoDB driver's types that libs/platform/mongo re-exports. Feature code holding them queries
 * collections itself, past its data-access library; the services listed in `DATA_ACCESS_ONLY` are
 * held to it (their feature code imports no part of libs/platform/mongo, their data-access
 * libraries export none of these names).
 */
const DRIVER_TYPES = ['Db', 'Collection', 'ClientSession', 'Document', 'MongoClient', 'Filter', 'UpdateFilter', 'FindCursor', 'AggregationCursor'];
const DATA_ACCESS_ONLY = ['search'];

/**
 * Module boundaries by Nx tag. `testOnly` tags may also be imported by spec files (the test tiers'
 * harness in libs/shared/testing), never by the code they test.
 */
function boundaries(testOnly) {
  const constraints = [
    // By type: apps wire libs; features use data-access, domain, clients, infrastructure; domain is
    // pure (no infrastructure, no generated contracts); infrastructure never reaches into services.
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:client', 'type:util', 'type:domain', 'type:infra', 'type:contracts', 'type:projection'] },
    {
      // e2e tests and benches; benches seed a service's data through its data-access library
      sourceTag: 'type:e2e',
      onlyDependOnLibsWithTags: ['type:client', 'type:util', 'type:domain', 'type:feature', 'type:data-access', 'type:testing', 'type:contracts', 'type:infra', 'type:projection'],
    },
    {
      sourceTag: 'type:feature',
      onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:domain', 'type:client', 'type:util', 'type:infra', 'type:contracts', 'type:projection'],
    },
    { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:infra'] },
    { sourceTag: 'type:projection', onlyDependOnLibsWithTags: ['type:client', 'type:util', 'type:infra', 'type:contracts'] },
    { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:util', 'type:infra', 'type:contracts'] },
    { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
    { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
    { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:util', 'type:contracts'] },
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:testing', 'type:infra', 'type:util', 'type:contracts'] },
    // By scope: a service uses its own libs, platform, shared, and other services' clients only.
    ...SCOPES.map((scope) => ({
      sourceTag: `scope:${scope}`,
      onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:platform', 'scope:shared', 'type:client', 'type:projection'],
    })),
    { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:platform', 'scope:shared', 'type:client', 'type:projection'] },
    { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:platform', 'scope:shared'] },
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:platform'] },
  ];
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: constraints.map((c) => ({ ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, ...testOnly] })),
    },
  ];
}

module.exports = [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.cache/**', 'tmp/**', '**/*.cjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': boundaries([]),
      // Infrastructure packages stay in their one home (see `banned` above).
      'no-restricted-imports': banned(['kafkajs', 'mongodb']),
    },
  },
  { files: ['**/*.spec.ts'], rules: { '@nx/enforce-module-boundaries': boundaries(['type:testing', 'scope:shared']) } },
  // Benches and workspace checks measure and inspect the infrastructure directly.
  { files: ['tools/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['libs/platform/events/**/*.ts'], rules: { 'no-restricted-imports': banned(['mongodb']) } },
  { files: ['libs/platform/mongo/**/*.ts', 'libs/*/data-access/**/*.ts'], rules: { 'no-restricted-imports': banned(['kafkajs']) } },
  { files: ['libs/*/domain/**/*.ts'], rules: { 'no-restricted-imports': banned(['mongodb', 'kafkajs', '@grpc/*', 'express', 'ajv']) } },
  {
    files: ['libs/*/feature-grpc/**/*.ts', 'libs/*/client/**/*.ts', 'libs/*/projection/**/*.ts', 'apps/identity/**/*.ts'],
    rules: { 'no-restricted-imports': banned(['mongodb', 'kafkajs', 'express', 'ajv', 'ajv-formats']) },
  },
  ...DATA_ACCESS_ONLY.flatMap((scope) => [
    {
      files: [`libs/${scope}/feature-grpc/**/*.ts`],
      ignores: ['**/*.spec.ts'],
      rules: {
        'no-restricted-imports': banned(['mongodb', 'kafkajs', 'express', 'ajv', 'ajv-formats'], {
          '@bindery/platform/mongo': `${scope} reaches MongoDB only through @bindery/${scope}/data-access.`,
        }),
      },
    },
    { files: [`libs/${scope}/data-access/**/*.ts`], rules: { 'no-restricted-exports': ['error', { restrictedNamedExports: DRIVER_TYPES }] } },
  ]),
];
