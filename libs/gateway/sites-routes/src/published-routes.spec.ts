import { componentSchemasFor, JsonSchema, officialSchema } from '@bindery/gateway/http';
import { publishedRoutes } from './published-routes';

describe('redirect sources', () => {
  const routes = publishedRoutes({ published: {} } as never, {} as never);
  const taken = (operationId: string) => {
    const route = routes.find((r) => r.operationId === operationId)!;
    return route.body ? ((route.body.properties as Record<string, JsonSchema>).source as JsonSchema) : (route.query!.source as JsonSchema);
  };

  it('are answered in the form they are taken: the served SiteRedirectSourcePath is the requests’ source', () => {
    const answered = componentSchemasFor([officialSchema('SiteRedirectSourcePath')]).SiteRedirectSourcePath;
    for (const operationId of ['createSiteRedirect', 'updateSiteRedirectById', 'getSiteRedirectBySource'])
      expect([operationId, taken(operationId).pattern, taken(operationId).maxLength]).toEqual([operationId, answered.pattern, answered.maxLength]);
    const pattern = new RegExp(answered.pattern as string);
    expect(['/guides/*', '/guides*', '/a+b', '/guides/setup'].filter((s) => !pattern.test(s))).toEqual([]);
    expect(['/', '/*', '/a*b', 'guides', '/a b'].filter((s) => pattern.test(s))).toEqual([]);
  });
});
