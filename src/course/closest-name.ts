// The known name a mistyped one most likely meant, for "did you mean": the one within a few edits (insertions,
// deletions, substitutions, swaps of two neighbours), as commander suggests a flag. Written here because
// commander's own suggestSimilar is not among its exports, and the lists it runs on (stages, cases) are short.

// The closest of `known` to `typed`, when it is within 40% of its length in edits (and not `typed` itself). Case is
// no edit: `Agent-Loop` meant `agent-loop`.
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    if (name === typed) continue;
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance > Math.max(1, Math.floor(name.length * 0.4))) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

// Damerau-Levenshtein distance (optimal string alignment).
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const above = d[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}
