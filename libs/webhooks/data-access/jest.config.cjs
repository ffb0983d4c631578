module.exports = require('../../../jest.infra.cjs')({
  displayName: 'webhooks-data-access',
  rootDir: __dirname,
});
