/**
 * The part of samlify this service uses, declared here rather than imported from samlify's own
 * declarations: those pull in the DOM library (through @xmldom/xmldom), which would change the
 * global fetch types (RequestInit, Response …) of every program that reaches this file.
 */
export interface SamlifyEntityMeta {
  readonly __entityMeta?: never;
}

export interface SamlifyIdentityProvider {
  entityMeta: SamlifyEntityMeta;
  entitySetting: { requestSignatureAlgorithm?: string };
}

export interface SamlifyServiceProvider {
  getMetadata(): string;
  createLoginRequest(idp: SamlifyIdentityProvider, binding: 'redirect'): { id: string; context: string };
  parseLoginResponse(idp: SamlifyIdentityProvider, binding: 'post', request: { body: Record<string, string> }): Promise<{ extract: unknown }>;
}

export interface SamlifyApi {
  setSchemaValidator(validator: { validate(xml: string): Promise<string> }): void;
  setDOMParserOptions(options: { errorHandler: { error(msg: string): void; fatalError(msg: string): void } }): void;
  Constants: { namespace: { binding: { post: string; redirect: string }; format: { emailAddress: string } } };
  ServiceProvider(settings: Record<string, unknown>): SamlifyServiceProvider;
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdentityProvider;
  SamlLib: { verifySignature(xml: string, options: { metadata: SamlifyEntityMeta; signatureAlgorithm?: string }): [boolean, string | null] };
  Extractor: { extract(xml: string, fields: unknown): unknown };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const samlify = require('samlify') as SamlifyApi;
