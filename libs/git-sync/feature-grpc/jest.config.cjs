module.exports = require('../../../jest.infra.cjs')({
  displayName: 'git-sync-feature-grpc',
  rootDir: __dirname,
});
