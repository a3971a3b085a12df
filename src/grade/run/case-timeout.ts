// How long one case may take when --timeout is not given: generous for the slowest case on a busy 2-core machine.
// The reference makes every snapshot under it, so a hint can tell a student's slow code from a limit set too low.
// (Not the Bash tool's own 120 s default for one command: src/tools/bash.ts.)
export const DEFAULT_CASE_TIMEOUT_MS = 10_000;
