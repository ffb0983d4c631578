import { isObject, Json, SpecDocument } from './openapi-spec';

/** A shell word in single quotes (a quote inside closes, escapes and reopens). */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The base URL requests go to: the first server (its variables at their defaults), or Swagger 2's scheme, host and base path. */
export function serverUrl(doc: SpecDocument, pathItem: Json, op: Json): string {
  const root = doc.root;
  const servers = [op.servers, pathItem.servers, root.servers].find((s) => Array.isArray(s) && s.length) as unknown[] | undefined;
  const first = servers?.[0];
  if (isObject(first) && typeof first.url === 'string') {
    const variables = isObject(first.variables) ? first.variables : {};
    return first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const v = variables[name];
      return isObject(v) && v.default !== undefined ? String(v.default) : whole;
    });
  }
  if (typeof root.host === 'string') {
    const scheme = Array.isArray(root.schemes) && typeof root.schemes[0] === 'string' ? root.schemes[0] : 'https';
    return `${scheme}://${root.host}${typeof root.basePath === 'string' ? root.basePath : ''}`;
  }
  return typeof root.basePath === 'string' ? root.basePath : '';
}

/** How a request proves who sends it, as placeholders: headers, query parameters. */
export function securityPlaceholders(doc: SpecDocument, op: Json): { headers: string[]; query: string[] } {
  const root = doc.root;
  const requirements = (Array.isArray(op.security) ? op.security : Array.isArray(root.security) ? root.security : []) as unknown[];
  const schemes =
    isObject(root.components) && isObject(root.components.securitySchemes) ? root.components.securitySchemes : isObject(root.securityDefinitions) ? root.securityDefinitions : {};
  const first = requirements.find(isObject);
  const headers: string[] = [];
  const query: string[] = [];
  for (const name of Object.keys(first ?? {})) {
    const scheme = doc.resolve(schemes[name], doc.entry)?.value;
    if (!scheme) continue;
    const type = String(scheme.type ?? '');
    const http = String(scheme.scheme ?? '').toLowerCase();
    if (type === 'apiKey' && typeof scheme.name === 'string') {
      if (scheme.in === 'query') query.push(`${encodeURIComponent(scheme.name)}=YOUR_API_KEY`);
      else if (scheme.in === 'header') headers.push(`${scheme.name}: YOUR_API_KEY`);
    } else if ((type === 'http' && http === 'basic') || type === 'basic') headers.push('Authorization: Basic YOUR_CREDENTIALS');
    else if (type === 'http' || type === 'oauth2' || type === 'openIdConnect')
      headers.push(`Authorization: ${type === 'http' && http !== 'bearer' && http ? scheme.scheme : 'Bearer'} YOUR_TOKEN`);
  }
  return { headers, query };
}

export interface CurlInput {
  method: string;
  url: string;
  headers: string[];
  body?: { contentType: string; example: unknown };
}

/** The request as a copyable curl command, one option a line. */
export function curlCommand(input: CurlInput): string {
  const lines = [`curl -X ${input.method.toUpperCase()} ${shellQuote(input.url)}`];
  for (const h of input.headers) lines.push(`-H ${shellQuote(h)}`);
  if (input.body) {
    lines.push(`-H ${shellQuote(`Content-Type: ${input.body.contentType}`)}`);
    const data = typeof input.body.example === 'string' ? input.body.example : JSON.stringify(input.body.example ?? {}, null, 2);
    lines.push(`-d ${shellQuote(data)}`);
  }
  return lines.join(' \\\n  ');
}
