#!/usr/bin/env node
// Validates an OpenAPI document with @seriousme/openapi-schema-validator (2.0, 3.0, 3.1, 3.2; it also
// checks that every local $ref resolves). The package is ESM only, so the Jest suites run this script.
//
//   node tools/openapi/validate-document.mjs openapi.json     (or the document on stdin)
// Prints {"valid":…,"version":…,"errors":…}; exits 1 when the document is not valid.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';

const text = readFileSync(process.argv[2] ?? 0, 'utf8');
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
process.stdout.write(`${JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null })}\n`);
process.exit(result.valid ? 0 : 1);
