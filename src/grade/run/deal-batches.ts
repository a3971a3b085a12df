// How the selected cases are split into batches, one program process each. Without timings the cases are dealt
// like cards; with the durations a previous run measured (watch mode), they are balanced so that the batches
// finish together, since the run's verdict waits for the slowest batch.

// `jobs` batches dealt like cards, so each gets a similar mix of cases.
export function roundRobin<T>(items: T[], jobs: number): T[][] {
  const n = Math.max(1, Math.min(jobs, items.length));
  return Array.from({ length: n }, (_, b) => items.filter((_, k) => k % n === b)).filter((b) => b.length > 0);
}

// Batches for `cases`: balanced by `expectedMs` (by case name) when it knows any of them, else round robin.
// Balancing is the longest-first greedy rule: each case, longest first, joins the batch with the least work so far;
// a case with no timing counts as the median of those known. Each batch keeps the cases in their given order.
export function dealBatches<T extends { name: string }>(
  cases: T[],
  jobs: number,
  expectedMs?: ReadonlyMap<string, number>,
): T[][] {
  const known = cases.flatMap((c) => expectedMs?.get(c.name) ?? []).sort((a, b) => a - b);
  if (known.length === 0) return roundRobin(cases, jobs);
  const typical = known[Math.floor(known.length / 2)] as number;
  const cost = (c: T): number => expectedMs?.get(c.name) ?? typical;
  const n = Math.max(1, Math.min(jobs, cases.length));
  const loads = Array.from({ length: n }, () => 0);
  const batchOf = new Map<T, number>();
  // Ties are broken by position, so the same timings always give the same batches.
  const longestFirst = cases.map((c, i) => ({ c, i })).sort((a, b) => cost(b.c) - cost(a.c) || a.i - b.i);
  for (const { c } of longestFirst) {
    const lightest = loads.indexOf(Math.min(...loads));
    batchOf.set(c, lightest);
    loads[lightest] = (loads[lightest] as number) + cost(c);
  }
  return Array.from({ length: n }, (_, b) => cases.filter((c) => batchOf.get(c) === b)).filter((b) => b.length > 0);
}
