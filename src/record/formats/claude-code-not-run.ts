// Why a Claude Code call that has an error result never ran, read from the result Claude Code wrote in its place.
// Such calls must not be replayed: the model's input never reached the tool.
import { preview } from './json-values.ts';

const REJECTED = /^The user doesn't want to (proceed with this tool use|take this action right now)/;
const CANCELLED = /Cancelled: parallel tool call (.*?) errored/;
const SIBLING = /Sibling tool call errored/;
const HOOK_MESSAGE = /^(?:<tool_use_error>)?(?:PreToolUse:\S+ )?(?:\[[^\]]*\] )?hook (?:blocking )?error/i;
const DENIED =
  /^(?:Claude requested permissions? to .* but you haven't granted it yet|Permission to use \S+ has been denied)/;
// Claude Code's own refusals before the tool runs: a write to a file it has not read, or that changed since it was
// read (its read-before-write guard), a read too large to hand back. The model's input never reached the tool.
const REFUSED: [pattern: RegExp, why: string][] = [
  [/File has not been read yet\. Read it first before writing to it/, 'the file was not read first'],
  [
    /File has been modified since read, either by the user or by a linter|File content has changed since it was last read/,
    'the file changed since it was read',
  ],
  [/exceeds maximum allowed (?:size|tokens)/, 'the file is too large to read at once'],
];

// How a tool that did run reports its own failure: Bash's exit status, Claude Code's validation errors, a timeout.
const TOOL_OWN_ERROR =
  /^(?:Exit code -?\d+|<tool_use_error>|InputValidationError|Command timed out|File does not exist|Error: )/;

// The reason, or undefined when the call ran. `preToolUseHookRan`: the transcript shows a PreToolUse hook ran for
// this call, so an error result in no tool's own words is that hook's refusal ("Pre-commit validation failed: …").
export function notRunReason(content: string, preToolUseHookRan: boolean): string | undefined {
  if (REJECTED.test(content)) return 'rejected by the user';
  const cancelled = CANCELLED.exec(content);
  if (cancelled !== null) return `cancelled: the parallel call ${cancelled[1] ?? ''} failed`;
  if (SIBLING.test(content)) return 'cancelled: a parallel call failed';
  if (DENIED.test(content)) return `denied by Claude Code's permission settings: ${preview(content)}`;
  for (const [pattern, why] of REFUSED) if (pattern.test(content)) return `refused by Claude Code: ${why}`;
  if (HOOK_MESSAGE.test(content)) return `blocked by a PreToolUse hook: ${preview(content)}`;
  if (preToolUseHookRan && !TOOL_OWN_ERROR.test(content)) return `blocked by a PreToolUse hook: ${preview(content)}`;
  return undefined;
}
