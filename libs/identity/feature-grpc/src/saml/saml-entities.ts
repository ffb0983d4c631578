import { samlify } from './samlify-api';
import { SAML_CLOCK_SKEW_MS, SamlProviderRecord, samlServiceProvider } from '@bindery/identity/domain';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xmllint = require('@authenio/samlify-node-xmllint') as { validate(xml: string): Promise<string> };

// samlify refuses to read any message without a schema validator: every response is validated
// against the SAML schemas (xmllint, in WebAssembly) before its signature is looked at. The
// validator prints its errors, which quote the document, on the console: it runs silenced (its
// check is synchronous; only the answer is used).
samlify.setSchemaValidator({
  validate(xml: string) {
    const print = console.error;
    console.error = () => undefined;
    try {
      return xmllint.validate(xml);
    } finally {
      console.error = print;
    }
  },
});
// xmldom, which samlify parses with, expands no external entity; its errors are made fatal by
// samlify's own defaults, restated here so that a later change of defaults cannot loosen them.
// A DOCTYPE is refused before parsing (saml-response-check.ts).
samlify.setDOMParserOptions({
  errorHandler: {
    error: (msg: string) => {
      throw new Error(`XML parsing error: ${msg}`);
    },
    fatalError: (msg: string) => {
      throw new Error(`XML fatal error: ${msg}`);
    },
  },
});

const { binding, format } = samlify.Constants.namespace;
export const EMAIL_NAME_ID_FORMAT = format.emailAddress;

/** This instance as the service provider of one SAML provider; it signs nothing (it holds no key). */
export function serviceProviderOf(publicUrl: string, providerId: string) {
  const urls = samlServiceProvider(publicUrl, providerId);
  const entity = samlify.ServiceProvider({
    entityID: urls.entityID,
    assertionConsumerService: [{ Binding: binding.post, Location: urls.acsURL }],
    authnRequestsSigned: false,
    wantAssertionsSigned: true,
    wantMessageSigned: false,
    nameIDFormat: [EMAIL_NAME_ID_FORMAT],
    clockDrifts: [-SAML_CLOCK_SKEW_MS, SAML_CLOCK_SKEW_MS],
  });
  return { entity, urls };
}

export type ConfiguredProvider = SamlProviderRecord & Required<Pick<SamlProviderRecord, 'entityID' | 'certificate' | 'ssoURL'>>;

/**
 * The organization's identity provider as samlify sees it: its entity id, its one signing
 * certificate (the only key a response may be signed with) and its SSO URL. The single logout
 * service is never used; it is set so that samlify does not warn on the console at each build.
 */
export function identityProviderOf(provider: ConfiguredProvider) {
  return samlify.IdentityProvider({
    entityID: provider.entityID,
    signingCert: provider.certificate,
    singleSignOnService: [{ Binding: binding.redirect, Location: provider.ssoURL }],
    singleLogoutService: [{ Binding: binding.redirect, Location: provider.ssoURL }],
    wantAuthnRequestsSigned: false,
  });
}
