// A program's result can be built to break whoever reads it: nested 100,000 deep, comparison and the diff recurse
// past the stack; 700,000 lines long, the diff does. Such a result is never compared: it is replaced, where it
// enters the grader, by a marker the judge names as its verdict ("the result is nested 100000 deep: too large to
// compare"). Measured without recursion. Pure.

// Past these, a result is too large to compare. Real results are two levels deep (`{ content, is_error }`) and
// under 8,000 lines (the snapshots' largest view); the diff of 50,000 lines still takes under a second.
export const RESULT_LIMITS = { depth: 64, lines: 50_000 };

// What a too-large result is replaced with: `{ tooLarge: "nested 100000 deep" }`.
export const TOO_LARGE_KEY = 'tooLarge';

// Why `value` is too large to compare ("nested N deep", "N lines long"), or undefined when it is not. Lines are
// counted as the diff prints the value: one per scalar, key or bracket, and a string's line breaks each start one.
export function tooLarge(value: unknown, limits = RESULT_LIMITS): string | undefined {
  let deepest = 0;
  let lines = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: at, depth } = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (typeof at === 'string') {
      lines += 1;
      for (let i = at.indexOf('\n'); i !== -1; i = at.indexOf('\n', i + 1)) lines += 1;
    } else if (at !== null && typeof at === 'object') {
      lines += 2;
      for (const child of Array.isArray(at) ? at : Object.values(at)) stack.push({ value: child, depth: depth + 1 });
    } else lines += 1;
  }
  if (deepest > limits.depth) return `nested ${deepest} deep`;
  if (lines > limits.lines) return `${lines} lines long`;
  return undefined;
}

// The results with each too-large one replaced by its marker.
export function markTooLarge(results: unknown[], limits = RESULT_LIMITS): unknown[] {
  return results.map((result) => {
    const why = tooLarge(result, limits);
    return why === undefined ? result : { [TOO_LARGE_KEY]: why };
  });
}
