// `theinference snapshot --stage <slug> [--case …] [--check]`: runs the reference in this repository (its own
// program.ts, through the grader's runner) and brings snapshots/<stage>/ up to date, or, with --check, only
// says what is out of date. A student's run never comes here: `test` never writes a snapshot.
import { rm } from 'node:fs/promises';
import { loadCases } from '../../course/load-cases.ts';
import {
  formatSnapshot,
  parseSnapshot,
  readText,
  snapshotNames,
  snapshotPath,
  writeIfChanged,
} from '../../course/snapshot-file.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { renderLineDiff, renderValueDiff } from '../../grade/report/render-diff.ts';
import { runReference, type ReferenceResult } from '../../grade/run/run-reference.ts';
import { painter } from '../../grade/report/paint.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import type { IsolationMode } from '../../grade/run/isolation/isolation-mode.ts';
import { selectCases } from '../../grade/select-cases.ts';
import { requireReference } from '../../course/reference.ts';
import type { Case } from '../../course/types.ts';
import { useColor, write, type CommandIo, type Outcome } from './io.ts';

// The flags as commander hands them over.
export type SnapshotFlags = { stage: string; case: string[]; check?: boolean; isolation?: IsolationMode };

// What happened (or, with --check, would happen) to one snapshot file.
type Entry = { name: string; status: 'added' | 'changed' | 'unchanged' | 'removed' | 'failed'; detail?: string };

// Regenerates (or checks) the stage's snapshots; 'fail' when --check finds anything out of date or the
// reference itself fails a case.
export async function snapshotCommand(flags: SnapshotFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const check = flags.check === true;
  const color = useColor(io);
  const stage = await requireStage(root, flags.stage);
  await requireReference(root, 'snapshot', stage.writes);
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

  const entries: Entry[] = [];
  for (const c of selected) entries.push(await settle(root, c, runs.get(c.name), { check, color }));
  // Obsolete files are judged against every case, so only a run over the whole stage looks for them.
  if (flags.case.length === 0) {
    const names = new Set(all.map((c) => c.name));
    for (const name of (await snapshotNames(root, flags.stage)).filter((n) => !names.has(n))) {
      if (!check) await rm(snapshotPath(root, flags.stage, name));
      entries.push({ name, status: 'removed', detail: `snapshots/${flags.stage}/${name}.json has no case` });
    }
  }
  await write(io.stdout, report(entries, flags.stage, { check, color }));
  const stale = entries.some((e) => e.status !== 'unchanged');
  return entries.some((e) => e.status === 'failed') || (check && stale) ? 'fail' : 'pass';
}

// Compares one case's fresh results with its file, writing the file unless checking.
async function settle(
  root: string,
  c: Case,
  run: ReferenceResult | undefined,
  o: { check: boolean; color: boolean },
): Promise<Entry> {
  if (run === undefined) return { name: c.name, status: 'failed', detail: 'the reference did not run this case' };
  if (!run.ok) return { name: c.name, status: 'failed', detail: `the reference failed: ${run.why}` };
  const results = run.results;
  const file = snapshotPath(root, c.stage, c.name);
  const text = formatSnapshot({ results });
  const before = await readText(file);
  if (before === text) return { name: c.name, status: 'unchanged' };
  if (!o.check) await writeIfChanged(file, text);
  if (before === null) return { name: c.name, status: 'added' };
  const old = parseSnapshot(before);
  const labels = { expected: 'snapshot on disk', received: 'reference now' };
  const diff =
    typeof old !== 'string' && JSON.stringify(old.results) !== JSON.stringify(results)
      ? renderValueDiff(old.results, results, { color: o.color, labels })
      : renderLineDiff(before.split('\n'), text.split('\n'), { color: o.color, labels });
  return { name: c.name, status: 'changed', detail: diff };
}

// Words for each status: what regenerating did, or what --check found.
const WORDS: Record<Entry['status'], { done: string; check: string }> = {
  added: { done: 'added', check: 'missing' },
  changed: { done: 'changed', check: 'stale' },
  unchanged: { done: 'unchanged', check: 'up to date' },
  removed: { done: 'removed', check: 'obsolete' },
  failed: { done: 'failed', check: 'failed' },
};

function report(entries: Entry[], stage: string, o: { check: boolean; color: boolean }): string {
  const p = painter(o.color);
  const c = { added: p.green, changed: p.yellow, unchanged: p.dim, removed: p.magenta, failed: p.red };
  const word = (s: Entry['status']): string => (o.check ? WORDS[s].check : WORDS[s].done);
  const lines: string[] = [];
  for (const e of entries) {
    lines.push(`${c[e.status](word(e.status).padEnd(10))} ${e.name}`);
    if (e.detail !== undefined) lines.push(...e.detail.split('\n').map((l) => (l === '' ? l : `    ${l}`)));
  }
  const counts = (Object.keys(WORDS) as Entry['status'][])
    .map((s) => [s, entries.filter((e) => e.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${word(s)}`);
  lines.push('', counts.join(', ') || 'no snapshots');
  const outOfDate = entries.filter((e) => e.status !== 'unchanged' && e.status !== 'failed');
  if (o.check && outOfDate.length > 0) {
    lines.push(
      `Snapshots out of date: ${outOfDate.map((e) => `${e.name} (${word(e.status)})`).join(', ')}.`,
      `Run \`npx theinference snapshot --stage ${stage}\`, read the diff against docs/tools.md, and commit it.`,
    );
  }
  if (entries.some((e) => e.status === 'failed')) {
    lines.push('The reference failed on some cases: fix src/tools/ or the case; their snapshots were not written.');
  }
  return `${lines.join('\n')}\n`;
}
