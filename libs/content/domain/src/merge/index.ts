/** Three-way merge of revisions, for change requests (see docs/merge.md). */
export * from './merge-types';
export * from './merge-revisions';
export * from './merge-changed';
export { mergeSequences, changedRegions } from './sequence-diff3';
export type { ChangedRegion, SequenceConflict, SequenceMerge, MergedItem } from './sequence-diff3';
export { commonSubsequence } from './sequence-diff';
