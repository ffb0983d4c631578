import { object, ROLE_OR_GUEST, trimmedText } from '@bindery/gateway/http';
import { TEXT_LIMITS } from '@bindery/shared/text';

/** Request schemas of identity's routes (limits from the API reference). */
export const TITLE = trimmedText(TEXT_LIMITS.organizationTitle.min, TEXT_LIMITS.organizationTitle.max);
export const EMAIL = { type: 'string', format: 'email', maxLength: 254 };
// As identity takes them (organization-rules.ts): domain names, in any case.
export const EMAIL_DOMAINS = {
  type: 'array',
  maxItems: 50,
  items: {
    type: 'string',
    minLength: 4,
    maxLength: 253,
    pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
    description: 'a domain name, such as example.com',
  },
};

export const CREATE_ORGANIZATION = object({ title: TITLE, emailDomains: EMAIL_DOMAINS }, ['title']);

export const UPDATE_ORGANIZATION = object({
  title: TITLE,
  emailDomains: EMAIL_DOMAINS,
  hostname: {
    type: 'string',
    minLength: 3,
    maxLength: 32,
    pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$',
    description: '3 to 32 letters, digits or inner hyphens',
  },
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

export const CREATE_USER = object({ email: EMAIL, displayName: trimmedText(1, 100) }, ['email', 'displayName']);
export const CREATE_TOKEN = object({ label: { type: 'string', minLength: 1, maxLength: 100 } });
