import { JsonSchema } from './route-registry';

/** Schema fragments shared by routes (the spec's MemberRole, list parameters …). */
export const ROLE = { type: 'string', enum: ['admin', 'create', 'review', 'edit', 'comment', 'read'] };
export const ROLE_OR_GUEST = { anyOf: [ROLE, { type: 'null' }] };
export const ID_PARAM = { type: 'string', minLength: 1, maxLength: 128 };
export const LIST_QUERY: Record<string, JsonSchema> = {
  page: { type: 'string', minLength: 1, maxLength: 512 },
  limit: { type: 'integer', minimum: 1, maximum: 1000 },
};

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** The list envelope of the API. */
export function listOf(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['items', 'count'],
    properties: { items: { type: 'array', items: item }, count: { type: 'number' }, next: { type: 'object', properties: { page: { type: 'string' } } } },
  };
}

export function toList<T>(items: T[], page: { count: number; nextPage?: string } | undefined) {
  const out: { items: T[]; count: number; next?: { page: string } } = { items, count: page?.count ?? items.length };
  if (page?.nextPage) out.next = { page: page.nextPage };
  return out;
}
