// Secrets and addresses known by their shape, in one place: the case redactor (redact.ts), its last leak check, the
// live proxy's capture (live/redact-secrets.ts) and whoever else redacts text (`theinference redact`) use these, so
// a secret any of them would remove, all remove. These are the first net, and the live proxy's only one (a stream
// is redacted chunk by chunk, which whole-text rules cannot do); the case redactor and the privacy gate then run a
// scanner's maintained rules over the decoded text too (secret-rules.ts), which know far more kinds of key.
//
// KEY_SHAPES are runs of token characters (API keys, tokens, JWTs) that need nothing around them, which is what lets
// the proxy redact a stream chunk by chunk. A transcript glues keys to what comes before them: `key%3Dsk-ant-…` (a
// URL's `=`), `\nsk-ant-…` and `\u003dsk-ant-…` (a JSON string's escapes), `token_ghp_…`. A shape whose prefix is
// distinctive (`sk-ant-`, `sk-proj-`, `ghp_`, `github_pat_`, `xoxb-`, `AKIA`, `eyJ….eyJ`) is found anywhere, glued
// to a word or not. A short, generic one (a bare `sk-`, which ends `task-`) is found only after a boundary, and
// such an escape right before it is one.
//
// SECRET_SHAPES are the rules for whole texts: a private-key block, the key shapes, an AWS secret after its name,
// the credentials in a URL, a bearer token that looks like one, an e-mail address that is not already fake. A rule's
// `replace` decides per match, and may keep it: what only looks like a secret from afar (`Bearer <token>`, `Bearer
// $TOKEN`, `git@github.com:org/repo`) stays as it is.

// `source` is found anywhere; `bounded`, a generic spelling of the same kind, only after a boundary.
export type KeyShape = { kind: string; label: string; source: string; bounded?: string };

export const KEY_SHAPES: readonly KeyShape[] = [
  { kind: 'Anthropic key', label: 'anthropic-key', source: 'sk-ant-[A-Za-z0-9_-]{16,}' },
  {
    kind: 'OpenAI key',
    label: 'openai-key',
    // Project, service-account and admin keys; a legacy key holds `T3BlbkFJ` ("OpenAI" in base64) in its middle.
    source: 'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}',
    bounded: 'sk-[A-Za-z0-9_-]{20,}',
  },
  {
    kind: 'GitHub token',
    label: 'github-token',
    source: '(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})',
  },
  { kind: 'AWS key', label: 'aws-key', source: '(?:AKIA|ASIA)[0-9A-Z]{16}\\b' },
  { kind: 'Slack token', label: 'slack-token', source: 'xox[abposr]-[A-Za-z0-9-]{10,}' },
  // A JSON Web Token: base64url header and payload, both JSON objects (`{"` is `eyJ`), and a signature.
  { kind: 'JWT', label: 'jwt', source: 'eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*' },
];

// What may stand right before a bounded spelling: nothing, no letter, digit or `_`, or a percent-escape (`%3D`) or a
// JSON escape (`\n`, `\u003d`), whose last character is the escape's, not a word's. It is asserted after the
// spelling's first characters are found (a look behind them), so most positions fail on their first character.
const BEFORE = String.raw`(?:^|[^A-Za-z0-9_]|%[0-9A-Fa-f]{2}|\\(?:[nrtbf]|u[0-9A-Fa-f]{4}))`;

// The characters a streamed key, and an escape glued before it, may be made of: a stream chunk ending in a run of
// them may be cut mid-key, or between an escape and the key after it.
export const KEY_CHAR = /[A-Za-z0-9_.%\\-]/;

// A global regex for one shape, or (without `shape`) for any of them.
export function keyPattern(shape?: KeyShape): RegExp {
  const shapes = shape === undefined ? KEY_SHAPES : [shape];
  const sources = shapes.map((k) => (k.bounded === undefined ? k.source : `${k.source}|${bounded(k.bounded)}`));
  return new RegExp(`(?:${sources.join('|')})`, 'g');
}

// A bounded spelling as a pattern: its literal start (`sk-`), a look back over that start to what stands before
// it, then the rest.
function bounded(source: string): string {
  const start = /^[A-Za-z0-9_-]+/.exec(source)?.[0] ?? '';
  return `${start}(?<=${BEFORE}${start})${source.slice(start.length)}`;
}

// A rule for a whole text: what it finds, and what a match becomes (undefined: the match stays).
export type SecretShape = {
  kind: string;
  pattern: RegExp;
  replace: (match: string, groups: string[]) => string | undefined;
  // What a leak check names of a match (default: its first 40 characters).
  names?: (match: string, groups: string[]) => string;
};

// Words no real token holds: what documentation and examples put where a token goes.
const PLACEHOLDER = /your|token|here|example|placeholder|xxxx|redacted|changeme|dummy|sample|secret|insert|replace/i;

// Whether a bearer credential looks like a real one: random-looking (a digit and a letter, or both cases of
// letters), and no placeholder word. `Bearer scheme`, `Bearer YOUR_JWT_TOKEN` and `Bearer abc` are prose.
export function looksLikeToken(token: string): boolean {
  if (PLACEHOLDER.test(token)) return false;
  const digit = /[0-9]/.test(token);
  const lower = /[a-z]/.test(token);
  const upper = /[A-Z]/.test(token);
  return (digit && (lower || upper)) || (lower && upper && token.length >= 24);
}

// Local parts that name no person: a forge's SSH user, a no-reply sender.
const IMPERSONAL = /^(?:git|no-?reply)$/i;

// Addresses a project's own tests and docs make up (`test@test.com`, `user.name+tag@sub.domain.com`,
// `john.doe@company.com`): a domain whose name is a placeholder, or a local part made only of placeholder words.
// They name nobody, and the project's files hold them as they are, so a seed keeps them and still matches the file.
const PLACEHOLDER_DOMAIN =
  /(?:^|\.)(?:test|tests|testing|domain|yourdomain|mydomain|somedomain|email|foo|bar|baz|foobar|example|sample|somewhere|nowhere|fake|dummy|invalid|localhost)\.[a-z]{2,}$/i;
const PLACEHOLDER_WORDS = new Set(
  'test tests tester user username name first last firstname lastname foo bar baz qux someone somebody person tag me you your email mail address example sample fake dummy invalid valid'.split(
    ' ',
  ),
);

// Whether an address is one a project made up rather than someone's.
export function madeUpAddress(local: string, domain: string): boolean {
  if (PLACEHOLDER_DOMAIN.test(domain)) return true;
  const words = local
    .toLowerCase()
    .replace(/^(?:john|jane)[._-]?doe(?=$|[._+-])/, 'someone')
    .split(/[._+-]+/)
    .filter((w) => w !== '' && !/^\d+$/.test(w));
  return words.length > 0 && words.every((w) => PLACEHOLDER_WORDS.has(w));
}

export const SECRET_SHAPES: readonly SecretShape[] = [
  {
    kind: 'private key',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g,
    replace: () => '<redacted:private-key>',
  },
  ...KEY_SHAPES.map((shape) => ({
    kind: shape.kind,
    pattern: keyPattern(shape),
    replace: () => `<redacted:${shape.label}>`,
  })),
  {
    kind: 'AWS key',
    pattern: /(aws_secret_access_key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}/gi,
    replace: (_, [name = '']) => `${name}<redacted:aws-secret>`,
  },
  {
    // `postgresql://user:pass@host`, `https://user:token@github.com/…`: the user and password, before the e-mail
    // rule reads `pass@host.com` as an address.
    kind: 'URL credentials',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/:@"'<>`]+):([^\s/@"'<>`]*)@/gi,
    replace: (_, [scheme = '']) => `${scheme}<redacted:credentials>@`,
  },
  {
    kind: 'bearer token',
    pattern: /\b(Bearer\s+)(?!<redacted)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (_, [prefix = '', token = '']) => (looksLikeToken(token) ? `${prefix}<redacted:bearer-token>` : undefined),
  },
  {
    kind: 'e-mail address',
    // The local part starts where no address character precedes it (else every position of a long run of letters
    // would start a match that fails at its end: quadratic). Addresses at the reserved example and test domains, in
    // any case, are fake already, and what the others become; `git@github.com:org/repo` is a git remote.
    pattern:
      /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+)@(?![A-Za-z0-9-]*\.?example\.(?:com|org|net)\b)((?:[A-Za-z0-9-]+\.)+(?!invalid\b|test\b|localhost\b)[A-Za-z]{2,})\b(?!:[\w~])/gi,
    replace: (_, [local = '', domain = '']) =>
      IMPERSONAL.test(local) || madeUpAddress(local, domain) ? undefined : 'user@example.com',
  },
];
