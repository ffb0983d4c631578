import express, { Request, Response } from 'express';
import { forbidden, invalid } from '@bindery/platform/errors';
import { clearedSessionCookie, cookieRequestAllowed, CSRF_REFUSAL, RawRoute, sessionCookieOf, sessionSetCookie } from '@bindery/gateway/http';
import type { SignInClient } from '@bindery/identity/client';
import { Urls } from './representations';

const PROVIDER = { name: 'samlProviderId', in: 'path' as const, required: true, schema: { type: 'string', minLength: 1, maxLength: 128 } };
const TAGS = ['sign-in'];
/** A SAMLResponse is a few kilobytes; identity refuses one over 256 KiB of base64. */
const readForm = express.urlencoded({ extended: false, limit: '300kb', parameterLimit: 10 });

function form(req: Request, res: Response): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => readForm(req, res, (err?: unknown) => (err ? reject(err) : resolve((req.body ?? {}) as Record<string, unknown>))));
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Browser sign-in (Bindery's own routes, no part of the GitBook API; documented in /openapi.json
 * under the `sign-in` tag): each organization's SAML provider gets this instance's service
 * provider metadata, an SP-initiated login and an ACS; logout ends the session. See docs/saml.md.
 */
export function signInRoutes(signIn: SignInClient, urls: Urls): RawRoute[] {
  return [
    {
      method: 'get',
      path: '/auth/saml/:samlProviderId/metadata',
      document: {
        operationId: 'getSamlServiceProviderMetadata',
        summary: "This instance's SAML service provider metadata for a provider (its entity id is this URL)",
        tags: TAGS,
        security: 'none',
        parameters: [PROVIDER],
        responses: { 200: { description: 'SAML metadata (EntityDescriptor)', contentType: 'application/samlmetadata+xml' } },
      },
      async handler(req, res) {
        const { xml } = await signIn.getSamlMetadata({ samlProviderId: text(req.params.samlProviderId) });
        res.status(200).type('application/samlmetadata+xml').send(xml);
      },
    },
    {
      method: 'get',
      path: '/auth/saml/:samlProviderId/login',
      document: {
        operationId: 'startSamlLogin',
        summary: 'Starts a sign-in at the provider (SP-initiated): redirects to its SSO URL with an AuthnRequest',
        description: '`return_to` is followed after sign-in only when it is a path of this origin. 412 when the provider is not fully configured.',
        tags: TAGS,
        security: 'none',
        parameters: [PROVIDER, { name: 'return_to', in: 'query', required: false, schema: { type: 'string', maxLength: 2000 }, description: 'a path of this origin' }],
        responses: { 302: { description: "To the provider's SSO URL (redirect binding)", headers: { Location: "the provider's SSO URL with SAMLRequest" } } },
      },
      async handler(req, res) {
        const returnTo = text(req.query.return_to);
        const { redirectUrl } = await signIn.startSamlLogin({ samlProviderId: text(req.params.samlProviderId), returnTo });
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, redirectUrl);
      },
    },
    {
      method: 'post',
      path: '/auth/saml/:samlProviderId/acs',
      document: {
        operationId: 'completeSamlLogin',
        summary: "The assertion consumer service (HTTP-POST binding): checks the provider's response, signs the user in and sets the session cookie",
        description:
          'SP- and IdP-initiated. A refused response answers 403 naming the reason class (malformed, status, signature, issuer, audience, recipient, expired, in_response_to, replay, email).',
        tags: TAGS,
        security: 'none',
        parameters: [PROVIDER],
        form: {
          schema: {
            type: 'object',
            required: ['SAMLResponse'],
            properties: { SAMLResponse: { type: 'string', description: 'base64' }, RelayState: { type: 'string' } },
          },
        },
        responses: {
          303: {
            description: "Signed in: to the requested path, or the organization's page",
            headers: { 'Set-Cookie': 'bindery_session=…; HttpOnly; Secure; SameSite=Lax; Path=/', Location: 'where to go' },
          },
        },
      },
      async handler(req, res) {
        const body = await form(req, res);
        const samlResponse = text(body.SAMLResponse);
        if (!samlResponse) throw invalid('SAMLResponse is required (a form field).');
        const r = await signIn.completeSamlLogin({ samlProviderId: text(req.params.samlProviderId), samlResponse, relayState: text(body.RelayState) });
        res.setHeader('Set-Cookie', sessionSetCookie(r.sessionSecret, new Date(r.expiresAt), urls.publicUrl));
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, r.returnTo || `${urls.appUrl}/o/${encodeURIComponent(r.organizationId)}`);
      },
    },
    {
      method: 'post',
      path: '/auth/logout',
      document: {
        operationId: 'logout',
        summary: 'Ends the browser session: revokes it, clears the cookie, and redirects to the app',
        description: 'Only from this origin (Origin or Sec-Fetch-Site), else 403.',
        tags: TAGS,
        security: 'session',
        responses: { 303: { description: 'Signed out', headers: { 'Set-Cookie': 'bindery_session=; Max-Age=0', Location: 'the app' } } },
      },
      async handler(req, res) {
        const secret = sessionCookieOf(req.headers.cookie);
        if (secret !== undefined && !cookieRequestAllowed(req.method, req.headers, urls.publicUrl)) throw forbidden(CSRF_REFUSAL);
        if (secret !== undefined) await signIn.revokeSession({ secret });
        res.setHeader('Set-Cookie', clearedSessionCookie(urls.publicUrl));
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, `${urls.appUrl}/`);
      },
    },
  ];
}
