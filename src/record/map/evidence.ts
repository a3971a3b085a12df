// What a recorded call shows about the workspace: for each file it saw, what the file was just before the call
// (its whole text, some of its lines, that it existed, that it did not), and which files it changed. Seeds are
// built from this (src/record/seed/seed-files.ts). Paths are sandbox-relative (`src/a.ts`).
import type { Call } from '../../course/types.ts';
import type { ImportedResult } from '../types.ts';
import type { CheckSpec, SeedOrigin } from '../record-types.ts';
import { asRecord, sandboxRelative } from './call-input.ts';
import { listedPaths } from './listed-paths.ts';
import { readGeminiListing } from './gemini-listing.ts';
import { filesToShow, readLsTree } from './ls-tree.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import { fileTextFromView, readShownFile, showsEmptyFile } from './view-text.ts';
import { isSeedPath } from '../../course/seed-path.ts';

// What the recording shows of one file before a call.
export type Knowledge =
  | { kind: 'text'; text: string; origin: SeedOrigin }
  | { kind: 'lines'; lines: Map<number, string>; total?: number }
  | { kind: 'exists' }
  | { kind: 'absent' };

// One call's evidence. `changes`: files it changed, and `after` the text it left in those whose text the recording
// shows (a Write's content, an Edit applied to its original); a Bash call changes what its command names
// (`bashPaths`), and anything below a named directory, as far as anyone can tell.
export type Evidence = {
  before: Map<string, Knowledge>;
  changes: string[];
  after?: Map<string, string>;
  bashPaths?: string[];
};

const NONE: Evidence = { before: new Map(), changes: [] };

// The evidence of a mapped call, given its recorded result (undefined when the call never got one).
export function evidenceOf(call: Call, check: CheckSpec, result: ImportedResult | undefined, subdir: string): Evidence {
  const input = call.input;
  const path = typeof input.path === 'string' ? sandboxRelative(input.path, subdir) : undefined;
  if (check.kind === 'bash')
    return { before: new Map(), changes: [], bashPaths: namedPaths(String(input.command ?? ''), subdir) };
  if (result === undefined) return NONE;
  const details = asRecord(result.details);
  const failedAsMissing = result.isError && /does not exist|not found|no such file/i.test(result.content);
  switch (check.kind) {
    case 'view':
      if (path === undefined) return NONE;
      if (failedAsMissing) return { before: new Map([[path, { kind: 'absent' }]]), changes: [] };
      return result.isError ? NONE : { before: new Map([[path, viewKnowledge(input, result, details)]]), changes: [] };
    case 'write': {
      if (path === undefined || result.isError) return NONE;
      const original = details?.originalFile;
      const created = details?.type === 'create' || (details === undefined && /created/i.test(result.content));
      const knowledge: Knowledge = created
        ? { kind: 'absent' }
        : typeof original === 'string'
          ? { kind: 'text', text: original, origin: 'write' }
          : { kind: 'exists' };
      const after = typeof input.file_text === 'string' ? new Map([[path, input.file_text]]) : undefined;
      return { before: new Map([[path, knowledge]]), changes: [path], ...(after === undefined ? {} : { after }) };
    }
    case 'edit':
    case 'insert': {
      if (path === undefined) return NONE;
      if (failedAsMissing) return { before: new Map([[path, { kind: 'absent' }]]), changes: [] };
      const original = details?.originalFile;
      const before = new Map<string, Knowledge>(
        typeof original === 'string' ? [[path, { kind: 'text', text: original, origin: 'edit' }]] : [],
      );
      const expected = check.kind === 'edit' ? check.expectedAfter : undefined;
      const after = expected === undefined ? undefined : new Map([[path, expected]]);
      return { before, changes: result.isError ? [] : [path], ...(after === undefined ? {} : { after }) };
    }
    case 'directory': {
      const read = check.from === 'list_directory' ? readGeminiListing : readLsTree;
      const entries = result.isError ? undefined : read(result.content, check.base);
      const files = filesToShow(entries ?? []).map((f) => (check.base === '' ? f : `${check.base}/${f}`));
      return { before: new Map(files.filter(isSeedPath).map((f) => [f, { kind: 'exists' }])), changes: [] };
    }
    case 'glob':
    case 'grep': {
      if (result.isError) return NONE;
      const listed = listedPaths(check, result.content);
      const before = new Map<string, Knowledge>(listed.files.filter(isSeedPath).map((f) => [f, { kind: 'exists' }]));
      for (const [file, lines] of listed.lines) if (isSeedPath(file)) before.set(file, { kind: 'lines', lines });
      return { before, changes: [] };
    }
  }
}

// A Read's evidence: the whole text when it showed all of it, else the lines it showed.
function viewKnowledge(
  input: Record<string, unknown>,
  result: ImportedResult,
  details: Record<string, unknown> | undefined,
): Knowledge {
  const file = asRecord(details?.file);
  const total = typeof file?.totalLines === 'number' ? file.totalLines : undefined;
  if (file !== undefined && typeof file.content === 'string' && file.startLine === 1 && file.numLines === total) {
    return { kind: 'text', text: file.content, origin: 'read' };
  }
  if (showsEmptyFile(result.content)) return { kind: 'text', text: '', origin: 'read' };
  const shown = readShownFile(result.content);
  const whole =
    input.view_range === undefined &&
    !/\[truncated|\(\d+ more lines?\)/.test(result.content) &&
    shown.lines.length < 2000;
  if (whole && file === undefined) return { kind: 'text', text: fileTextFromView(shown), origin: 'read' };
  const lines = new Map<number, string>();
  // Unnumbered lines of a range (Gemini CLI's) are numbered from where the result says they start.
  const start = typeof file?.startLine === 'number' && shown.style === 'plain' ? file.startLine : undefined;
  for (const [i, line] of shown.lines.entries()) {
    const n = line.n ?? (start === undefined ? undefined : start + i);
    if (n !== undefined) lines.set(n, line.text);
  }
  return total === undefined ? { kind: 'lines', lines } : { kind: 'lines', lines, total };
}

// The sandbox paths a command names: `<sandbox>/…` words, and relative words with a `/` or a file extension.
// A wildcard word stands for every file it matches (src/record/seed/seed-files.ts expands it).
export function namedPaths(command: string, subdir: string): string[] {
  // The placeholder's `<` and `>` would split it; a control character stands in for it while splitting.
  const words = command
    .split(SANDBOX)
    .join('\u0001')
    .split(/[\s"'`;|&()<>=]+/)
    .filter((w) => w !== '');
  const paths: string[] = [];
  for (const word of words) {
    if (word.startsWith('\u0001')) paths.push(sandboxRelative(`${SANDBOX}${word.slice(1)}`, subdir));
    else if (
      !word.startsWith('-') &&
      !word.startsWith('/') &&
      !word.includes('$') &&
      (word.includes('/') || /^[\w.*?-]+\.[\w*]+$/.test(word))
    ) {
      paths.push(sandboxRelative(word, subdir));
    }
  }
  return [...new Set(paths)];
}
