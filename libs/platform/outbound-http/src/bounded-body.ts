/**
 * A response's body as text, counting its bytes against `budget.left` (shared by the fetches of one
 * piece of work); undefined as soon as the budget is exceeded, before reading when the server
 * declares a larger `content-length`. The connection is closed rather than read to the end.
 */
export async function textWithinBudget(response: Response, budget: { left: number }): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > budget.left) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      budget.left -= next.value.byteLength;
      if (budget.left < 0) return undefined;
      chunks.push(next.value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}
