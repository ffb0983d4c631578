import { FileNode } from '../model/page-node';
import { MergeConflict } from './merge-types';
import { same } from './three-way';

/** Files by id, three-way: inserted or changed on one side → taken; the same id with different records on both sides → conflict. */
export function mergeFiles(base: Map<string, FileNode>, ours: Map<string, FileNode>, theirs: Map<string, FileNode>): { files: Map<string, FileNode>; conflicts: MergeConflict[] } {
  const files = new Map<string, FileNode>();
  const conflicts: MergeConflict[] = [];
  for (const id of [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort()) {
    const [b, o, t] = [base.get(id), ours.get(id), theirs.get(id)];
    if (same(o, t) || same(t, b)) {
      if (o) files.set(id, o);
    } else if (same(o, b)) {
      if (t) files.set(id, t);
    } else {
      const reason = !o || !t ? 'deleted on one side, changed on the other' : b ? 'changed differently on both sides' : 'inserted on both sides with different records';
      conflicts.push({ kind: 'file', file: id, reason });
      if (o ?? t) files.set(id, (o ?? t)!);
    }
  }
  return { files, conflicts };
}
