// Summaries of repeated measurements: the median is what we compare, the range is how much to trust it.

// The median and the range of a list of samples.
export type Summary = { median: number; min: number; max: number; n: number };

// Summarises samples (milliseconds, kilobytes, …); fails on an empty list, which would mean a bench bug.
export function summarise(samples: number[]): Summary {
  if (samples.length === 0) throw new Error('bench: no samples to summarise');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, n: sorted.length };
}

// "1.23 s (1.10–1.40, n=5)"
export function formatSeconds(s: Summary): string {
  const sec = (ms: number): string => (ms / 1000).toFixed(2);
  return `${sec(s.median)} s (${sec(s.min)}–${sec(s.max)}, n=${s.n})`;
}

// "142 MB (139–150, n=3)", from kilobytes.
export function formatMegabytes(s: Summary): string {
  const mb = (kb: number): string => (kb / 1024).toFixed(0);
  return `${mb(s.median)} MB (${mb(s.min)}–${mb(s.max)}, n=${s.n})`;
}
