// What a case says for the sandbox's path: program.ts's SANDBOX_PLACEHOLDER (docs/cases.md). program.ts lives
// outside src/ (the course driver a student's directory holds), so the compiled recorder cannot import it.
export const SANDBOX = '<sandbox>';
