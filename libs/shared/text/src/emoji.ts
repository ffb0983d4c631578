/**
 * A reaction's emoji as Bindery takes it: 1 to 32 characters (code points, as JSON Schema counts
 * them), none of them white space or NUL (which the gateway refuses in any text). The white space is
 * JavaScript's `\s`, spelled out so that every regular expression engine (a client's JSON Schema
 * validator, a fuzzer) reads the pattern alike.
 */
export const EMOJI_MAX_LENGTH = 32;
export const EMOJI_PATTERN = '^[^\\u0000\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+$';
