// `theinference record <transcript>… --stage <slug>` for a stage in the dispatch mode: imports each transcript,
// hands them to the recording pipeline (src/record/record-transcripts.ts: each tool call replayed through the
// reference in a seeded sandbox, a case) and prints its report.
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { packageRoot } from '../../course/stages.ts';
import { isTranscriptFormat, TRANSCRIPT_FORMATS } from '../../record/formats/detect-format.ts';
import { importTranscript } from '../../record/import-transcript.ts';
import { type RecordOutcome, recordTranscripts } from '../../record/record-transcripts.ts';
import { renderRecordReport } from '../../record/write/render-report.ts';
import { progressLine, snapshotLine } from '../../record/write/render-progress.ts';
import { progressOn } from '../../cli/commands/progress-line.ts';
import type { ImportedTranscript, TranscriptFormat } from '../../record/types.ts';
import { formatCase } from '../../record/write/write-cases.ts';
import { makeRedactor } from '../../record/map/redact.ts';
import { useColor, write, type CommandIo, type Outcome } from '../../cli/commands/io.ts';
import {
  badFlag,
  checkSharedFlags,
  isDirectory,
  type RecordFlags,
  type SharedFlags,
} from '../../cli/commands/record-flags.ts';
import type { ModeRecorder } from '../../cli/commands/mode-recorder.ts';

// Flags only a live recording takes, by their command-line spelling.
const LIVE_ONLY: [keyof RecordFlags, string][] = [
  ['workspace', '--workspace'],
  ['upstream', '--upstream'],
  ['port', '--port'],
  ['keepTranscript', '--keep-transcript'],
];

export const recorder: ModeRecorder = { record: recordToolCases, replaysTools: true };

// Records the transcripts into the course directory; 'misuse' (exit 2) when a file cannot be used or a case
// exists with other content.
async function recordToolCases(flags: RecordFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const checked = await checkFlags(flags, io);
  const { transcripts, notes } = await readTranscripts(flags, io);
  const me = userInfo();
  const progress = progressOn(io.stderr);
  const outcome = await recordTranscripts(transcripts, {
    stage: flags.stage,
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(checked.filesFrom === undefined ? {} : { filesFrom: checked.filesFrom }),
    maxCalls: checked.maxCalls,
    bash: checked.bash,
    redact: checked.redact,
    machine: { user: me.username, home: me.homedir, host: hostname() },
    root,
    sandbox: checked.sandbox,
    dir: checked.dir,
    dryRun: flags.dryRun === true,
    force: flags.force === true,
    env: io.env,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    ...(progress === undefined
      ? {}
      : {
          onProgress: (p) =>
            progress.show(progressLine({ ...p, replayed: Math.min(p.replayed, p.of) }), p.replayed >= p.of),
          onSnapshotProgress: (done, of) => progress.show(snapshotLine(done, of), done >= of),
        }),
  }).finally(() => progress?.clear());
  io.signal?.throwIfAborted();
  for (const warning of outcome.warnings) await write(io.stderr, `warning: ${warning}\n`);
  await write(io.stdout, renderOutcome(flags, outcome, notes, useColor(io)));
  const failure = failureOf(outcome);
  if (failure !== undefined) throw failure;
  return 'pass';
}

// Every transcript imported, each file once (the others named in `notes`); a file that cannot be read stops the
// command, naming every such file.
async function readTranscripts(
  flags: RecordFlags,
  io: CommandIo,
): Promise<{ transcripts: ImportedTranscript[]; notes: string[] }> {
  const read: { given: string; transcript: ImportedTranscript }[] = [];
  const problems: string[] = [];
  for (const file of flags.operands) {
    const imported = await importTranscript(
      resolve(io.cwd, file),
      flags.format === undefined ? {} : { format: flags.format as TranscriptFormat },
    );
    if ('message' in imported)
      problems.push(`${file}${imported.line === undefined ? '' : `:${imported.line}`}: ${imported.message}`);
    else read.push({ given: file, transcript: imported });
  }
  if (problems.length > 0) throw new HarnessError('BAD_FLAG', `cannot record:\n${problems.join('\n')}`);
  const { once, notes } = readOnce(read);
  const transcripts = once.map(({ given, transcript }) => ({
    ...transcript,
    files: [given, ...transcript.files.slice(1)],
  }));
  return { transcripts, notes };
}

// What the command prints: with --dry-run the cases, then the notes on files read once, then the report. The report
// quotes the transcripts (a divergence's diff, a skipped line), so it is redacted as the files are.
function renderOutcome(flags: RecordFlags, outcome: RecordOutcome, notes: string[], color: boolean): string {
  const shown =
    flags.dryRun === true
      ? outcome.cases.map((c) => `--- cases/${flags.stage}/${c.name}.json\n${formatCase(c.data)}`).join('')
      : '';
  const readNotes = notes.length === 0 ? '' : `${notes.join('\n')}\n\n`;
  const report = renderRecordReport(outcome.reports, outcome.cases, {
    stage: flags.stage,
    stale: outcome.stale,
    color,
    verbose: flags.verbose === true,
    divergences: flags.divergences === 'all' ? 'all' : 'first',
  });
  const screen = makeRedactor(outcome.privacy).text;
  return screen(`${shown}${shown === '' ? '' : '\n'}${readNotes}${report}`);
}

// Why the run is a misuse, after its report: cases refused (nothing was written), or no case at all.
function failureOf(outcome: RecordOutcome): HarnessError | undefined {
  if (outcome.refused.length > 0) {
    const differ = outcome.cases.filter((c) => c.status === 'refused').map((c) => c.name);
    const stale = outcome.stale.filter((c) => c.status === 'refused').map((c) => c.name);
    const why = [
      ...(differ.length > 0 ? [`${differ.join(', ')}: a case of that name exists with other content`] : []),
      ...(stale.length > 0
        ? [`${stale.join(', ')}: stale, a case of the set this run replaces that it does not make again`]
        : []),
    ];
    return new HarnessError(
      'BAD_FLAG',
      `${why.join('; ')}; nothing was written. Re-run with --force to replace the set as a whole${stale.length > 0 ? ' (removing the stale ones)' : ''}, or choose another --name.`,
    );
  }
  if (outcome.cases.length === 0 && outcome.heldBefore !== undefined) {
    const held = outcome.heldBefore;
    const sets = [...new Set(held.map((name) => name.replace(/-\d{2,}$/, '')))];
    const again =
      sets.length === 1
        ? ` To record this transcript again in their place, record it under their name: --name ${sets[0]} (with --force if what it makes differs).`
        : '';
    return new HarnessError(
      'NO_CASES',
      `every call of these transcripts that reproduced is in a case recorded before already (${held.join(', ')}), so there is no new case to write: those cases stand as they are.${again}`,
    );
  }
  if (outcome.cases.length === 0) {
    const replayed = outcome.reports.some((r) => r.replayed > 0);
    const why = replayed
      ? 'no call of these transcripts reproduced in the sandbox'
      : 'no call of these transcripts could be replayed';
    return new HarnessError(
      'NO_CASES',
      `${why}, so there is no case to write (the report above says why each was dropped)`,
    );
  }
  return undefined;
}

// Each file recorded once: a file given twice, or a subagent file given beside the session that brings it along
// (`session.jsonl session/subagents/*.jsonl`, a shell glob), would make the same calls into a second set of cases.
function readOnce(read: { given: string; transcript: ImportedTranscript }[]): { once: typeof read; notes: string[] } {
  const notes: string[] = [];
  const once = read.filter(({ given, transcript }, i) => {
    const main = transcript.files[0];
    if (read.findIndex((r) => r.transcript.files[0] === main) !== i) {
      notes.push(`${given}: given twice, recorded once`);
      return false;
    }
    const session = read.find((r) => r.transcript.files.indexOf(main ?? '') > 0);
    if (session !== undefined) notes.push(`${given}: left out, read already as a subagent of ${session.given}`);
    return session === undefined;
  });
  return { once, notes };
}

type Checked = SharedFlags & { filesFrom?: string };

// Every flag checked before any work, each error saying how to fix it.
async function checkFlags(flags: RecordFlags, io: CommandIo): Promise<Checked> {
  for (const [key, spelling] of LIVE_ONLY)
    if (flags[key] !== undefined)
      badFlag(`${spelling} is for a live recording: add --live (and the agent command after --)`);
  if (flags.operands.length === 0)
    badFlag('name at least one transcript to record: theinference record <transcript>… --stage <slug>');
  if (flags.format !== undefined && !isTranscriptFormat(flags.format))
    badFlag(`--format takes one of ${TRANSCRIPT_FORMATS.join(', ')}; got '${flags.format}'`);
  const shared = await checkSharedFlags(flags, io);
  const filesFrom = flags.filesFrom === undefined ? undefined : resolve(io.cwd, flags.filesFrom);
  if (filesFrom !== undefined && !(await isDirectory(filesFrom)))
    badFlag(
      `--files-from ${flags.filesFrom}: no such directory; give the workspace as it was when the session started`,
    );
  return { ...shared, ...(filesFrom === undefined ? {} : { filesFrom }) };
}
