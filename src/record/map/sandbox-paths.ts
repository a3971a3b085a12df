// The recording machine's paths in the case's terms: the session's working directory becomes `<sandbox>` in every
// string (inputs, results, the evidence beside them, bash commands and heredocs), so a recorded
// `Read /home/me/proj/a.ts` replays as `Read <sandbox>/a.ts`. What stays outside the sandbox is found here too:
// a call that needs such a path cannot be replayed and is dropped with the path as its reason.
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import { comparable, isWindowsPath, windowsPathPattern } from '../formats/windows-paths.ts';

// Every spelling of the session's directory: as recorded, and macOS's /private twin of /tmp and /var.
export function rootSpellings(cwd: string): string[] {
  const root = cwd.length > 1 ? cwd.replace(/\/+$/, '') : cwd;
  const twins = /^\/(tmp|var)(\/|$)/.test(root)
    ? [`/private${root}`]
    : /^\/private\/(tmp|var)(\/|$)/.test(root)
      ? [root.slice('/private'.length)]
      : [];
  return [root, ...twins].sort((a, b) => b.length - a.length);
}

// A function replacing the session's directory with `<sandbox>` in a text. A spelling counts only as a whole path
// segment: `/tmp/abc` is replaced in `/tmp/abc/x` and `/tmp/abc` but not in `/tmp/abcd`. A Windows directory is
// matched in any case and spelling, and the path after it becomes `/`-separated (formats/windows-paths.ts).
export function sandboxer(cwd: string | undefined): (text: string) => string {
  if (cwd === undefined || cwd === '/' || cwd === '') return (text) => text;
  if (isWindowsPath(cwd)) {
    const pattern = new RegExp(windowsPathPattern(cwd), 'gi');
    return (text) => text.replace(pattern, (_, rest: string) => `${SANDBOX}${rest.replace(/[\\/]+/g, '/')}`);
  }
  const spellings = rootSpellings(cwd);
  const pattern = new RegExp(`(?:${spellings.map(escapeRegExp).join('|')})(?![\\w.@+-])`, 'g');
  return (text) => (spellings.some((s) => text.includes(s)) ? text.replace(pattern, SANDBOX) : text);
}

// Where a call ran relative to the session's start: '' for the same directory, `sub/dir` for one below it,
// undefined when it ran outside (after a `cd /elsewhere`). On macOS the shell may report the session's `/var/…`
// directory as `/private/var/…` (its real path) and the other way round: both are the session's.
export function subdirectory(callCwd: string | undefined, sessionCwd: string | undefined): string | undefined {
  if (callCwd === undefined || sessionCwd === undefined) return '';
  if (isWindowsPath(sessionCwd)) {
    const [root, here] = [comparable(sessionCwd), comparable(callCwd)];
    if (here === root) return '';
    // The subdirectory as the call's own spelling has it (its case is the files' case).
    return here.startsWith(`${root}/`)
      ? callCwd
          .replace(/\\/g, '/')
          .slice(root.length + 1)
          .replace(/\/+$/, '')
      : undefined;
  }
  const here = callCwd.replace(/\/+$/, '');
  for (const spelling of rootSpellings(sessionCwd)) {
    const root = spelling.replace(/\/+$/, '');
    if (here === root) return '';
    if (here.startsWith(`${root}/`)) return here.slice(root.length + 1);
  }
  return undefined;
}

// Claude Code's own files: `~/.claude/…` (its projects keep the session's directory dash-encoded,
// `-home-me-proj`) and `/tmp/claude-<uid>/…` (background task output). A sandbox never has them.
// On Windows: `C:\Users\<user>\.claude\…` (any separator, any case), `%USERPROFILE%\.claude`, and the temp
// directory's `claude\…`.
const HARNESS_PATH = new RegExp(
  [
    String.raw`(?:~|\/home\/[^/\s"']+|\/Users\/[^/\s"']+|\/root)\/\.claude(?:\/[^\s"'\`)]*)?`,
    String.raw`\/tmp\/claude-\d+\/[^\s"'\`)]*`,
    String.raw`(?:[A-Za-z]:[\\/]Users[\\/][^\\/\s"']+|\/[a-z]\/Users\/[^/\s"']+|%USERPROFILE%|~)[\\/]\.claude(?:[\\/][^\s"'\`)]*)?`,
    String.raw`[A-Za-z]:[\\/]Users[\\/][^\\/\s"']+[\\/]AppData[\\/]Local[\\/]Temp[\\/]claude[\\/][^\s"'\`)]*`,
  ].join('|'),
  'i',
);

// The first of Claude Code's own paths a text mentions, if any.
export function harnessPath(text: string): string | undefined {
  return HARNESS_PATH.exec(text)?.[0];
}

// Directories whose contents are the same on any Unix machine (or, like /dev/null, harmless): a command may name
// them. Anything else absolute belongs to the recording machine.
const SYSTEM_DIRS = ['/dev', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/proc', '/opt'];

// An absolute path in a command: after a start, a space, a quote, `=`, `>`, `<`, `(` or `:`, never inside a word
// or a URL (`https://x/y`), a `sed s/a/b/` or `<sandbox>/…` itself.
const ABSOLUTE =
  /(?<=^|[\s"'=><(:;|&`])(\/[^\s"'`;|&()<>$]*|~\/[^\s"'`;|&()<>]*|\$HOME\b|\$\{HOME\}|[A-Za-z]:[\\/][^\s"'`;|&()<>$]*|%USERPROFILE%[^\s"'`;|&()<>$]*)/g;

// The paths a command names outside the sandbox and the system directories.
export function outsidePaths(command: string): string[] {
  const found: string[] = [];
  // `<sandbox>/x` is inside by definition; its `>` must not start a path.
  for (const match of command.split(SANDBOX).join('S').matchAll(ABSOLUTE)) {
    const path = match[1] ?? '';
    if (path === '/' || path.startsWith('//')) continue;
    if (path.startsWith('/') && SYSTEM_DIRS.some((d) => path === d || path.startsWith(`${d}/`))) continue;
    found.push(path);
  }
  return [...new Set(found)];
}

// Whether a path input stays in the sandbox: relative without climbing out, or `<sandbox>` and below.
export function insideSandbox(path: string): boolean {
  if (path === SANDBOX || path.startsWith(`${SANDBOX}/`)) return !climbsOut(path.slice(SANDBOX.length + 1));
  // `<sandbox>-other/…` is beside the sandbox, not in it; `D:/x` is absolute on another drive.
  if (path.startsWith('/') || path.startsWith('~') || path.startsWith(SANDBOX) || /^[A-Za-z]:/.test(path)) return false;
  return !climbsOut(path);
}

function climbsOut(relative: string): boolean {
  let depth = 0;
  for (const part of relative.split('/')) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return true;
  }
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
