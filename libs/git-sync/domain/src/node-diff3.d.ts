// node-diff3 declares its types through package.json "exports", which this repository's module
// resolution (node10) does not read; these are the two functions used, as the package declares them.
declare module 'node-diff3' {
  export interface MergeRegion<T> {
    ok?: T[];
    conflict?: { a: T[]; aIndex: number; o: T[]; oIndex: number; b: T[]; bIndex: number };
  }
  export function diff3Merge<T = string>(a: T[], o: T[], b: T[], options?: { excludeFalseConflicts?: boolean }): MergeRegion<T>[];
  export function diffComm<T = string>(a: T[], b: T[]): ({ common: T[]; buffer1?: never; buffer2?: never } | { common?: never; buffer1: T[]; buffer2: T[] })[];
}
