// The pure part of `npm run bench:before-after` (bench/before-after.ts): which series to measure so that a ratio
// compares the same work, in which order, and how a pair of measurements becomes a verdict.
import { summarise, type Summary } from './stats.ts';

// A tree's suites: the case files of each stage, by stage.
export type Suites = ReadonlyMap<string, ReadonlySet<string>>;

// The tolerance of "no worse": the machine drifts by more than this over minutes, less within one run.
export const NO_WORSE = 1.05;

// One series: a tree graded on its own suites, or (`cases`) on only the cases both trees have.
export type Series = { name: string; side: 'before' | 'after'; cases?: Suites };

// The cases of each stage both trees have (a stage one of them lacks has none).
export function sharedSuites(before: Suites, after: Suites): Map<string, Set<string>> {
  const shared = new Map<string, Set<string>>();
  for (const [stage, was] of before) shared.set(stage, new Set([...was].filter((f) => after.get(stage)?.has(f))));
  return shared;
}

// Whether two suites hold the same cases in every stage of `a` and `b`.
function sameSuites(a: Suites, b: Suites): boolean {
  const stages = new Set([...a.keys(), ...b.keys()]);
  return [...stages].every((stage) => {
    const [x, y] = [a.get(stage) ?? new Set<string>(), b.get(stage) ?? new Set<string>()];
    return x.size === y.size && [...x].every((f) => y.has(f));
  });
}

// Each tree on its own suites, and each tree whose suites are not the shared ones again on only those: a grown
// suite costs what its added cases cost, which is not what the grader does. A verdict compares the two series on
// the shared cases (`onShared`).
export function planSeries(before: Suites, after: Suites): Series[] {
  const shared = sharedSuites(before, after);
  const own: Series[] = [
    { name: 'before', side: 'before' },
    { name: 'after', side: 'after' },
  ];
  const restricted = own.flatMap((s): Series[] =>
    sameSuites(s.side === 'before' ? before : after, shared)
      ? []
      : [{ name: `${s.side} on shared cases`, side: s.side, cases: shared }],
  );
  return [...own, ...restricted];
}

// The series of `side` graded on the shared cases: its restricted series, or its own when its suites are those.
export function onShared(series: readonly Series[], side: 'before' | 'after'): Series {
  const found = series.find((s) => s.side === side && s.cases !== undefined) ?? series.find((s) => s.side === side);
  if (found === undefined) throw new Error(`bench: no series of the ${side} tree`);
  return found;
}

// `items` rotated left by `round`: each round starts from the next one, so none always follows the same neighbour.
export function rotate<T>(items: readonly T[], round: number): T[] {
  const at = items.length === 0 ? 0 : round % items.length;
  return [...items.slice(at), ...items.slice(0, at)];
}

// a[i] / b[i] round by round: both sides of a ratio measured within one round, so a burst of load weighs on both.
export function perRound(a: readonly number[], b: readonly number[]): Summary {
  return summarise(a.map((x, i) => x / (b[i] ?? Number.NaN)));
}

// "no worse" when after ≤ NO_WORSE × before, else how much worse.
export function verdict(after: number, before: number): string {
  return after <= before * NO_WORSE ? 'no worse' : `WORSE (×${(after / before).toFixed(2)})`;
}

// "1.20 (0.85–1.62)"
export function formatRatio(s: Summary): string {
  return `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}
