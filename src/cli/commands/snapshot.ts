// `theinference snapshot --stage <slug> [--case …]`: runs the reference in this repository (its own program.ts,
// through the grader's runner) and writes each snapshot that would change as a pending file beside it
// (`<case>.json.new`), never over it; `--review` walks the pending files one by one, `--accept`/`--reject`/
// `--accept-all`/`--reject-all` decide them without a review, `--check` only says what is out of date or pending.
// A student's run never comes here: `test` never writes a snapshot.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { HarnessError } from '../../errors.ts';
import { loadCases } from '../../course/load-cases.ts';
import { recordingNames } from '../../course/recording-file.ts';
import { pendingNames, pendingPath, readText, snapshotNames, snapshotPath } from '../../course/snapshot-file.ts';
import { packageRoot, requireStage, stageOf } from '../../course/stages.ts';
import { writeFiles } from '../../course/write-files.ts';
import { runReference } from '../../grade/run-reference.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import type { IsolationMode } from '../../grade/run/isolation/isolation-mode.ts';
import { selectCases } from '../../grade/select-cases.ts';
import { requireReference } from '../../course/reference.ts';
import { decidePending, renderDecided, type Decisions } from '../snapshot/decide-pending.ts';
import { checkFails, planSnapshots, runActions, type OnDisk } from '../snapshot/plan-snapshots.ts';
import { recordedDrift } from '../snapshot/recorded-drift.ts';
import { checkPrivacy, renderPrivacy } from '../snapshot/check-privacy.ts';
import { renderSnapshotReport } from '../snapshot/snapshot-report.ts';
import { useColor, write, type CommandIo, type Outcome } from './io.ts';

// The flags as commander hands them over.
export type SnapshotFlags = {
  stage: string;
  case: string[];
  check?: boolean;
  review?: boolean;
  accept?: string[];
  reject?: string[];
  acceptAll?: boolean;
  rejectAll?: boolean;
  removeObsolete?: boolean;
  isolation?: IsolationMode;
};

// Regenerates, checks, reviews or decides the stage's snapshots. 'fail' when --check finds anything out of date
// or pending, or the reference itself fails a case.
export async function snapshotCommand(flags: SnapshotFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const decisions = decisionsOf(flags);
  const stage = await requireStage(root, flags.stage);
  if (flags.review === true) {
    await requireReference(root, 'snapshot', stage.writes);
    const { reviewPending } = await import('../review/index.ts');
    return reviewPending({ root, stage: flags.stage, only: flags.case }, io);
  }
  if (decisions !== undefined) {
    const { decided, left } = await decidePending(root, flags.stage, decisions);
    await write(io.stdout, renderDecided(decided, left, flags.stage));
    return 'pass';
  }
  return regenerate(root, flags, io);
}

// A run of the reference over the selected cases: the report, and unless --check the pending files written.
async function regenerate(root: string, flags: SnapshotFlags, io: CommandIo): Promise<Outcome> {
  const check = flags.check === true;
  const removeObsolete = flags.removeObsolete === true;
  await requireReference(root, 'snapshot', stageOf(flags.stage)?.writes);
  const all = await loadCases(root, flags.stage);
  const selected = selectCases(all, flags.case);
  const isolation = await chooseSandbox(flags.isolation, io.env);
  if (isolation.warning !== undefined) await write(io.stderr, `warning: ${isolation.warning}\n`);
  const { results: runs, warnings } = await runReference({
    root,
    cases: selected,
    env: io.env,
    sandbox: isolation.sandbox,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  });
  io.signal?.throwIfAborted();
  for (const warning of warnings) await write(io.stderr, `warning: ${warning}\n`);

  const names = selected.map((c) => c.name);
  const disk = await readDisk(root, flags.stage, names);
  // Obsolete files are judged against every case, so only a run over the whole stage looks for them.
  const stage =
    flags.case.length === 0
      ? {
          slug: flags.stage,
          cases: all.map((c) => c.name),
          snapshots: await snapshotNames(root, flags.stage),
          pending: await pendingNames(root, flags.stage),
          recordings: await recordingNames(root, flags.stage),
        }
      : undefined;
  const entries = planSnapshots(names, runs, disk, stage);
  if (!check) {
    const actions = runActions(entries, { stage: flags.stage, removeObsolete });
    await writeFiles(root, actions.write);
    for (const file of actions.remove) await rm(join(root, file), { force: true });
  }
  const color = useColor(io);
  const byName = new Map(selected.map((c) => [c.name, c]));
  const recordings = new Map<string, string[]>();
  for (const e of entries) {
    const c = byName.get(e.name);
    if (c === undefined || (e.status !== 'added' && e.status !== 'changed')) continue;
    const lines = await recordedDrift(root, c, e.status === 'changed' ? e.before : null, e.text, { color });
    if (lines !== undefined) recordings.set(e.name, lines);
  }
  await write(io.stdout, renderSnapshotReport(entries, flags.stage, { check, removeObsolete, color, recordings }));
  // --check also holds the recorded cases to the recorder's privacy gate.
  const privacy = check ? await checkPrivacy(root, flags.stage, selected) : [];
  await write(io.stdout, renderPrivacy(privacy));
  const failed = entries.some((e) => e.status === 'failed');
  return failed || privacy.length > 0 || (check && checkFails(entries)) ? 'fail' : 'pass';
}

async function readDisk(root: string, stage: string, names: string[]): Promise<OnDisk> {
  const read = (path: (n: string) => string) =>
    Promise.all(names.map(async (n) => [n, await readText(path(n))] as const)).then((pairs) => new Map(pairs));
  return {
    snapshots: await read((n) => snapshotPath(root, stage, n)),
    pending: await read((n) => pendingPath(root, stage, n)),
  };
}

// The decisions --accept, --reject, --accept-all and --reject-all ask for (undefined: none), once the flags
// are known to go together.
function decisionsOf(flags: SnapshotFlags): Decisions | undefined {
  const accept = flags.accept ?? [];
  const reject = flags.reject ?? [];
  const named = accept.length > 0 || reject.length > 0;
  const all = flags.acceptAll === true ? 'accept' : flags.rejectAll === true ? 'reject' : undefined;
  const modes = [
    flags.check === true && '--check',
    flags.review === true && '--review',
    (named || all !== undefined) && 'a decision (--accept, --reject, --accept-all, --reject-all)',
  ].filter((m) => m !== false);
  if (modes.length > 1) badFlag(`${modes.join(' and ')} do not go together: give one of them.`);
  if (flags.acceptAll === true && flags.rejectAll === true) badFlag('--accept-all and --reject-all: give one.');
  if (all !== undefined && named) {
    badFlag(`--${all}-all decides every pending snapshot: leave out --accept and --reject (or narrow it with --case).`);
  }
  if (flags.removeObsolete === true && (modes.length > 0 || flags.case.length > 0)) {
    badFlag(
      '--remove-obsolete goes with a run over the whole stage: `theinference snapshot --stage <slug> --remove-obsolete`.',
    );
  }
  if (named && flags.case.length > 0) badFlag('--accept and --reject name their cases: leave out --case.');
  if (!named && all === undefined) return undefined;
  return { accept, reject, ...(all === undefined ? {} : { all }), only: flags.case };
}

function badFlag(message: string): never {
  throw new HarnessError('BAD_FLAG', message);
}
