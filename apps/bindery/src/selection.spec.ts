import { selectApps } from './selection';

describe('BINDERY_SERVICES', () => {
  const services = ['content', 'identity'];

  test('all, or nothing, is every service and both HTTP apps', () => {
    expect(selectApps('all', services)).toEqual({ services: ['content', 'identity'], http: ['gateway', 'reader'] });
    expect(selectApps(undefined, services)).toEqual({ services: ['content', 'identity'], http: ['gateway', 'reader'] });
    expect(selectApps(' ', services)).toEqual({ services: ['content', 'identity'], http: ['gateway', 'reader'] });
  });

  test('a list hosts those apps only, services in their order', () => {
    expect(selectApps('gateway, identity', services)).toEqual({ services: ['identity'], http: ['gateway'] });
    expect(selectApps('content', services)).toEqual({ services: ['content'], http: [] });
  });

  test('an unknown name is refused with the names there are', () => {
    expect(() => selectApps('identity,widgets', services)).toThrow(
      'BINDERY_SERVICES names widgets, which this build does not have; it has content, identity, gateway, reader (or all)',
    );
  });
});
