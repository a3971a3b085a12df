// A session recorded on Windows (`"cwd":"C:\\Users\\alex\\shop"`), in the case's POSIX terms. Claude Code on Windows
// names files with a drive letter and backslashes (`C:\Users\alex\shop\src\a.ts`), sometimes forward slashes
// (`C:/Users/…`); its Bash runs in Git Bash, where the same directory is `/c/Users/alex/shop`; its own projects keep
// the directory dash-encoded (`C--Users-alex-shop`). Windows compares paths without regard to case. Each spelling
// of the session's directory becomes `<sandbox>`, and the path after it `/`-separated, so a Windows session maps,
// seeds and replays as a POSIX one does.

// Whether a path is a Windows one: a drive letter, then a separator.
export function isWindowsPath(path: string | undefined): boolean {
  return path !== undefined && /^[A-Za-z]:[\\/]/.test(path);
}

// `C:\Users\alex` as `c:/users/alex`: for comparing two Windows paths.
export function comparable(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
}

// Every spelling of a Windows directory: `C:\a\b`, `C:/a/b`, Git Bash's `/c/a/b`, longest first (a regex built
// from them must be case-insensitive).
export function windowsSpellings(dir: string): string[] {
  const drive = dir.slice(0, 1);
  const rest = dir
    .slice(2)
    .split(/[\\/]+/)
    .filter((s) => s !== '');
  const tail = rest.length === 0 ? '' : rest.join('/');
  return [`${drive}:\\${rest.join('\\')}`, `${drive}:/${tail}`, `/${drive.toLowerCase()}/${tail}`]
    .map((s) => s.replace(/[\\/]$/, ''))
    .sort((a, b) => b.length - a.length);
}

// Claude Code's dash-encoding of a Windows directory (its ~/.claude/projects/<dir>/): `C:\Users\alex` -> `C--Users-alex`.
export function dashEncoded(dir: string): string {
  return dir.replace(/[\\/:.]/g, '-');
}

// What ends a Windows path segment in text, as the inside of a regex class: a separator, a blank, a quote, or a
// character no Windows name can hold.
const NOT_IN_NAME = '\\\\/\\s"\'`<>|:*?';

// A regex source matching a spelling of `dir` as a whole path (not `C:\a\bc` for `C:\a\b`) and the path after it,
// captured: group 1 is the rest (`\src\a.ts`). A shell command quotes a backslash by doubling it
// (`ls C:\\Users\\alex`), so that spelling counts too.
export function windowsPathPattern(dir: string): string {
  const spelled = windowsSpellings(dir);
  const doubled = (spelled.find((s) => s.includes('\\')) ?? '').replace(/\\/g, '\\\\');
  const spellings = [doubled, ...spelled]
    .filter((s) => s !== '')
    .map(escapeRegExp)
    .join('|');
  return `(?:${spellings})(?![^${NOT_IN_NAME}])((?:[\\\\/][^${NOT_IN_NAME}]*)*)`;
}

// The input keys that hold a path, in every toolset the importers know.
const PATH_KEYS = new Set(['file_path', 'path', 'notebook_path', 'absolute_path', 'dir_path', 'directory']);

// A Windows session's call input with its paths `/`-separated (`src\a.ts` -> `src/a.ts`): on the course's POSIX
// tools a backslash is a letter of the name.
export function posixPaths(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input))
    out[key] = PATH_KEYS.has(key) && typeof value === 'string' ? value.replace(/\\/g, '/') : value;
  return out;
}

// A Windows session's Glob or Grep result with the paths of its rows `/`-separated: a row is a path (Glob, Grep's
// files) or a path and `:N:text` (Grep's content), where only the path is touched.
export function posixListing(content: string, mode: 'paths' | 'lines'): string {
  return content
    .split('\n')
    .map((row) => {
      if (mode === 'paths')
        return /^(?:Found \d+ files?|No files found|No matches found)$/.test(row) ? row : slashes(row);
      const at = /^(.+?):(\d+)[:-]/.exec(row);
      return at === null ? row : `${slashes(at[1] ?? '')}${row.slice((at[1] ?? '').length)}`;
    })
    .join('\n');
}

const slashes = (path: string): string => path.replace(/\\/g, '/');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
