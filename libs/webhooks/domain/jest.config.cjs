module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'webhooks-domain',
  rootDir: __dirname,
};
