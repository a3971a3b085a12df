// `theinference redact --stage <slug> [--case <glob>…] [--redact <regex>…] [--dir <course dir>] [--dry-run]`:
// redacts the recorded cases of a stage in place, with the recorder's redactor as it is today and the given
// patterns, without their transcripts. Each changed case is run through the reference as it will be written, and
// must give its redacted snapshot; then every file is written, or, when one case cannot be, none.
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { courseDirFor } from '../../course/find-course-dir.ts';
import { loadCases } from '../../course/load-cases.ts';
import { recordingPath } from '../../course/recording-file.ts';
import { pendingPath, readText, snapshotPath } from '../../course/snapshot-file.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { writeFiles } from '../../course/write-files.ts';
import { HarnessError } from '../../errors.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import type { IsolationMode } from '../../grade/run/isolation/isolation-mode.ts';
import { nameMatcher } from '../../grade/select-cases.ts';
import { snapshotCases } from '../../record/write/write-cases.ts';
import { redactCase, type RedactedCase } from '../redact/redact-case.ts';
import { renderRedactReport, type RedactOutcome } from '../redact/render-redact-report.ts';
import { useColor, write, type CommandIo, type Outcome } from './io.ts';
import { badFlag, isDirectory, redactPattern } from './record-flags.ts';
import { recorderOf } from './mode-recorder.ts';

// The flags as commander hands them over.
export type RedactFlags = {
  stage: string;
  case: string[];
  redact?: string[];
  dir?: string;
  dryRun?: boolean;
  isolation?: IsolationMode;
};

// Redacts the stage's recorded cases; 'misuse' (exit 2) when a redacted case no longer gives its snapshot.
export async function redactCommand(flags: RedactFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const patterns = (flags.redact ?? []).map(redactPattern);
  const dir = courseDirFor(io.cwd, flags.dir);
  if (!(await isDirectory(dir))) badFlag(`--dir ${flags.dir ?? '.'}: no such directory; give the course directory`);
  const stage = await requireStage(root, flags.stage);
  // What the stage's mode does to a redacted case beyond its text (a loop's recorded streams).
  const more = (await recorderOf(stage.mode))?.redacted;
  const recorded = (await loadCases(dir, flags.stage)).filter((c) => c.data.source !== undefined);
  const selected = selectRecorded(recorded, flags.case, flags.stage);
  // As `record` does: the machine running the command is redacted besides the patterns and the key shapes.
  const me = userInfo();
  const sources = { users: [me.username], homes: [me.homedir], hosts: [hostname()], patterns };
  const redacted: RedactedCase[] = [];
  for (const c of selected) {
    const [snapshot, pending, recording] = await Promise.all([
      readText(snapshotPath(dir, flags.stage, c.name)),
      readText(pendingPath(dir, flags.stage, c.name)),
      readText(recordingPath(dir, flags.stage, c.name)),
    ]);
    const r = redactCase({ name: c.name, data: c.data, snapshot, pending, recording }, sources);
    redacted.push(more !== undefined && r.changed ? await more(c.data, r, sources) : r);
  }

  const refused = new Map<string, string>();
  for (const r of redacted) {
    if (r.leaks.length > 0) refused.set(r.name, `it would still carry ${r.leaks.join(', ')}`);
    else if (r.changed && r.results === undefined) refused.set(r.name, 'it has no snapshot to redact with it');
  }
  const toCheck = redacted.filter((r) => r.changed && !refused.has(r.name) && r.results !== undefined);
  const isolation = toCheck.length === 0 ? undefined : await chooseSandbox(flags.isolation, io.env);
  if (isolation?.warning !== undefined) await write(io.stderr, `warning: ${isolation.warning}\n`);
  const checked = await snapshotCases(
    toCheck.map((r) => ({ name: r.name, data: JSON.parse(r.caseText), results: r.results ?? [] })),
    {
      root,
      stage: flags.stage,
      env: io.env,
      sandbox: isolation?.sandbox ?? false,
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    },
  );
  io.signal?.throwIfAborted();
  for (const warning of checked.warnings) await write(io.stderr, `warning: ${warning}\n`);
  // The reference failing the redacted case is said in its words; other results, as what a redaction did.
  for (const [name, why] of checked.failed) {
    const other = why.startsWith('the reference gave other results');
    refused.set(
      name,
      other
        ? 'the reference gives other results for the redacted case than its redacted snapshot holds: a redaction changed what a call does'
        : why,
    );
  }

  const dryRun = flags.dryRun === true;
  const outcomes: RedactOutcome[] = redacted.map((r) => {
    const why = refused.get(r.name);
    const status = why !== undefined ? 'refused' : !r.changed ? 'unchanged' : dryRun ? 'would replace' : 'replaced';
    return { ...r, status, ...(why === undefined ? {} : { why }) };
  });
  if (refused.size === 0 && !dryRun) await writeFiles(dir, filesOf(outcomes, flags.stage));
  await write(io.stdout, renderRedactReport(outcomes, { stage: flags.stage, color: useColor(io) }));
  if (refused.size > 0) {
    throw new HarnessError(
      'CANNOT_WRITE',
      `${[...refused.keys()].join(', ')}: not redacted, so nothing was written (the report above says why). Change the --redact pattern so that it leaves what the case's calls need, or re-record the case.`,
    );
  }
  return 'pass';
}

// The recorded cases the --case patterns name (all when none), each pattern naming at least one.
function selectRecorded<T extends { name: string }>(recorded: T[], patterns: string[], stage: string): T[] {
  const missing = patterns.filter((p) => !recorded.some((c) => nameMatcher(p)(c.name)));
  if (missing.length > 0) {
    const known = recorded.map((c) => c.name).join(', ') || 'none';
    badFlag(
      `--case ${missing.map((m) => `'${m}'`).join(', ')} names no recorded case of ${stage} (recorded cases have a source; here: ${known}).`,
    );
  }
  return patterns.length === 0 ? recorded : recorded.filter((c) => patterns.some((p) => nameMatcher(p)(c.name)));
}

// The files of every changed case: the case, its snapshot, pending file and recording, as paths under the course
// dir.
function filesOf(outcomes: RedactOutcome[], stage: string): { path: string; text: string }[] {
  return outcomes
    .filter((o) => o.status === 'replaced')
    .flatMap((o) => [
      { path: join('cases', stage, `${o.name}.json`), text: o.caseText },
      ...(o.snapshot === null ? [] : [{ path: join('snapshots', stage, `${o.name}.json`), text: o.snapshot }]),
      ...(o.pending === null ? [] : [{ path: join('snapshots', stage, `${o.name}.json.new`), text: o.pending }]),
      ...(o.recording === null ? [] : [{ path: join('recordings', stage, `${o.name}.json`), text: o.recording }]),
    ]);
}
