/** The current time as ISO 8601 UTC, the only form times take in records, messages and responses. */
export function nowIso(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}
