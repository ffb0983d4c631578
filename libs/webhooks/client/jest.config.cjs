module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'webhooks-client',
  rootDir: __dirname,
};
