// Shared Jest settings: SWC transpiles TypeScript; tsconfig path aliases map to library sources.
const path = require('node:path');
const { paths } = require('./tsconfig.base.json').compilerOptions;

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(paths)) {
  moduleNameMapper[`^${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/*.spec.ts', '**/*.test.ts'],
  testTimeout: 30000,
};

