/**
 * A longest common subsequence of two key sequences, by Myers' O((N+M)·D) greedy algorithm.
 *
 * Written here rather than taken from a package: the merge needs only the matched index pairs, the
 * algorithm is forty lines, and a property test checks it against a quadratic reference.
 */

/** Beyond this many edits the middle is treated as wholly replaced: the trace grows with D², and a safe answer (a conflict) beats a slow one. */
export const MAX_EDIT_DISTANCE = 2000;

/** Index pairs [i in a, j in b] of a longest common subsequence, increasing in both. */
export function commonSubsequence(a: readonly string[], b: readonly string[], maxEdits = MAX_EDIT_DISTANCE): Array<[number, number]> {
  // Equal heads and tails are matched directly: most edits touch a small middle, and it keeps D small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < head; i += 1) pairs.push([i, i]);
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail), maxEdits);
  for (const [i, j] of middle) pairs.push([i + head, j + head]);
  for (let t = tail; t > 0; t -= 1) pairs.push([a.length - t, b.length - t]);
  return pairs;
}

function myers(a: readonly string[], b: readonly string[], maxEdits: number): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  // trace[d][k + d] = the furthest x reached on diagonal k = x - y with d edits, -1 where none lands inside the grid
  const trace: Int32Array[] = [];
  const limit = Math.min(n + m, maxEdits);
  for (let d = 0; d <= limit; d += 1) {
    const frontier = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x = d === 0 ? 0 : step(trace[d - 1], d, k, n, m).x;
      if (x < 0) {
        frontier[k + d] = -1;
        continue;
      }
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      frontier[k + d] = x;
      if (x >= n && y >= m) {
        trace.push(frontier);
        return backtrack(trace, n, m);
      }
    }
    trace.push(frontier);
  }
  return [];
}

/**
 * The edit reaching diagonal k at step d: down from k + 1 (take one of b) or right from k - 1 (drop one
 * of a), whichever gets further while staying inside the grid; down on a tie, as Myers does.
 */
function step(previous: Int32Array, d: number, k: number, n: number, m: number): { x: number; from: number } {
  let x = -1;
  let from = k;
  if (k < d) {
    const down = previous[k + 1 + d - 1];
    if (down >= 0 && down - k <= m) [x, from] = [down, k + 1];
  }
  if (k > -d) {
    const right = previous[k - 1 + d - 1];
    if (right >= 0 && right + 1 <= n && right + 1 > x) [x, from] = [right + 1, k - 1];
  }
  return { x, from };
}

/** Walks the trace back from (n, m), collecting the diagonal moves (the matches). */
function backtrack(trace: Int32Array[], n: number, m: number): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d -= 1) {
    const { from } = step(trace[d - 1], d, x - y, n, m);
    const prevX = trace[d - 1][from + d - 1];
    const prevY = prevX - from;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      pairs.push([x, y]);
    }
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x -= 1;
    y -= 1;
    pairs.push([x, y]);
  }
  return pairs.reverse();
}
