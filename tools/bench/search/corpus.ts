// The bench's made-up text: a vocabulary of 5,000 words, word i drawn with probability ∝ 1/(i+1) (Zipf).
const SYLLABLES = ['ka', 'ro', 'mi', 'te', 'lu', 'sa', 'no', 'vi', 'de', 'pa', 'zu', 'fe', 'go', 'hi', 'ja', 'qu'];

export const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return `${w}n`;
});

const CUMULATIVE = (() => {
  const out: number[] = [];
  let sum = 0;
  VOCABULARY.forEach((_, i) => out.push((sum += 1 / (i + 1))));
  return out.map((c) => c / sum);
})();

function word(): string {
  const r = Math.random();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}

export const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
