// Privacy: what is removed from every string before a case is written, and how often. API keys and tokens
// (Anthropic, OpenAI, GitHub, AWS, Slack, bearer, private-key blocks), e-mail addresses, the recording machine's
// home directory and user name, and the author's own --redact patterns. The same redaction applies to a call's
// input, to its recorded result and to the evidence seeds come from, so a redacted case still replays as recorded.
import { KEY_SHAPES, keyPattern } from './key-shapes.ts';

// A redaction rule: what it finds and what it puts in its place (`$1` keeps a prefix such as `Bearer `).
type Rule = { kind: string; pattern: RegExp; replacement: string };

// The rules that need no knowledge of the machine, most specific first (a key inside a bearer header is a key).
const FIXED: Rule[] = [
  {
    kind: 'private key',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g,
    replacement: '<redacted:private-key>',
  },
  ...KEY_SHAPES.map((shape) => ({
    kind: shape.kind,
    pattern: keyPattern(shape),
    replacement: `<redacted:${shape.label}>`,
  })),
  {
    kind: 'AWS key',
    pattern: /(aws_secret_access_key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}/gi,
    replacement: '$1<redacted:aws-secret>',
  },
  {
    kind: 'bearer token',
    pattern: /\b(Bearer\s+)(?!<redacted)[A-Za-z0-9._~+/-]{16,}=*/g,
    replacement: '$1<redacted:bearer-token>',
  },
  {
    kind: 'e-mail address',
    // Addresses at the reserved example and test domains are fake already, and what the others become. The local
    // part starts where no address character precedes it: else every position of a long run of letters (a minified
    // line) would start a match that fails at its end, quadratic in the run.
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@(?![A-Za-z0-9-]*\.?example\.(?:com|org|net)\b)(?:[A-Za-z0-9-]+\.)+(?!invalid\b|test\b|localhost\b)[A-Za-z]{2,}\b/g,
    replacement: 'user@example.com',
  },
];

// User names that identify nobody: a default account, or a placeholder someone already put in.
const GENERIC_USERS = new Set(['root', 'user', 'users', 'admin', 'runner', 'ubuntu', 'node', 'app', 'home', 'me']);

// What stands in for the recording machine's home directory.
export const REDACTED_HOME = '/home/user';
// What stands in for its user name.
export const REDACTED_USER = 'user';

// A redactor and its tally: how many times each kind was removed.
export type Redactor = { text: (s: string) => string; counts: Record<string, number> };

// Who recorded (read off the transcript's paths or given by the live recorder) and the author's own patterns.
export type RedactionSources = { users: string[]; homes: string[]; patterns: RegExp[] };

// A redactor for one transcript.
export function makeRedactor(sources: RedactionSources): Redactor {
  const rules = [...FIXED];
  const homes = [...new Set(sources.homes.filter((h) => h.length > 1 && h !== REDACTED_HOME))].sort(
    (a, b) => b.length - a.length,
  );
  if (homes.length > 0) {
    rules.push({
      kind: 'home directory',
      pattern: new RegExp(`(?:${homes.map(escape).join('|')})(?![\\w.-])`, 'g'),
      replacement: REDACTED_HOME,
    });
  }
  for (const user of new Set(sources.users)) {
    if (user.length < 3 || GENERIC_USERS.has(user.toLowerCase()) || !/^[\w.-]+$/.test(user)) continue;
    rules.push({
      kind: 'user name',
      pattern: new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(user)}(?![A-Za-z0-9])`, 'gi'),
      replacement: REDACTED_USER,
    });
  }
  for (const pattern of sources.patterns) {
    const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
    rules.push({
      kind: `--redact ${pattern.source}`,
      pattern: new RegExp(pattern.source, flags),
      replacement: '<redacted>',
    });
  }
  const counts: Record<string, number> = {};
  const text = (s: string): string => {
    let out = s;
    for (const rule of rules) {
      rule.pattern.lastIndex = 0;
      if (!rule.pattern.test(out)) continue;
      rule.pattern.lastIndex = 0;
      out = out.replace(rule.pattern, (...args: unknown[]) => {
        // An empty match (a pattern such as `x*` between two characters) has nothing to remove.
        if (args[0] === '') return '';
        counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
        const groups = args.slice(1, -2) as (string | undefined)[];
        return rule.replacement.replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
      });
    }
    return out;
  };
  return { text, counts };
}

// The user name and home directory in a recorded path: `/home/<user>/…`, `/Users/<user>/…`, `/root/…`.
export function identityIn(path: string | undefined): { user?: string; home?: string } {
  const match = path === undefined ? null : /^(\/(?:home|Users)\/([^/]+)|\/root)(?=\/|$)/.exec(path);
  if (match === null) return {};
  return match[2] === undefined ? { home: match[1] } : { home: match[1], user: match[2] };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// What of the recording machine a written text still holds: each home directory, user name (as a word) and
// e-mail address found, and any known key shape. The last check before a case is written; tests run it on
// every case recorded from the real transcripts.
export function leaks(text: string, sources: Pick<RedactionSources, 'users' | 'homes'>): string[] {
  const found: string[] = [];
  for (const home of sources.homes)
    if (home.length > 1 && home !== REDACTED_HOME && new RegExp(`${escapeRegExp(home)}(?![\\w.-])`).test(text))
      found.push(home);
  for (const user of sources.users) {
    if (user.length < 3 || GENERIC_USERS.has(user.toLowerCase())) continue;
    if (new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(user)}(?![A-Za-z0-9])`, 'i').test(text)) found.push(user);
  }
  for (const rule of FIXED) {
    rule.pattern.lastIndex = 0;
    const match = rule.pattern.exec(text);
    rule.pattern.lastIndex = 0;
    if (match !== null) found.push(`${rule.kind}: ${match[0].slice(0, 40)}`);
  }
  return found;
}
