// Privacy: what is removed from every string before a case is written, and how often. The shapes of secrets and
// addresses (key-shapes.ts), then what the recording machine is known by (learned from the transcript's paths and
// the machine running `record`): its home directory in every encoding it takes in text, and its user name where it
// names the machine (in a path, a prompt, `user@host`, `USER=`), never as a bare word (a branch `alex/fix-1` is
// the author's work, not the machine). Then the author's own --redact patterns. The same redaction applies to a
// call's input, its recorded result and the evidence seeds come from, so a redacted case still replays as recorded.
//
// `redact(text, sources)` is a pure function of the text, the patterns and the learned facts; `makeRedactor` is
// the same with a tally, as the report counts it.
import { SECRET_SHAPES, type SecretShape } from './key-shapes.ts';
import { dashEncoded, isWindowsPath, windowsSpellings } from '../formats/windows-paths.ts';

// User names that identify nobody: a default account, or a placeholder someone already put in.
const GENERIC_USERS = new Set(['root', 'user', 'users', 'admin', 'runner', 'ubuntu', 'node', 'app', 'home', 'me']);

// What stands in for the recording machine's home directory (a Windows one keeps its drive: `C:\Users\user`).
export const REDACTED_HOME = '/home/user';
// What stands in for its user name.
export const REDACTED_USER = 'user';

// Who recorded (read off the transcript's paths or given by the caller) and the author's own patterns.
export type RedactionSources = { users: string[]; homes: string[]; patterns: RegExp[] };

// A redactor and its tally: how many times each kind was removed.
export type Redactor = { text: (s: string) => string; counts: Record<string, number> };

// The text with every rule applied, and how many times each kind was removed.
export function redact(text: string, sources: RedactionSources): { text: string; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  return { text: apply(text, rulesFor(sources), counts), counts };
}

// A redactor for one transcript: `redact` with its rules made once and a running tally.
export function makeRedactor(sources: RedactionSources): Redactor {
  const rules = rulesFor(sources);
  const counts: Record<string, number> = {};
  return { text: (s) => apply(s, rules, counts), counts };
}

function apply(text: string, rules: SecretShape[], counts: Record<string, number>): string {
  let out = text;
  for (const rule of rules) {
    rule.pattern.lastIndex = 0;
    if (!rule.pattern.test(out)) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      // An empty match (a pattern such as `x*` between two characters) has nothing to remove.
      if (match === '') return '';
      const groups = args.slice(1, -2).filter((g) => typeof g === 'string' || g === undefined) as string[];
      const replaced = rule.replace(match, groups);
      if (replaced === undefined) return match;
      counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
      return replaced;
    });
  }
  return out;
}

// Every rule for these sources, the shapes first (a key inside a bearer header is a key), the machine's names
// before the author's patterns.
function rulesFor(sources: RedactionSources): SecretShape[] {
  const rules: SecretShape[] = [...SECRET_SHAPES];
  for (const home of machineHomes(sources.homes)) {
    const spellings = homeSpellings(home);
    const instead = new Map(spellings.map(([from, to]) => [foldCase(home, from), to]));
    rules.push({
      kind: 'home directory',
      pattern: homePattern(home, 'g'),
      replace: (match) => instead.get(foldCase(home, match)) ?? REDACTED_HOME,
    });
  }
  for (const user of machineUsers(sources.users))
    rules.push({ kind: 'user name', pattern: userPattern(user, 'gi'), replace: (match) => userReplaced(match, user) });
  for (const pattern of sources.patterns) {
    const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
    rules.push({
      kind: `--redact ${pattern.source}`,
      pattern: new RegExp(pattern.source, flags),
      replace: () => '<redacted>',
    });
  }
  return rules;
}

// A home directory in every encoding text gives it, each with what it becomes: as written, with its slashes
// JSON-escaped (`\/home\/alex`), URL-encoded (`%2Fhome%2Falex`), dash-encoded as Claude Code names its projects and
// task files (`-home-alex-proj`, `/tmp/claude-1000/-home-alex-proj/…`); a Windows one also with forward slashes,
// as Git Bash has it (`/c/Users/alex`), and with its backslashes JSON-escaped.
export function homeSpellings(home: string): [string, string][] {
  if (isWindowsPath(home)) {
    const drive = home.slice(0, 1);
    const redacted = `${drive}:\\Users\\${REDACTED_USER}`;
    const [back = home, fwd = home, git = home] = windowsSpellings(home).sort(byStyle);
    const [rBack = redacted, rFwd = redacted, rGit = redacted] = windowsSpellings(redacted).sort(byStyle);
    return [
      [back, rBack],
      [fwd, rFwd],
      [git, rGit],
      [back.replace(/\\/g, '\\\\'), rBack.replace(/\\/g, '\\\\')],
      [encodeURIComponent(back), encodeURIComponent(rBack)],
      [encodeURIComponent(fwd), encodeURIComponent(rFwd)],
      [dashEncoded(back), dashEncoded(rBack)],
    ];
  }
  const plain = home.replace(/\/+$/, '');
  const pairs: [string, string][] = [
    [plain, REDACTED_HOME],
    [plain.replace(/\//g, '\\/'), REDACTED_HOME.replace(/\//g, '\\/')],
    [encodeURIComponent(plain), encodeURIComponent(REDACTED_HOME)],
  ];
  // `/root` dash-encoded is `-root`, a word of its own in flags and prose: left alone.
  if (plain !== '/root') pairs.push([plain.replace(/[/.]/g, '-'), REDACTED_HOME.replace(/\//g, '-')]);
  return pairs;
}

// A home's spellings, each as a whole name: a path's next character is not one of a name (`/home/ada` is not in
// `/home/adam` or `/home/ada-2`); in a dash-encoding the next segment follows a dash (`-home-ada-proj`). A Windows
// home in any case, as Windows reads it; a POSIX one exactly (`/home/USER` is not `/home/user`).
function homePattern(home: string, flags: string): RegExp {
  const alternatives = homeSpellings(home)
    .sort((a, b) => b[0].length - a[0].length)
    .map(([from]) => `${escapeRegExp(from)}${isDashed(from) ? '(?![A-Za-z0-9_.])' : '(?![\\w.-])'}`);
  return new RegExp(`(?:${alternatives.join('|')})`, isWindowsPath(home) ? `${flags}i` : flags);
}

const foldCase = (home: string, text: string): string => (isWindowsPath(home) ? text.toLowerCase() : text);

// The homes worth redacting: not `/` or the stand-in itself.
function machineHomes(homes: string[]): string[] {
  const redacted = (h: string) => (isWindowsPath(h) ? /^[A-Za-z]:[\\/]Users[\\/]user$/i.test(h) : h === REDACTED_HOME);
  return [...new Set(homes)].filter((h) => h.length > 1 && !redacted(h));
}

const isDashed = (spelling: string): boolean => /^(?:-|[A-Za-z]--)/.test(spelling);

// Backslashes, forward slashes, Git Bash: the order homeSpellings pairs them in.
function byStyle(a: string, b: string): number {
  const style = (s: string) => (s.includes('\\') ? 0 : s.startsWith('/') ? 2 : 1);
  return style(a) - style(b);
}

function machineUsers(users: string[]): string[] {
  return [...new Set(users)].filter((u) => u.length >= 3 && !GENERIC_USERS.has(u.toLowerCase()) && /^[\w.-]+$/.test(u));
}

// The user name where it names the machine: `~alex`, a prompt or `user@host` without a domain (`alex@laptop:~$`;
// `alex@site.org` is an e-mail address), an environment's `USER=alex`.
function userPattern(user: string, flags: string): RegExp {
  const u = escapeRegExp(user);
  return new RegExp(
    `~${u}(?![\\w.-])|(?<![\\w.%+-])${u}@(?=[A-Za-z0-9][A-Za-z0-9-]*(?![\\w-]|\\.[A-Za-z0-9]))|(?<=\\b(?:USER|LOGNAME|USERNAME)=)${u}(?![\\w.-])`,
    flags,
  );
}

function userReplaced(match: string, user: string): string {
  return match.replace(new RegExp(escapeRegExp(user), 'i'), REDACTED_USER);
}

// The user name and home directory in a recorded path: `/home/<user>/…`, `/Users/<user>/…`, `/root/…`,
// `C:\Users\<user>\…` (either slash).
export function identityIn(path: string | undefined): { user?: string; home?: string } {
  if (path === undefined) return {};
  const windows = /^([A-Za-z]:[\\/]Users[\\/]([^\\/]+))(?=[\\/]|$)/i.exec(path);
  if (windows !== null) return { home: windows[1] as string, user: windows[2] as string };
  const match = /^(\/(?:home|Users)\/([^/]+)|\/root)(?=\/|$)/.exec(path);
  if (match === null) return {};
  const home = match[1] as string;
  return match[2] === undefined ? { home } : { home, user: match[2] };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// What of the recording machine a written text still holds: each home directory (in any encoding) and user name
// (where it names the machine) found, and the first match of each secret or address shape that redaction would
// remove. The last check before a case is written; tests run it on every case recorded from the real transcripts.
export function leaks(text: string, sources: Pick<RedactionSources, 'users' | 'homes'>): string[] {
  const found: string[] = [];
  for (const home of machineHomes(sources.homes)) if (homePattern(home, '').test(text)) found.push(home);
  for (const user of machineUsers(sources.users)) if (userPattern(user, 'i').test(text)) found.push(user);
  for (const shape of SECRET_SHAPES) {
    shape.pattern.lastIndex = 0;
    for (const match of text.matchAll(shape.pattern)) {
      if (shape.replace(match[0], match.slice(1) as string[]) === undefined) continue;
      found.push(`${shape.kind}: ${match[0].slice(0, 40)}`);
      break;
    }
  }
  return found;
}
