module.exports = require('../../../jest.infra.cjs')({
  displayName: 'webhooks-feature-grpc',
  rootDir: __dirname,
});
