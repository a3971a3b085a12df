// The driver's mode `compact` (stage "Compact the context"): the loop mode's driver (src/modes/loop/driver.ts) with
// the course's runCompactLoop from src/compact-loop.ts (the stage's row names them), its fake API recording `compact_threshold` too (a request
// that carries it shows so), and each case run in a fresh, empty working directory of its own. What the loop wrote
// under `.transcripts/` there is added to its end as `transcripts`: each file by name, its lines as JSON (a line
// that is not JSON as its text), so that a case grades the transcript file with the requests.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPACT_TOOL, NO_FINAL_BREAK, TRANSCRIPT_DIR } from '../../compact-contract.ts';
import { COMPACT_REQUEST_KEYS, TRANSCRIPT_FILE_NAME, TRANSCRIPTS_BEFORE } from './case.ts';
import { type LoopOptions, loopDriver, parseLoopCase } from '../loop/driver.ts';
import type { DriverMode } from '../driver-mode.ts';
import { isObject, type Json } from '../kit.ts';

// How many transcript files, and bytes of each, a case's end holds at most: a loop that writes on and on is shown
// its first files, cut, rather than filling the grader's memory.
const MAX_FILES = 20;
const MAX_FILE_CHARS = 400_000;

// The key of a case's end that holds what the loop wrote under .transcripts/.
const TRANSCRIPTS = 'transcripts';

export const COMPACT_OPTIONS: LoopOptions = {
  requestKeys: COMPACT_REQUEST_KEYS,
  around: inOwnDirectory,
  setup: (testCase) =>
    isObject(testCase[TRANSCRIPTS_BEFORE]) ? { [TRANSCRIPTS]: testCase[TRANSCRIPTS_BEFORE] } : undefined,
  endKeys: [TRANSCRIPTS],
  ownTools: [COMPACT_TOOL],
  parse: parseCompactCase,
};

// Runs one loop in a fresh working directory of its own, empty but for the transcripts the case says were there
// before (`setup`), and says what it left under .transcripts/ there.
export async function inOwnDirectory(loop: () => Promise<void>, setup?: Json): Promise<Json> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-compact-'));
  const back = process.cwd();
  try {
    await writeBefore(join(dir, TRANSCRIPT_DIR), isObject(setup?.[TRANSCRIPTS]) ? setup[TRANSCRIPTS] : {});
    process.chdir(dir);
    await loop();
    const transcripts = await transcriptsIn(join(dir, TRANSCRIPT_DIR));
    return transcripts === undefined ? {} : { [TRANSCRIPTS]: transcripts };
  } finally {
    process.chdir(back);
    await rm(dir, { recursive: true, force: true });
  }
}

// The transcripts a case says .transcripts/ holds before the loop runs; a name that is not a transcript's is none.
async function writeBefore(dir: string, files: Json): Promise<void> {
  const named = Object.entries(files).filter(
    ([name, text]) => TRANSCRIPT_FILE_NAME.test(name) && typeof text === 'string',
  );
  if (named.length === 0) return;
  await mkdir(dir);
  for (const [name, text] of named) await writeFile(join(dir, name), text as string);
}

// The files of a .transcripts/ directory by name, sorted, each its lines; undefined when there is none.
async function transcriptsIn(dir: string): Promise<Json | undefined> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return undefined;
  const names = entries.map((e) => e.name).sort();
  const files: Json = {};
  for (const name of names.slice(0, MAX_FILES)) {
    const entry = entries.find((e) => e.name === name)!;
    if (!entry.isFile()) {
      files[name] = 'not a file';
      continue;
    }
    const whole = await readFile(join(dir, name), 'utf8');
    const lines = whole.slice(0, MAX_FILE_CHARS).split('\n');
    // Each line ends with a line break, the last one too: a last line without it is said after the lines.
    const ended = lines.at(-1) === '';
    if (ended) lines.pop();
    const cut = whole.length > MAX_FILE_CHARS;
    files[name] = [...lines.map(jsonOrText), ...(ended || cut ? [] : [NO_FINAL_BREAK])];
  }
  return files;
}

function jsonOrText(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

// A loop case whose request carries a threshold, a number (the case schema says the same).
export function parseCompactCase(text: string): ReturnType<typeof parseLoopCase> {
  const parsed = parseLoopCase(text, { ownTools: [COMPACT_TOOL] });
  if (parsed.turns.length > 0 && !(isObject(parsed.request) && typeof parsed.request.compact_threshold === 'number'))
    throw new Error(
      '"request" must carry "compact_threshold": the estimated size in tokens past which the loop compacts',
    );
  const before = parsed[TRANSCRIPTS_BEFORE];
  const named = isObject(before) ? Object.entries(before) : [];
  if (
    before !== undefined &&
    (!isObject(before) || named.some(([name, text]) => !TRANSCRIPT_FILE_NAME.test(name) || typeof text !== 'string'))
  )
    throw new Error(
      `"${TRANSCRIPTS_BEFORE}" must be an object of transcript files by name (transcript-<n>.jsonl), each its text`,
    );
  return parsed;
}

const loop = loopDriver(COMPACT_OPTIONS);

// No probe: the mode's judge finds its mistakes in the cases' own results.
export const driver: DriverMode = {
  start: async (course, code) => {
    const { probe: _, ...started } = await loop.start(course, code);
    return started;
  },
};
