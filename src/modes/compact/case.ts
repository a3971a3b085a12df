// A compact-context case file (cases/compact-context.schema.json, named by the mode's row in
// src/modes/mode-table.ts): a loop case whose request also carries `compact_threshold`, the estimated size in tokens
// past which the loop compacts. Its turns include the summaries the loop asks for, each served as the answer to the
// request that asks. Code outside this mode holds a case as the shared CaseData (src/course/types.ts).
import type { LoopCaseData, LoopRequestData } from '../loop/case.ts';

// The keys of a request the compact mode's fake API records: a loop's, and the threshold, which a loop that sends
// it to the API shows in the request it sent.
export const COMPACT_REQUEST_KEYS = [
  'model',
  'max_tokens',
  'system',
  'tools',
  'messages',
  'compact_threshold',
] as const;

// `transcripts_before`: the files .transcripts/ holds when the loop starts, by name, each its text (a transcript an
// earlier session wrote): a compaction's file is the first transcript-<n>.jsonl not among them.
export type CompactCaseData = LoopCaseData & {
  request: LoopRequestData & { compact_threshold: number };
  transcripts_before?: Record<string, string>;
};

// The case key of the files .transcripts/ holds before the run, and the names they may have.
export const TRANSCRIPTS_BEFORE = 'transcripts_before';
export const TRANSCRIPT_FILE_NAME = /^transcript-[1-9][0-9]{0,5}\.jsonl$/;
