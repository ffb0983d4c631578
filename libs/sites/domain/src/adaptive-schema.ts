import { invalid } from '@bindery/platform/errors';

/**
 * A site's adaptive schema: the JSON Schema (draft-07) of the claims a visitor brings, in the official
 * SiteAdaptiveJSONSchema shape. Signed claims are the top-level properties; unsigned ones sit under
 * `properties.unsigned`. Each claim is a boolean, a string (optionally an enum), a number, an array
 * of those, or an object of further claims; every claim has a description.
 *
 * Bounds beyond the official shape (the gateway's request schema states the same): objects of
 * claims nest at most ADAPTIVE_LIMITS.depth deep, each object holds at most `properties` claims,
 * an enum at most `enumValues` values.
 */
export const ADAPTIVE_LIMITS = { depth: 4, properties: 100, enumValues: 100 } as const;

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

type Json = Record<string, unknown>;

/**
 * What a site without a schema answers: the draft-07 object with no claims, signed or unsigned,
 * and nothing else allowed (the smallest schema of the official shape; docs/sites.md).
 */
export function defaultAdaptiveSchema(): Json {
  return {
    $schema: DRAFT_07,
    type: 'object',
    properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
    additionalProperties: false,
  };
}

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function only(value: Json, allowed: string[], where: string): void {
  const extra = Object.keys(value).find((k) => !allowed.includes(k));
  if (extra !== undefined) throw invalid(`${where} has an unknown field "${extra}".`);
}

function described(value: Json, where: string): void {
  if (typeof value.description !== 'string') throw invalid(`${where}.description must be a string.`);
}

function checkPrimitive(claim: Json, where: string): void {
  if (claim.type === 'boolean' || claim.type === 'number') {
    only(claim, ['type', 'description'], where);
  } else if (claim.type === 'string') {
    only(claim, ['type', 'description', 'enum'], where);
    if (claim.enum !== undefined) {
      if (!Array.isArray(claim.enum) || claim.enum.some((v) => typeof v !== 'string')) throw invalid(`${where}.enum must be a list of strings.`);
      if (claim.enum.length > ADAPTIVE_LIMITS.enumValues) throw invalid(`${where}.enum may have at most ${ADAPTIVE_LIMITS.enumValues} values.`);
    }
  } else {
    throw invalid(`${where}.type must be one of boolean, string, number, array, object.`);
  }
  described(claim, where);
}

function checkClaims(properties: unknown, where: string, depth: number): void {
  if (!isObject(properties)) throw invalid(`${where} must be an object of claims.`);
  if (Object.keys(properties).length > ADAPTIVE_LIMITS.properties) throw invalid(`${where} may hold at most ${ADAPTIVE_LIMITS.properties} claims.`);
  for (const [name, claim] of Object.entries(properties)) checkClaim(claim, `${where}.${name}`, depth);
}

function checkClaim(claim: unknown, where: string, depth: number): void {
  if (!isObject(claim)) throw invalid(`${where} must be an object describing a claim.`);
  if (claim.type === 'array') {
    only(claim, ['type', 'description', 'items'], where);
    described(claim, where);
    if (!isObject(claim.items)) throw invalid(`${where}.items must describe a boolean, string or number.`);
    checkPrimitive(claim.items, `${where}.items`);
  } else if (claim.type === 'object') {
    only(claim, ['type', 'description', 'properties', 'additionalProperties'], where);
    described(claim, where);
    if (claim.additionalProperties !== false) throw invalid(`${where}.additionalProperties must be false.`);
    if (depth >= ADAPTIVE_LIMITS.depth) throw invalid(`Objects of claims may nest at most ${ADAPTIVE_LIMITS.depth} deep.`);
    checkClaims(claim.properties, `${where}.properties`, depth + 1);
  } else {
    checkPrimitive(claim, where);
  }
}

/**
 * Checks that `schema` has the official adaptive-schema shape (within the bounds above) and answers
 * it unchanged; a 400 naming the first field that does not fit otherwise.
 */
export function checkAdaptiveSchema(schema: unknown): Json {
  const where = 'jsonSchema';
  if (!isObject(schema)) throw invalid(`${where} must be an object.`);
  only(schema, ['$schema', 'type', 'properties', 'additionalProperties'], where);
  if (schema.$schema !== undefined && schema.$schema !== DRAFT_07) throw invalid(`${where}.$schema must be "${DRAFT_07}".`);
  if (schema.type !== 'object') throw invalid(`${where}.type must be "object".`);
  if (schema.additionalProperties !== false) throw invalid(`${where}.additionalProperties must be false.`);
  if (!isObject(schema.properties)) throw invalid(`${where}.properties must be an object.`);
  const { unsigned, ...signed } = schema.properties;
  checkClaims(signed, `${where}.properties`, 1);
  if (unsigned !== undefined) {
    const at = `${where}.properties.unsigned`;
    if (!isObject(unsigned)) throw invalid(`${at} must be an object.`);
    only(unsigned, ['type', 'description', 'properties', 'additionalProperties'], at);
    if (unsigned.type !== 'object') throw invalid(`${at}.type must be "object".`);
    if (unsigned.description !== UNSIGNED_DESCRIPTION) throw invalid(`${at}.description must be "${UNSIGNED_DESCRIPTION}".`);
    if (unsigned.additionalProperties !== false) throw invalid(`${at}.additionalProperties must be false.`);
    checkClaims(unsigned.properties, `${at}.properties`, 1);
  }
  return schema;
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `base.name`, or `base["name"]` when the name is not an identifier. */
const member = (base: string, name: string) => (IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`);

function conditionsOf(properties: Json, base: string, into: TemplateCondition[]): void {
  for (const [name, claim] of Object.entries(properties)) {
    if (!isObject(claim)) continue;
    const path = member(base, name);
    const description = String(claim.description ?? name);
    if (claim.type === 'boolean') into.push({ description, condition: `${path} === true` });
    else if (claim.type === 'string' && Array.isArray(claim.enum)) {
      for (const value of claim.enum) into.push({ description: `${description}: ${value}`, condition: `${path} === ${JSON.stringify(value)}` });
    } else if (claim.type === 'object' && isObject(claim.properties)) conditionsOf(claim.properties, path, into);
  }
}

/**
 * Conditions a section or site space may use, suggested by the schema's claims: each boolean claim
 * as `visitor.claims.<path> === true`, each value of a string enum as `visitor.claims.<path> ===
 * "<value>"` (unsigned claims under `visitor.claims.unsigned`), in the schema's order. The
 * expressions are in the language of conditions.ts (JavaScript-like, over `visitor.claims`).
 */
export function templateConditionsOf(schema: Json): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const { unsigned, ...signed } = properties;
  conditionsOf(signed, 'visitor.claims', out);
  if (isObject(unsigned) && isObject(unsigned.properties)) conditionsOf(unsigned.properties, 'visitor.claims.unsigned', out);
  return out;
}
