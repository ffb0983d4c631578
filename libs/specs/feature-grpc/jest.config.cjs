const path = require('node:path');

module.exports = require('../../../jest.infra.cjs')({
  displayName: 'specs-feature-grpc',
  rootDir: __dirname,
  // @scalar/openapi-parser copies documents with structuredClone: see the file for why Jest needs this.
  setupFiles: [path.join(__dirname, '../../../tools/test/realm-structured-clone.cjs')],
});
