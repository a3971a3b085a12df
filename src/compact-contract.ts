// The words and limits of the stage "Compact the context" (docs/stages/compact-context.md), in one place: the
// reference loop keeps them and the compact mode's judge names them in its messages. Shipped with the package (the
// reference loop is not), so a course's code may import them too.

// Micro-compaction: this many of the most recent tool_results stay whole, whatever their length.
export const KEEP_RECENT_RESULTS = 3;
// An older tool_result whose content is longer than this many characters becomes a placeholder.
export const PLACEHOLDER_OVER_CHARS = 100;
// The placeholder an older long tool_result's content becomes: the tool's name from its tool_use.
export const placeholder = (tool: string): string => `[Previous: used ${tool}]`;
// The name in a placeholder whose tool_use is not in the conversation.
export const UNKNOWN_TOOL = 'unknown';

// The conversation's estimated size, in tokens: the characters of its JSON divided by this, not rounded.
export const CHARS_PER_TOKEN = 4;
// Where a compaction writes the conversation, under the working directory: transcript-<n>.jsonl, n from 1.
export const TRANSCRIPT_DIR = '.transcripts';
export const transcriptName = (n: number): string => `transcript-${n}.jsonl`;
// What the grader reads after a transcript's lines when its last line has no line break after it.
export const NO_FINAL_BREAK = '(no line break after the last line)';

// The summary request: this instruction, a blank line, then the conversation's JSON cut to SUMMARY_INPUT_CHARS.
export const SUMMARY_INSTRUCTION =
  'Summarize this conversation for continuity. Include: 1) What was accomplished, 2) Current state, 3) Key decisions made. Be concise but preserve critical details.';
export const SUMMARY_INPUT_CHARS = 80_000;
export const SUMMARY_MAX_TOKENS = 2000;
// The conversation after a compaction: a user message of this marker, a blank line and the summary, then this
// acknowledgement as the assistant's.
export const COMPRESSED_MARKER = '[Compressed]';
export const ACKNOWLEDGEMENT = 'Understood. I have the context from the summary. Continuing.';

// The tool the model calls to compact on demand, and the result its call gets (execute never sees it).
export const COMPACT_TOOL = 'compact';
export const COMPACT_RESULT = 'Compressing...';
