// Whether a replayed result reproduces the recorded one, by a rule per tool (docs/recording-rules.md, "Replay rules"):
// the agent's harness words its results differently from the course's tools, so each rule compares what both
// mean and nothing else: the lines a view showed, whether a write created or overwrote and what the file held
// afterwards, the set of paths or lines a glob or grep listed, a command's exit code and output.
import type { ImportedResult } from '../types.ts';
import type { MappedCall } from '../record-types.ts';
import { courseListing, listedPaths } from '../map/listed-paths.ts';
import { readGeminiListing } from '../map/gemini-listing.ts';
import { readLsTree, viewEntries, viewLevels } from '../map/ls-tree.ts';
import { readShownFile, type ShownFile } from '../map/view-text.ts';

// A result as the reference returned it in the replay.
export type Replayed = { content?: unknown; is_error?: boolean; exit_code?: number; threw?: string };

// The verdict, with both sides as compared (for the report's diff) when they differ.
export type ReplayVerdict = { ok: true } | { ok: false; reason: string; recorded: string; replayed: string };

// Judges one call. `after`: the file the call wrote, as it was right after it in the replay.
export function verifyResult(
  mapped: MappedCall,
  recorded: ImportedResult | undefined,
  replayed: Replayed,
  after?: string | null,
): ReplayVerdict {
  const tool = mapped.call.tool;
  if (recorded === undefined) return differ('no recorded result', '(none)', show(replayed));
  if (replayed.threw !== undefined) return differ(`${tool} threw in the replay`, recorded.content, replayed.threw);
  const text = typeof replayed.content === 'string' ? replayed.content : JSON.stringify(replayed.content);
  const check = mapped.check;
  if (check.kind === 'bash') return verifyBash(recorded, replayed, text);
  const recordedError = recorded.isError;
  const replayedError = replayed.is_error === true;
  if (recordedError || replayedError) {
    if (recordedError !== replayedError)
      return differ(
        `${tool}: ${recordedError ? 'an error' : 'a success'} in the recording, not in the replay`,
        recorded.content,
        text,
      );
    const a = errorKind(recorded.content);
    const b = errorKind(text);
    return a === b && a !== 'other' ? { ok: true } : differ(`${tool}: a different error`, recorded.content, text);
  }
  switch (check.kind) {
    case 'view':
      return verifyView(tool, recorded.content, text);
    case 'write': {
      const a = writeKind(recorded);
      const b = writeKind({ content: text, isError: false, line: 0 });
      return a === b || a === undefined
        ? { ok: true }
        : differ(`${tool}: ${a} in the recording, ${String(b)} in the replay`, recorded.content, text);
    }
    case 'edit':
    case 'insert':
      if (check.kind === 'edit' && check.expectedAfter !== undefined && after !== check.expectedAfter) {
        return differ(`${tool}: the file afterwards differs`, check.expectedAfter, after ?? '(no file)');
      }
      return { ok: true };
    case 'directory': {
      const listed = check.from === 'list_directory';
      const tree = listed ? readGeminiListing(recorded.content) : readLsTree(recorded.content, check.base);
      if (tree === undefined)
        return differ(`${tool}: the recording is no listing of the directory`, recorded.content, text);
      const levels = listed ? 1 : 2;
      const a = viewLevels(tree, levels).join('\n');
      const b = viewLevels(viewEntries(text, check.ignore), levels).join('\n');
      return a === b ? { ok: true } : differ(`${tool}: different entries`, a, b);
    }
    case 'glob':
    case 'grep': {
      const a = listedPaths(check, recorded.content);
      const b = courseListing(check, text);
      const [x, y] = check.kind === 'glob' || check.mode === 'files' ? [a.files, b.files] : [a.texts, b.texts];
      const same = x.length === y.length && x.every((v, i) => v === y[i]);
      return same
        ? { ok: true }
        : differ(
            `${tool}: different ${check.kind === 'glob' || check.mode === 'files' ? 'files' : 'lines'}`,
            x.join('\n'),
            y.join('\n'),
          );
    }
  }
}

function verifyView(tool: string, recorded: string, replayed: string): ReplayVerdict {
  const a = readShownFile(recorded);
  const b = readShownFile(replayed.replace(/\n\[truncated: [^\]]*\]$/, ''));
  const left = numbered(a, b);
  const right = numbered(b, a);
  return left === right ? { ok: true } : differ(`${tool}: different lines`, left, right);
}

// A view's lines as `N: text` (or bare text when either side shows no numbers), without Claude Code's phantom
// last line: the empty line it shows after a final newline, one past the other side's last line.
function numbered(shown: ShownFile, other: ShownFile): string {
  const lines = [...shown.lines];
  const last = lines.at(-1);
  const otherLast = other.lines.at(-1)?.n ?? 0;
  if (shown.style === 'arrow' && last?.text === '' && last.n !== undefined && last.n === otherLast + 1) lines.pop();
  // Unnumbered text as read shows a final newline as one more, empty, line.
  if (shown.style === 'plain' && last?.text === '' && lines.length === other.lines.length + 1) lines.pop();
  const plain = shown.style === 'plain' || other.style === 'plain';
  return lines.map((l) => (plain || l.n === undefined ? l.text : `${l.n}: ${l.text}`)).join('\n');
}

// Claude Code writes a failing command's exit code (`Exit code N`); an agent that only marks the result an error
// (the course's own, recorded from the API) says no more than that it failed, so any non-zero code matches it.
function verifyBash(recorded: ImportedResult, replayed: Replayed, text: string): ReplayVerdict {
  // Codex gives the code beside the output (formats/codex.ts), Claude Code in it.
  const beside = (recorded.details as { exit_code?: unknown } | undefined)?.exit_code;
  const stated =
    /^Exit code (\d+)/.exec(recorded.content)?.[1] ?? (typeof beside === 'number' ? String(beside) : undefined);
  const failed = replayed.exit_code !== undefined && replayed.exit_code !== 0;
  const code = stated ?? (!recorded.isError ? '0' : failed ? String(replayed.exit_code) : 'non-zero');
  const left = `exit ${code}\n${bashOutput(recorded.content)}`;
  const right = `exit ${replayed.exit_code ?? '?'}\n${text.trimEnd()}`;
  return left === right
    ? { ok: true }
    : differ(
        code === String(replayed.exit_code) ? 'Bash: different output' : 'Bash: a different exit code',
        left,
        right,
      );
}

// A Bash result's output as Claude Code recorded it, without its `Exit code N` line, the notes it appends and
// trailing blank space (Claude Code trims it).
export function bashOutput(content: string): string {
  return content
    .replace(/^Exit code \d+\n?/, '')
    .replace(/\n*Shell cwd was reset to .*$/s, '')
    .replace(/^\(No content\)$/, '')
    .trimEnd();
}

// What a write-type result says happened: the file was created or overwritten (undefined when it does not say).
function writeKind(result: ImportedResult): 'created' | 'overwritten' | undefined {
  const details = result.details as { type?: unknown } | undefined;
  if (details?.type === 'create') return 'created';
  if (details?.type === 'update') return 'overwritten';
  if (/created/i.test(result.content)) return 'created';
  if (/overwritten|overwrote|updated/i.test(result.content)) return 'overwritten';
  return undefined;
}

// Errors worded by different harnesses, by what went wrong. Order matters: "String to replace not found" is a
// failed match, not a missing file.
const ERROR_KINDS: [kind: string, pattern: RegExp][] = [
  ['no match', /did not appear verbatim|String to replace not found|Could not find the exact text/i],
  ['several matches', /appears \d+ times|Found \d+ (?:matches of the string|occurrences of the text)/i],
  ['escape', /escapes workspace|outside (the )?(allowed|working|workspace)|not allowed/i],
  ['not found', /does not exist|not found|no such file|ENOENT/i],
  ['is a directory', /is a directory|EISDIR/i],
  ['not a directory', /not a directory|ENOTDIR/i],
  ['permission', /permission denied|EACCES|EPERM/i],
  ['binary', /binary file/i],
  ['regex', /invalid regex|regular expression/i],
];

function errorKind(text: string): string {
  return ERROR_KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}

function differ(reason: string, recorded: string, replayed: string): ReplayVerdict {
  return { ok: false, reason, recorded, replayed };
}

function show(replayed: Replayed): string {
  return typeof replayed.content === 'string' ? replayed.content : JSON.stringify(replayed);
}
