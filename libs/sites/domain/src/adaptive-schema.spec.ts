import { checkAdaptiveSchema, defaultAdaptiveSchema, templateConditionsOf, UNSIGNED_DESCRIPTION } from './adaptive-schema';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan of the visitor' },
    isStaff: { type: 'boolean', description: 'Visitor works here' },
    org: { type: 'object', description: 'Organization', properties: { 'is-partner': { type: 'boolean', description: 'A partner' } }, additionalProperties: false },
    seats: { type: 'number', description: 'Seats' },
    unsigned: {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: {
        isBetaUser: { type: 'boolean', description: 'Visitor is a beta user' },
        tags: { type: 'array', description: 'Tags', items: { type: 'string', description: 'A tag' } },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('adaptive schema', () => {
  test('the official shape is accepted as given, and the default is of it', () => {
    expect(checkAdaptiveSchema(schema)).toBe(schema);
    expect(checkAdaptiveSchema(defaultAdaptiveSchema())).toEqual(defaultAdaptiveSchema());
    expect(checkAdaptiveSchema({ type: 'object', properties: {}, additionalProperties: false })).toBeTruthy();
  });

  test.each([
    ['not an object', []],
    ['an open top level', { ...schema, additionalProperties: true }],
    ['an unknown field', { ...schema, title: 'x' }],
    ['another draft', { ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' }],
    ['a claim without description', { type: 'object', properties: { a: { type: 'boolean' } }, additionalProperties: false }],
    ['an unknown claim type', { type: 'object', properties: { a: { type: 'integer', description: 'x' } }, additionalProperties: false }],
    ['an enum of numbers', { type: 'object', properties: { a: { type: 'string', enum: [1], description: 'x' } }, additionalProperties: false }],
    ['an open object claim', { type: 'object', properties: { a: { type: 'object', description: 'x', properties: {}, additionalProperties: true } }, additionalProperties: false }],
    ['unsigned with another description', { type: 'object', properties: { unsigned: { ...schema.properties.unsigned, description: 'Mine' } }, additionalProperties: false }],
  ])('%s is refused', (_, bad) => {
    expect(() => checkAdaptiveSchema(bad)).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });

  test('objects of claims nest at most 4 deep', () => {
    const nest = (depth: number): object =>
      depth === 0 ? { type: 'boolean', description: 'leaf' } : { type: 'object', description: 'level', properties: { x: nest(depth - 1) }, additionalProperties: false };
    expect(() => checkAdaptiveSchema({ type: 'object', properties: { a: nest(3) }, additionalProperties: false })).not.toThrow();
    expect(() => checkAdaptiveSchema({ type: 'object', properties: { a: nest(4) }, additionalProperties: false })).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });

  test('template conditions come from boolean claims and string enums, signed then unsigned', () => {
    expect(templateConditionsOf(schema)).toEqual([
      { description: 'Plan of the visitor: free', condition: 'visitor.claims.plan === "free"' },
      { description: 'Plan of the visitor: pro', condition: 'visitor.claims.plan === "pro"' },
      { description: 'Visitor works here', condition: 'visitor.claims.isStaff === true' },
      { description: 'A partner', condition: 'visitor.claims.org["is-partner"] === true' },
      { description: 'Visitor is a beta user', condition: 'visitor.claims.unsigned.isBetaUser === true' },
    ]);
    expect(templateConditionsOf(defaultAdaptiveSchema())).toEqual([]);
  });
});
