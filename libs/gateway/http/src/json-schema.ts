/** A JSON Schema (draft 2020-12 as ajv reads it), as the routes and the served document hold one. */
export type JsonSchema = Record<string, unknown>;
