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
import { findSecrets, type SecretSpan } from './secret-rules.ts';
import { dashEncoded, isWindowsPath, windowsSpellings } from '../formats/windows-paths.ts';

// User names that identify nobody: a default account, or a placeholder someone already put in.
const GENERIC_USERS = new Set(['root', 'user', 'users', 'admin', 'runner', 'ubuntu', 'node', 'app', 'home', 'me']);

// What stands in for the recording machine's home directory (a Windows one keeps its drive: `C:\Users\user`).
export const REDACTED_HOME = '/home/user';
// What stands in for its user name.
export const REDACTED_USER = 'user';

// What stands in for its host name.
export const REDACTED_HOST = 'host';

// Who recorded (read off the transcript's paths or given by the caller: user names, home directories, host names)
// and the author's own patterns.
export type RedactionSources = { users: string[]; homes: string[]; hosts?: string[]; patterns: RegExp[] };

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
  // Then what a scanner's maintained rules find (secret-rules.ts), in whatever encoding the transcript gave it.
  return withoutSecrets(applyShapes(text, rules, counts), counts);
}

function applyShapes(text: string, rules: SecretShape[], counts: Record<string, number>): string {
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

// The text with every secret the scanner's rules find (secret-rules.ts) replaced, in whatever encoding it had.
function withoutSecrets(text: string, counts: Record<string, number>): string {
  const spans = unredacted(text, findSecrets(text));
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += `${text.slice(at, span.start)}<redacted:${span.rule}>`;
    at = span.end;
    const kind = `secret (${span.rule})`;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return out + text.slice(at);
}

// The spans that are not already a stand-in (`postgresql://<redacted:credentials>@db` is a connection string to the
// scanner's rules, its user `<redacted`).
function unredacted(text: string, spans: SecretSpan[]): SecretSpan[] {
  return spans.filter((s) => !text.slice(s.start, s.end).includes('<redacted:'));
}

// Every rule for these sources, the shapes first (a key inside a bearer header is a key), the machine's names
// before the author's patterns.
function rulesFor(sources: RedactionSources): SecretShape[] {
  const rules: SecretShape[] = [...SECRET_SHAPES, LS_OWNERS];
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
  for (const host of machineHosts(sources.hosts ?? []))
    rules.push({ kind: 'host name', pattern: hostPattern(host, 'gi'), replace: () => REDACTED_HOST });
  // A home no source named, in the one spelling that is never content: a Claude Code project or task directory
  // (`~/.claude/projects/-Users-alice-shop`, `/tmp/claude-501/-home-bob-x/`), dash-encoded from the session's path.
  rules.push(DASHED_HOME);
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

// Host names every kind of machine has, and words a text holds for other reasons.
const GENERIC_HOSTS = new Set(
  'localhost ip6-localhost host server laptop desktop workstation build runner ubuntu debian fedora alpine linux macbook computer sandbox container docker devcontainer codespaces'.split(
    ' ',
  ),
);

// Host names worth redacting: not `localhost` or a generic one, and long enough not to be a word in every text.
function machineHosts(hosts: string[]): string[] {
  return [...new Set(hosts)].filter(
    (h) => h.length >= 4 && !GENERIC_HOSTS.has(h.split('.')[0]?.toLowerCase() ?? '') && /^[\w.-]+$/.test(h),
  );
}

// A host name as a whole name: `devbox`, `devbox.local`, not `devboxes`; its first label alone too (`alex-mbp`
// of `alex-mbp.lan`).
function hostPattern(host: string, flags: string): RegExp {
  const names = [...new Set([host, host.split('.')[0] as string])].filter((h) => h.length >= 4);
  return new RegExp(
    `(?<![\\w.-])(?:${names.map(escapeRegExp).join('|')})(?:\\.local|\\.lan|\\.home)?(?![\\w-]|\\.\\w)`,
    flags,
  );
}

function machineUsers(users: string[]): string[] {
  return [...new Set(users)].filter((u) => u.length >= 3 && !GENERIC_USERS.has(u.toLowerCase()) && /^[\w.-]+$/.test(u));
}

// The user name where it names the machine: `~alex`, a prompt or `user@host` without a domain (`alex@laptop:~$`,
// also right after a colour escape, raw or made visible: `\x1b[32malex@laptop`; `alex@site.org` is an e-mail
// address), an environment's `USER=alex`.
function userPattern(user: string, flags: string): RegExp {
  const u = escapeRegExp(user);
  return new RegExp(
    `~${u}(?![\\w.-])|(?:(?<![\\w.%+-])|(?<=(?:\\u001b|\u241b)\\[[0-9;?]*[A-Za-z]))${u}@(?=[A-Za-z0-9][A-Za-z0-9-]*(?![\\w-]|\\.[A-Za-z0-9]))|(?<=\\b(?:USER|LOGNAME|USERNAME)=)${u}(?![\\w.-])`,
    flags,
  );
}

function userReplaced(match: string, user: string): string {
  return match.replace(new RegExp(escapeRegExp(user), 'i'), REDACTED_USER);
}

// `ls -l` lines (`-rw-r--r--  1 alice  staff  120 Mar  3 10:00 a.txt`; `ls -la`, `ls -ln` with names, GNU and
// BSD): their owner and group are accounts of the recording machine, whoever they are, so every one that is not
// a generic account becomes `user`. Matched per line (multiline), the mode, links, owner, group and size columns.
const LS_LINE =
  /^([-dlcbps][rwxsStT-]{9}[@+.]?[ \t]+\d+[ \t]+)([A-Za-z_][\w.-]*\$?)([ \t]+)([A-Za-z_][\w.-]*)?([ \t]+\d)/gm;

// Accounts and groups every machine has, named by no one.
const GENERIC_ACCOUNTS = new Set([
  ...GENERIC_USERS,
  'wheel',
  'staff',
  'users',
  'everyone',
  'nobody',
  'nogroup',
  'daemon',
  'bin',
  'sys',
  'adm',
  'docker',
  'sudo',
  'www-data',
  '_www',
  'admin',
  'games',
  'mail',
  'operator',
]);

const account = (name: string | undefined): string | undefined =>
  name === undefined || GENERIC_ACCOUNTS.has(name.toLowerCase()) ? name : REDACTED_USER;

export const LS_OWNERS: SecretShape = {
  kind: 'file owner',
  pattern: LS_LINE,
  replace: (match, [lead = '', owner = '', gap = '', group, rest = '']) => {
    const o = account(owner) ?? owner;
    const g = account(group);
    const out = `${lead}${o}${gap}${g ?? ''}${rest}`;
    return out === match ? undefined : out;
  },
  names: (_, [, owner, , group]) =>
    [owner, group].filter((n) => n !== undefined && !GENERIC_ACCOUNTS.has(n.toLowerCase())).join(', '),
};

// A dash-encoded home (`-Users-alice`, `-home-bob`) where Claude Code names a project or task directory after its
// session's path: after `projects/` or `/tmp/claude-<uid>/`, at the start of a string, or after a quote or space.
const DASHED_HOME: SecretShape = {
  kind: 'home directory',
  pattern: /(?<=^|[\s"'`/=])-(?:Users|home)-([A-Za-z0-9_.]+)(?=-|$|[\s"'`/])/gm,
  replace: (match, [user = '']) =>
    GENERIC_USERS.has(user.toLowerCase()) ? undefined : match.replace(/-(Users|home)-.*$/, '-home-user'),
};

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

const LEAK_SHAPES: SecretShape[] = [...SECRET_SHAPES, LS_OWNERS, DASHED_HOME];

// What of the recording machine a written text still holds: each home directory (in any encoding) and user name
// (where it names the machine) found, and the first match of each secret or address shape that redaction would
// remove. The last check before a case is written; tests run it on every case recorded from the real transcripts.
export function leaks(text: string, sources: Pick<RedactionSources, 'users' | 'homes' | 'hosts'>): string[] {
  return leakFinder(sources)(text);
}

// `leaks` with its patterns made once, for many texts.
export function leakFinder(sources: Pick<RedactionSources, 'users' | 'homes' | 'hosts'>): (text: string) => string[] {
  const named = [
    ...machineHomes(sources.homes).map((home) => ({ name: home, pattern: homePattern(home, '') })),
    ...machineUsers(sources.users).map((user) => ({ name: user, pattern: userPattern(user, 'i') })),
    ...machineHosts(sources.hosts ?? []).map((host) => ({ name: host, pattern: hostPattern(host, 'i') })),
  ];
  return (text) => {
    const found: string[] = [];
    for (const { name, pattern } of named) if (pattern.test(text)) found.push(name);
    // What the scanner's rules find that the shapes below do not: in the text as the shapes leave it.
    const rest = applyShapes(text, LEAK_SHAPES, {});
    const secrets = new Map(unredacted(rest, findSecrets(rest)).map((s) => [s.rule, rest.slice(s.start, s.end)]));
    for (const [rule, match] of secrets) found.push(`secret (${rule}): ${match.slice(0, 12)}…`);
    for (const shape of LEAK_SHAPES) {
      shape.pattern.lastIndex = 0;
      for (const match of text.matchAll(shape.pattern)) {
        if (shape.replace(match[0], match.slice(1) as string[]) === undefined) continue;
        const groups = match.slice(1) as string[];
        found.push(`${shape.kind}: ${shape.names?.(match[0], groups) ?? match[0].slice(0, 40)}`);
        break;
      }
    }
    return found;
  };
}
