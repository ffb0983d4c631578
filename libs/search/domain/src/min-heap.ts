/** The `size` largest numbers offered (only their smallest is asked). */
export class MinHeap {
  private readonly items: number[] = [];
  constructor(private readonly size: number) {}
  get full(): boolean {
    return this.items.length >= this.size;
  }
  get min(): number {
    return this.items[0] ?? 0;
  }
  offer(x: number): void {
    const h = this.items;
    if (h.length < this.size) {
      h.push(x);
      for (let i = h.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (h[parent] <= h[i]) break;
        [h[parent], h[i]] = [h[i], h[parent]];
        i = parent;
      }
    } else if (x > h[0]) {
      h[0] = x;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l] < h[m]) m = l;
        if (r < h.length && h[r] < h[m]) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
  }
}
