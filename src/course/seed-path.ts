// Which paths a seed may name: a file below the sandbox, as `src/a.ts`. The driver refuses any other `files` key
// (src/modes/dispatch/), so the recorder never builds one: a listing line that is no path (a Grep preview, a note)
// would otherwise become a seed named '' and fail a whole replay with EISDIR.
export function isSeedPath(path: string): boolean {
  if (path === '' || /^(?:[A-Za-z]:|[\\/])/.test(path) || path.includes('\0')) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

// Why a `files` key cannot be seeded, or undefined when it can: it must name a file below the sandbox, as
// `src/a.ts` does. Empty, `.` or a trailing `/` name the sandbox or a directory (writing them fails with EISDIR);
// an absolute path (`/x`, `C:\\x`, `\\x`) or `..` leaves it.
export function seedPathProblem(path: string): string | undefined {
  if (isSeedPath(path)) return undefined;
  return `"files"[${JSON.stringify(path)}] must be a relative path inside the sandbox, naming a file (such as "src/a.ts"): not empty, not absolute, with no empty, "." or ".." segment`;
}
