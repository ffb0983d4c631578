/**
 * How long a piece of text is, counted the way JSON Schema's minLength/maxLength count it (the
 * gateway's ajv does too): in Unicode code points, not UTF-16 code units. An emoji outside the
 * Basic Multilingual Plane is one character here, two in `String.prototype.length`.
 */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** Whether `text` has from `min` to `max` characters (code points), both included. */
export function hasLengthWithin(text: string, min: number, max: number): boolean {
  const n = characterCount(text);
  return n >= min && n <= max;
}
