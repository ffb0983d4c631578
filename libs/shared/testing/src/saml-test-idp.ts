import { createServer, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';

/**
 * The part of samlify this provider uses, declared here: samlify's own declarations pull the DOM
 * library (through @xmldom/xmldom) into every program importing this library, and the DOM's
 * RequestInit then hides Node's.
 */
interface Samlify {
  setSchemaValidator(validator: { validate(xml: string): Promise<string> }): void;
  Constants: {
    namespace: { binding: { redirect: string; post: string }; format: { emailAddress: string } };
    StatusCode: { Success: string };
  };
  SamlLib: { replaceTagsByValue(template: string, values: Record<string, string>): string };
  IdentityProvider(settings: Record<string, unknown>): {
    createLoginResponse(sp: unknown, requestInfo: unknown, binding: string, user: Record<string, string>, options: unknown): Promise<{ context: string }>;
    parseLoginRequest(sp: unknown, binding: string, request: { query: Record<string, string>; octetString: string }): Promise<{ extract: unknown }>;
  };
  ServiceProvider(settings: Record<string, unknown>): unknown;
}

/**
 * samlify, loaded on first use: this library is imported by most tests, and only SAML tests need
 * it (with its schema validator, a WebAssembly build of xmllint).
 */
function saml(): Samlify {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const samlify = require('samlify') as Samlify;
  samlify.setSchemaValidator(require('@authenio/samlify-node-xmllint') as { validate(xml: string): Promise<string> });
  /* eslint-enable @typescript-eslint/no-require-imports */
  return samlify;
}

/** The service provider a response is made for, as the identity provider knows it. */
export interface TestSp {
  entityID: string;
  acsURL: string;
}

export interface TestIdpResponseOptions {
  /** the AuthnRequest answered (SP-initiated); absent for an IdP-initiated response */
  inResponseTo?: string;
  /** false: neither the assertion nor the response is signed */
  signed?: boolean;
}

/**
 * A SAML identity provider for tests, built with samlify's IdentityProvider: its own key and
 * certificate (from `selfsigned`), responses signed as a real provider signs them. `start()` also
 * serves its SSO URL on loopback: a GET with an AuthnRequest (redirect binding) answers a page
 * that posts the response for `nextUser` to the request's ACS URL at once, as a browser would.
 */
export class TestIdp {
  private server?: Server;
  /** whom the SSO URL signs in */
  nextUser = { email: 'someone@example.test' };

  private constructor(
    readonly entityID: string,
    readonly certificate: string,
    private readonly privateKey: string,
    private ssoBase: string,
  ) {}

  static async create(entityID = `https://idp.test/${Math.random().toString(36).slice(2)}`): Promise<TestIdp> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate } = require('selfsigned') as typeof import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'idp.test' }], { keySize: 2048, algorithm: 'sha256' });
    return new TestIdp(entityID, pems.cert, pems.private, 'https://idp.test');
  }

  get ssoURL(): string {
    return `${this.ssoBase}/sso`;
  }

  private entity() {
    const samlify = saml();
    const { binding, format } = samlify.Constants.namespace;
    return samlify.IdentityProvider({
      entityID: this.entityID,
      privateKey: this.privateKey,
      signingCert: this.certificate,
      singleSignOnService: [{ Binding: binding.redirect, Location: this.ssoURL }],
      singleLogoutService: [{ Binding: binding.redirect, Location: this.ssoURL }],
      nameIDFormat: [format.emailAddress],
    });
  }

  private static spEntity(sp: TestSp, signed: boolean) {
    const samlify = saml();
    const { binding } = samlify.Constants.namespace;
    return samlify.ServiceProvider({
      entityID: sp.entityID,
      assertionConsumerService: [{ Binding: binding.post, Location: sp.acsURL }],
      wantAssertionsSigned: signed,
      wantMessageSigned: false,
    });
  }

  /**
   * A SAMLResponse (base64, as a browser posts it) signing `user` in to `sp`, valid for 5 minutes.
   * samlify's own template and signing; an IdP-initiated response leaves InResponseTo out (samlify
   * would send it empty, which the SAML schema refuses). `signed: false` takes the signature of a
   * signed response away (samlify always signs).
   */
  async respond(sp: TestSp, user: { email: string }, options: TestIdpResponseOptions = {}): Promise<string> {
    const samlify = saml();
    const { format } = samlify.Constants.namespace;
    const issued = new Date();
    const until = new Date(issued.getTime() + 5 * 60_000).toISOString();
    const id = `_${randomUUID()}`;
    const values = {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Destination: sp.acsURL,
      Audience: sp.entityID,
      SubjectRecipient: sp.acsURL,
      Issuer: this.entityID,
      IssueInstant: issued.toISOString(),
      StatusCode: samlify.Constants.StatusCode.Success,
      ConditionsNotBefore: issued.toISOString(),
      ConditionsNotOnOrAfter: until,
      SubjectConfirmationDataNotOnOrAfter: until,
      NameIDFormat: format.emailAddress,
      NameID: user.email,
      InResponseTo: options.inResponseTo ?? '',
      AuthnStatement: '',
      AttributeStatement: '',
    };
    const fill = (template: string) => {
      const t = options.inResponseTo ? template : template.replace(/ InResponseTo="\{InResponseTo\}"/g, '');
      return { id, context: samlify.SamlLib.replaceTagsByValue(t, values) };
    };
    const r = await this.entity().createLoginResponse(TestIdp.spEntity(sp, true), { extract: {} }, 'post', { email: user.email }, { customTagReplacement: fill });
    if (options.signed !== false) return r.context;
    const xml = Buffer.from(r.context, 'base64').toString('utf8');
    return Buffer.from(xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ''), 'utf8').toString('base64');
  }

  /** Serves the SSO URL on 127.0.0.1 (an ephemeral port). */
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.answerSso(req.url ?? '/').then(
        (html) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(html);
        },
        () => {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end('bad request');
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.ssoBase = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * What the provider answers a browser sent to `redirectUrl` (its SSO URL with an AuthnRequest,
   * redirect binding): a response for `user` to the request's ACS URL, answering the request.
   */
  async answer(redirectUrl: string, user = this.nextUser): Promise<{ acsURL: string; samlResponse: string; relayState?: string }> {
    const url = new URL(redirectUrl);
    const query = Object.fromEntries(url.searchParams);
    // The request names its issuer and ACS URL; the provider answers them.
    const parsed = await this.entity().parseLoginRequest(TestIdp.spEntity({ entityID: 'unknown', acsURL: 'unknown' }, true), 'redirect', { query, octetString: '' });
    const extract = parsed.extract as { request: { id: string; assertionConsumerServiceUrl: string }; issuer: string };
    const sp = { entityID: extract.issuer, acsURL: extract.request.assertionConsumerServiceUrl };
    const samlResponse = await this.respond(sp, user, { inResponseTo: extract.request.id });
    const relayState = url.searchParams.get('RelayState') ?? undefined;
    return { acsURL: sp.acsURL, samlResponse, ...(relayState ? { relayState } : {}) };
  }

  private async answerSso(path: string): Promise<string> {
    const url = new URL(path, this.ssoBase);
    if (url.pathname !== '/sso') throw new Error('not found');
    const { acsURL, samlResponse, relayState } = await this.answer(url.toString());
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    return `<!doctype html><html><body><form method="post" action="${esc(acsURL)}"><input type="hidden" name="SAMLResponse" value="${esc(samlResponse)}">${
      relayState ? `<input type="hidden" name="RelayState" value="${esc(relayState)}">` : ''
    }<noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script></body></html>`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
