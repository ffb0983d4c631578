import { ID_PARAM, JsonSchema, listOf, object } from '@bindery/gateway/http';
import { MAX_WEBHOOK_URL, WEBHOOK_EVENT_TYPES } from '@bindery/webhooks/client';

/** Bindery's own shapes (the official API has no webhooks): declared here, served in /openapi.json. */
export const ORG_PARAM = { organizationId: ID_PARAM };
export const WEBHOOK_PARAMS = { organizationId: ID_PARAM, webhookId: ID_PARAM };
export const DELIVERY_PARAMS = { organizationId: ID_PARAM, webhookId: ID_PARAM, deliveryId: ID_PARAM };

const EVENT_TYPE: JsonSchema = { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] };
const URL_FIELD: JsonSchema = {
  type: 'string',
  format: 'uri',
  maxLength: MAX_WEBHOOK_URL,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@]+([/?][^#]*)?$',
  description: 'where deliveries are POSTed: http(s), no credentials or fragment; the address it resolves to must be public (checked at each delivery)',
};

const FIELDS = {
  url: URL_FIELD,
  events: { type: 'array', minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true, items: EVENT_TYPE, description: 'the event types sent to it' },
  active: { type: 'boolean', description: 'false: nothing is sent (default true)' },
  description: { type: 'string', maxLength: 256 },
};
export const CREATE_WEBHOOK = object(FIELDS, ['url', 'events']);
export const UPDATE_WEBHOOK: JsonSchema = { ...object({ ...FIELDS, description: { anyOf: [FIELDS.description, { type: 'null' }] } }), minProperties: 1 };

export const WEBHOOK: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'url', 'events', 'active', 'createdAt', 'updatedAt', 'urls'],
  properties: {
    object: { type: 'string', const: 'webhook' },
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: EVENT_TYPE },
    active: { type: 'boolean' },
    disabledReason: { type: 'string', description: 'why Bindery turned it off (a day of failed deliveries)' },
    description: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    urls: { type: 'object', additionalProperties: false, required: ['location'], properties: { location: { type: 'string', format: 'uri' } } },
  },
};

export const CREATED_WEBHOOK: JsonSchema = {
  ...WEBHOOK,
  required: [...(WEBHOOK.required as string[]), 'secret'],
  properties: { ...(WEBHOOK.properties as Record<string, JsonSchema>), secret: { type: 'string', description: 'the signing secret (whsec_…), shown this once' } },
};

const ATTEMPT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'status', 'durationMs'],
  properties: {
    at: { type: 'string', format: 'date-time' },
    status: { type: 'integer', description: "the receiver's HTTP status; 0: no answer" },
    durationMs: { type: 'integer' },
    error: { type: 'string' },
    responseExcerpt: { type: 'string', description: "the first 1,024 bytes of the receiver's answer" },
  },
};

export const DELIVERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'webhook', 'event', 'eventType', 'status', 'attempts', 'createdAt'],
  properties: {
    object: { type: 'string', const: 'webhook-delivery' },
    id: { type: 'string' },
    webhook: { type: 'string' },
    event: { type: 'string', description: 'the event id (the same for a redelivery)' },
    eventType: EVENT_TYPE,
    status: { type: 'string', enum: ['queued', 'pending', 'delivered', 'failed', 'skipped'] },
    attempts: { type: 'array', items: ATTEMPT },
    createdAt: { type: 'string', format: 'date-time' },
    deliveredAt: { type: 'string', format: 'date-time' },
    redeliveryOf: { type: 'string' },
  },
};

export const WEBHOOK_LIST = listOf(WEBHOOK);
export const DELIVERY_LIST = listOf(DELIVERY);
