// `theinference snapshot --accept <case>… --reject <case>…`, `--accept-all`, `--reject-all`: the review's
// decisions without the review, for scripts and coding agents. Every name is checked against the pending files
// before anything is touched, so a typo decides nothing.
import { HarnessError } from '../../errors.ts';
import {
  acceptPending,
  PENDING_SUFFIX,
  pendingNames,
  rejectPending,
  snapshotNames,
} from '../../course/snapshot-file.ts';
import { caseFileNames } from '../../course/stages.ts';
import { nameMatcher } from '../../grade/select-cases.ts';

// What to do with each pending snapshot: names or globs to accept and reject, or all of them (within `only`,
// the --case patterns, when given).
export type Decisions = { accept: string[]; reject: string[]; all?: 'accept' | 'reject'; only: string[] };

// A decision carried out; `isNew`: the case had no snapshot before (its pending file was its first).
export type Decided = { name: string; decision: 'accepted' | 'rejected'; isNew?: true };

// The pending snapshots each decision names, checked: every pattern names a pending file, none is both
// accepted and rejected. Pure.
export function planDecisions(pending: string[], d: Decisions, stage: string): Decided[] {
  const within = d.only.length === 0 ? pending : pending.filter((n) => d.only.some((p) => nameMatcher(p)(n)));
  const pick = (patterns: string[], flag: string): string[] => {
    const missing = patterns.filter((p) => !within.some(nameMatcher(p)));
    if (missing.length > 0) {
      const list = within.length === 0 ? 'none' : within.join(', ');
      throw new HarnessError(
        'BAD_FLAG',
        `${flag} ${missing.map((m) => `'${m}'`).join(', ')}: no pending snapshot of that name in snapshots/${stage}/ (pending: ${list}). \`theinference snapshot --stage ${stage}\` writes them.`,
      );
    }
    return within.filter((n) => patterns.some((p) => nameMatcher(p)(n)));
  };
  if (d.all !== undefined) {
    if (within.length === 0) {
      const where = d.only.length === 0 ? '' : ` matching ${d.only.map((p) => `'${p}'`).join(', ')}`;
      throw new HarnessError('NO_CASES', `no pending snapshot in snapshots/${stage}/${where}: nothing to ${d.all}.`);
    }
    return within.map((name) => ({ name, decision: d.all === 'accept' ? 'accepted' : 'rejected' }));
  }
  const accepted = pick(d.accept, '--accept');
  const rejected = pick(d.reject, '--reject');
  const both = accepted.filter((n) => rejected.includes(n));
  if (both.length > 0) {
    throw new HarnessError('BAD_FLAG', `${both.join(', ')}: both accepted and rejected; name each case once.`);
  }
  const decided: Decided[] = [
    ...accepted.map((name) => ({ name, decision: 'accepted' as const })),
    ...rejected.map((name) => ({ name, decision: 'rejected' as const })),
  ];
  return decided.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// Carries out the decisions on the stage's pending files and says what is left.
export async function decidePending(
  root: string,
  stage: string,
  d: Decisions,
): Promise<{ decided: Decided[]; left: string[] }> {
  // A pending file whose case is gone is obsolete, not pending: `--remove-obsolete` removes it.
  const cases = new Set((await caseFileNames(root, stage)).map((f) => f.slice(0, -'.json'.length)));
  const pending = (await pendingNames(root, stage)).filter((n) => cases.has(n));
  const snapshots = new Set(await snapshotNames(root, stage));
  const decided = planDecisions(pending, d, stage).map((x) =>
    snapshots.has(x.name) ? x : { ...x, isNew: true as const },
  );
  for (const { name, decision } of decided) {
    if (decision === 'accepted') await acceptPending(root, stage, name);
    else await rejectPending(root, stage, name);
  }
  const done = new Set(decided.map((x) => x.name));
  return { decided, left: pending.filter((n) => !done.has(n)) };
}

// What the decisions did, one line each, then what is still pending.
export function renderDecided(decided: Decided[], left: string[], stage: string): string {
  const lines = decided.map(({ name, decision, isNew }) =>
    decision === 'accepted'
      ? `accepted   ${name} — snapshots/${stage}/${name}.json ${isNew === true ? 'written from' : 'replaced by'} its pending file`
      : `rejected   ${name} — snapshots/${stage}/${name}${PENDING_SUFFIX} removed, ${isNew === true ? 'the case has no snapshot yet' : 'the snapshot kept'}`,
  );
  const accepted = decided.filter((x) => x.decision === 'accepted').length;
  const counts = [`${accepted} accepted`, `${decided.length - accepted} rejected`];
  if (left.length > 0) counts.push(`${left.length} still pending (${left.join(', ')})`);
  lines.push('', counts.join(', '));
  return `${lines.join('\n')}\n`;
}
