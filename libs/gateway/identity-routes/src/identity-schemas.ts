import { object, ROLE_OR_GUEST } from '@bindery/gateway/http';

/** Request schemas of identity's routes (limits from the API reference). */
export const TITLE = { type: 'string', minLength: 2, maxLength: 255 };
export const EMAIL = { type: 'string', format: 'email', maxLength: 254 };
export const EMAIL_DOMAINS = { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 253 } };

export const CREATE_ORGANIZATION = object({ title: TITLE, emailDomains: EMAIL_DOMAINS }, ['title']);

export const UPDATE_ORGANIZATION = object({
  title: TITLE,
  emailDomains: EMAIL_DOMAINS,
  hostname: { type: 'string', minLength: 3, maxLength: 32 },
  defaultRole: ROLE_OR_GUEST,
  defaultContent: { anyOf: [object({ type: { type: 'string', enum: ['site'] }, site: { type: 'string', minLength: 1, maxLength: 128 } }, ['type', 'site']), { type: 'null' }] },
  logo: { anyOf: [{ type: 'string', format: 'uri', maxLength: 2048 }, { type: 'null' }] },
  sso: { type: 'boolean' },
  ai: { type: 'boolean' },
  inviteLinks: { type: 'boolean' },
});

export const INVITE_USERS = object(
  {
    emails: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: { anyOf: [EMAIL, object({ email: EMAIL, role: ROLE_OR_GUEST }, ['email', 'role'])] },
    },
    role: ROLE_OR_GUEST,
    sso: { type: 'boolean' },
  },
  ['emails'],
);

export const CREATE_USER = object({ email: EMAIL, displayName: { type: 'string', minLength: 1, maxLength: 100 } }, ['email', 'displayName']);
export const CREATE_TOKEN = object({ label: { type: 'string', minLength: 1, maxLength: 100 } });
