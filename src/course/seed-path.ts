// Which paths a seed may name: a file below the sandbox, as `src/a.ts`. program.ts refuses any other `files` key
// (it cannot import this file: it lives in the student's course directory), so the recorder never builds one: a
// listing line that is no path (a Grep preview, a note) would otherwise become a seed named '' and fail a whole
// replay with EISDIR.
export function isSeedPath(path: string): boolean {
  if (path === '' || /^(?:[A-Za-z]:|[\\/])/.test(path) || path.includes('\0')) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}
