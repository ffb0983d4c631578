module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-webhooks-routes',
  rootDir: __dirname,
};
