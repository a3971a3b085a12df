// Secrets found by a maintained scanner's rules, not a list kept here: secretlint's recommended preset
// (@secretlint/secretlint-rule-preset-recommend: AWS, GitHub, GitLab, npm, Slack and its webhooks, Stripe,
// Hugging Face, OpenAI, Anthropic, SendGrid, Shopify, HTTP Basic credentials in a URL, database connection
// strings, private keys and more). Each rule is run as secretlint runs it (its `file` handler on a source, its
// reports collected) but synchronously, on strings, so the recorder can redact with it. What the preset has no
// rule for and a transcript of a coding agent holds is added below (SHELL_SECRETS): a Google API key, an AWS
// session token, a JWT, a password given to `PGPASSWORD=`, `MYSQL_PWD=` or `mysql -p`, HTTP Basic and x-api-key
// headers, a value named as a secret (`DB_PASSWORD=`, `"password": …`, .netrc, Azure's AccountKey, Docker's
// auth, a service account's `private_key_id`, an OAuth `refresh_token`), a URL query parameter named as a secret
// (`?api_key=…`, `&sig=…`), a PGP private key, and a private key cut off before its END line. Two more look past
// one string's shape: base64 that decodes to a secret (base64-secrets.ts), and the rest of a secret wrapped onto
// the next line (secret-continuations.ts).
//
// A transcript encodes what it carries: a URL's percent-encoding (`key%3Dsk-ant-…`), a JSON string's escapes
// (`\u003d`, `\n`), twice over sometimes. Each text is searched as written and decoded, and a secret found in a
// decoded view is removed with all of its encoded spelling. A rule that wants no letter before a key
// (`(?<!\p{L})`, `\b`) would miss one glued to a word (`KEYsk-ant-…`): views that cut a run of letters before a
// key's prefix find those too.
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { base64Secrets } from './base64-secrets.ts';
import { SECRET_SHAPES } from './key-shapes.ts';
import { continuations, standInEnds } from './secret-continuations.ts';

// A secret's place in a text (end exclusive) and the rule that found it.
export type SecretSpan = { start: number; end: number; rule: string };

// One rule, as the preset's are and ours are written: reports spans of a text.
type Rule = { id: string; find: (text: string, report: (start: number, end: number) => void) => void };

// The preset's rules that read a text (the GCP rule reads .json and .p12 files; the comment filter is no scanner).
const PRESET: Rule[] = presetRules
  .filter((creator) => creator.meta.type === 'scanner' && !/-gcp$/.test(creator.meta.id))
  .map((creator) => ({ id: creator.meta.id.replace('@secretlint/secretlint-rule-', ''), find: presetFinder(creator) }));

function presetFinder(creator: (typeof presetRules)[number]): Rule['find'] {
  return (text, report) => {
    const context = {
      report: ({ range }: { range: readonly [number, number] }) => report(range[0], range[1]),
      createTranslator: () => (id: string) => id,
      ignore: () => {},
    };
    // The rules' options are all optional; AWS looks for access key ids only when asked.
    const handlers = creator.create(context as never, { enableIDScanRule: true } as never) as {
      file?: (source: unknown) => void;
    };
    handlers.file?.({ content: text, contentType: 'text', filePath: undefined, ext: '' });
  };
}

// What the preset has no rule for, each with the group that is the secret (or the whole match).
const SHELL_SECRETS: { id: string; pattern: RegExp }[] = [
  // A Google API key is 39 characters; one a character longer or more is kept no less secret.
  { id: 'google-api-key', pattern: /AIza[0-9A-Za-z_-]{35,}/g },
  // An npm token longer than the preset's 36 characters after `npm_`, mixed case and digits (never an npm_config_
  // or npm_package_ variable's name, which is lower case with underscores).
  { id: 'npm-access-token', pattern: /npm_(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{37,}/g },
  {
    id: 'aws-session-token',
    pattern: /aws_?session_?token["']?\s*[=:]\s*["']?([A-Za-z0-9/+=]{80,})/gi,
  },
  { id: 'aws-session-token', pattern: /(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE)[A-Za-z0-9/+=]{60,}/g },
  { id: 'jwt', pattern: /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
  {
    id: 'database-password',
    pattern: /(?:PGPASSWORD|MYSQL_PWD|MYSQL_PASSWORD|POSTGRES_PASSWORD)=(["']?)([^\s"']+)\1/g,
  },
  // `mysql -u root -pS3cret db`, `mysqldump -p'S3cret'`: -p glued to its password (alone, it asks for one). The
  // option is looked for within 400 characters of `mysql` (a command line): unbounded, a megabyte line of prose saying
  // "mysql" often cost a rescan of the rest of the line per mention (minutes on 8 MB).
  {
    id: 'database-password',
    pattern: /mysql(?:dump|admin)?\s[^\n|;&]{0,400}?(?<=\s)-p(["']?)([^\s"'-][^\s"']*)\1/g,
  },
  {
    id: 'database-password',
    pattern: /mysql(?:dump|admin)?\s[^\n|;&]{0,400}?(?<=\s)--password=(["']?)([^\s"']+)\1/g,
  },
  // A password given on a command line: `curl -u user:password`, `--user user:password`, `sshpass -p password`,
  // `--password=…` and `--http-password=…` of any command (a `$VAR`, `<password>` or `{password}` is no secret).
  {
    id: 'command-line-password',
    pattern: /\bcurl\s[^\n|;&]{0,400}?(?<=\s)(?:-u\s*|--user[= ]\s*)(["']?)[^\s"':]+:([^\s"'$][^\s"']*)\1/g,
  },
  { id: 'command-line-password', pattern: /\bsshpass\s+-p\s*(["']?)([^\s"'$-][^\s"']*)\1/g },
  {
    id: 'command-line-password',
    pattern: /(?<=\s)--(?:http-|ftp-|proxy-)?(?:password|passwd)=(["']?)([^\s"'$<{*-][^\s"']*)\1/g,
  },
  // `Authorization: Basic <base64 of user:password>`, the header the preset's URL rule does not see.
  { id: 'basic-auth-header', pattern: /\bAuthorization:\s*Basic\s+([A-Za-z0-9+/]{8,}={0,2})/gi },
  { id: 'api-key-header', pattern: /\bx-api-key["']?\s*[:=]\s*["']?([A-Za-z0-9_.~+/-]{12,})/gi },
  // A secret by its name: `DB_PASSWORD=…`, `export API_KEY=…` (a `$VAR` is no secret), `"password": "…"`.
  {
    id: 'named-secret',
    pattern:
      /\b[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|API_KEY|APIKEY|ACCESS_KEY|AUTH_TOKEN|PRIVATE_KEY)[A-Z0-9_]*=(["']?)([^\s"'$][^\s"']{3,})\1/g,
  },
  // …and a service account's or an OAuth client's JSON: `"private_key_id"`, `"refresh_token"`, `"client_secret"`.
  {
    id: 'named-secret',
    pattern:
      /"(?:password|passwd|secret|api_?key|access_?key|auth_?token|client_?secret|private_?key(?:_?id)?|(?:refresh|access)_?token)"\s*:\s*"([^"\\\n]{4,})"/gi,
  },
  // A URL's query (or fragment) parameter named as a secret, any case: `?api_key=…`, `&token=…`, `&sig=…`,
  // `#access_token=…`, `X-Amz-Signature=…`; not a template's `{key}`, `$KEY`, `%s` or `<key>`, nor a flag.
  {
    id: 'url-query-secret',
    pattern:
      /[?&;#](?:x-(?:amz|goog)-)?(?:(?:api|access|auth|refresh|id|private|session|client|app|secret|security|consumer)[_-]?)?(?:key|token|secret|password|passwd|pwd|sig|signature|auth|credential)=(?!(?:true|false|null|none|undefined)(?![^\s&#"'`<>\\)\]]))([^\s&#"'`<>\\)\]$%{:*][^\s&#"'`<>\\)\]]{3,})/gi,
  },
  { id: 'named-secret', pattern: /\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S+)/g },
  { id: 'azure-account-key', pattern: /AccountKey=([A-Za-z0-9+/]{20,}={0,2})/g },
  // Docker's config.json: `"auth": "<base64 of user:password>"`.
  { id: 'docker-auth', pattern: /"auth"\s*:\s*"([A-Za-z0-9+/]{12,}={0,2})"/g },
  // A private key block the preset's rule does not take: PGP's, or one cut off before its END line (`head -4`).
  {
    id: 'private-key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
];

const OWN: Rule[] = SHELL_SECRETS.map(({ id, pattern }) => ({
  id,
  find: (text, report) => {
    for (const match of text.matchAll(pattern)) {
      const secret = match[2] ?? match[1] ?? match[0];
      const at = (match.index ?? 0) + match[0].lastIndexOf(secret);
      report(at, at + secret.length);
    }
  },
}));

const RULES: Rule[] = [...PRESET, ...OWN];

// A text as a rule sees it, and where each of its characters came from in the original: `from[i]`..`to[i]`.
type View = { text: string; from: Int32Array; to: Int32Array };

// A secret's place in a view's text.
type Found = { start: number; end: number; rule: string };

// Base64 inside base64 is decoded once more, no deeper.
const DEEPEST = 2;

// Every secret in `text`, in order, overlapping spans merged.
export function findSecrets(text: string): SecretSpan[] {
  return secretsIn(text, 0);
}

// Each view of the text searched by every rule, then for the base64 that decodes to a secret, then for the rest of
// each secret (found or redacted already) wrapped onto the next line.
function secretsIn(text: string, depth: number): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const layer of layersOf(text)) {
    const found: Found[] = [];
    for (const rule of RULES) {
      rule.find(layer.text, (start, end) => {
        if (end > start) found.push({ start, end, rule: rule.id });
      });
    }
    const glued = gluedWindows(layer.text);
    for (const rule of RULES) {
      rule.find(glued.text, (start, end) => {
        const window = glued.windowAt(start);
        // A match that runs from one window into the next is no key of either.
        if (end > start && end <= window.end)
          found.push({ start: window.at(start), end: window.at(end), rule: rule.id });
      });
    }
    if (depth < DEEPEST) {
      for (const [start, end, rule] of base64Secrets(layer.text, (decoded) => ruleFinding(decoded, depth + 1)))
        found.push({ start, end, rule: `base64-${rule}` });
    }
    const ends = [...found.map((f) => f.end), ...standInEnds(layer.text)];
    for (const [start, end] of continuations(layer.text, ends)) found.push({ start, end, rule: 'secret-continuation' });
    for (const f of found) {
      const span = { start: layer.from[f.start] ?? 0, end: layer.to[f.end - 1] ?? text.length, rule: f.rule };
      // What holds a stand-in is what a redaction left (`KEY=<redacted:…>`), not a secret; nor is it to be
      // merged with one found beside it.
      if (!text.slice(span.start, span.end).includes('<redacted')) spans.push(span);
    }
  }
  return merged(spans);
}

// The rule that finds a secret in a decoded text, by these rules or the redactor's shapes (an address is no secret).
function ruleFinding(decoded: string, depth: number): string | undefined {
  const span = secretsIn(decoded, depth)[0];
  if (span !== undefined) return span.rule;
  for (const shape of SECRET_SHAPES) {
    if (shape.kind === 'e-mail address') continue;
    for (const match of decoded.matchAll(shape.pattern)) {
      if (shape.replace(match[0], match.slice(1) as string[]) !== undefined)
        return shape.kind.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    }
  }
  return undefined;
}

// The layers a text is searched in: as written, and decoded (percent-encoding and JSON escapes, up to three
// layers). Each layer is searched whole and in the windows of keys glued to a word.
function layersOf(text: string): View[] {
  const plain = identity(text);
  const decoded: View[] = [plain];
  for (let layer = 0; layer < 3 && /%[0-9A-Fa-f]{2}|\\[ux"\\/nrtbf]/.test(decoded.at(-1)!.text); layer++) {
    const last = decoded.at(-1)!;
    const next = decodeOnce(last);
    if (next.text === last.text) break;
    decoded.push(next);
  }
  return decoded.filter((v) => v.text.length > 0);
}

function identity(text: string): View {
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  for (let i = 0; i < text.length; i++) {
    from[i] = i;
    to[i] = i + 1;
  }
  return { text, from, to };
}

// One layer of encoding undone: `%XX` runs (as UTF-8), `\uXXXX`, `\xXX` and the one-letter JSON escapes. What is
// decoded is never longer than what it was, so the places fit arrays of the text's length; plain text between two
// escapes is copied as one run (a megabyte line is mostly that).
function decodeOnce(view: View): View {
  const out: string[] = [];
  const from = new Int32Array(view.text.length);
  const to = new Int32Array(view.text.length);
  let length = 0;
  const { text } = view;
  // `chars` in place of the text's characters a..b (each of them spans all of a..b).
  const push = (chars: string, a: number, b: number): void => {
    out.push(chars);
    for (let k = 0; k < chars.length; k++) {
      from[length] = view.from[a]!;
      to[length] = view.to[b - 1]!;
      length += 1;
    }
  };
  const nextEscape = escapeFinder(text);
  for (let i = 0; i < text.length; ) {
    const next = nextEscape(i);
    if (next > i) {
      out.push(text.slice(i, next));
      from.set(view.from.subarray(i, next), length);
      to.set(view.to.subarray(i, next), length);
      length += next - i;
      i = next;
      continue;
    }
    const percent = /^(?:%[0-9A-Fa-f]{2})+/.exec(text.slice(i, i + 3 * 64));
    if (percent !== null) {
      const bytes = Buffer.from(percent[0].replace(/%/g, ''), 'hex');
      push(bytes.toString('utf8'), i, i + percent[0].length);
      i += percent[0].length;
      continue;
    }
    const escaped = /^\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|([nrtbf"\\/]))/.exec(text.slice(i, i + 6));
    if (escaped !== null) {
      const hex = escaped[1] ?? escaped[2];
      const one = escaped[3];
      const char =
        hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (ONE_LETTER[one ?? ''] ?? one ?? '');
      push(char, i, i + escaped[0].length);
      i += escaped[0].length;
      continue;
    }
    push(text[i]!, i, i + 1);
    i += 1;
  }
  return { text: out.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
}

// Where the next `%` or `\` is, from any place on, each looked for again only once passed: a text with many of
// one and none of the other is read once, not once per escape.
function escapeFinder(text: string): (i: number) => number {
  const after = (char: string, i: number): number => {
    const at = text.indexOf(char, i);
    return at === -1 ? text.length : at;
  };
  let percent = -1;
  let backslash = -1;
  return (i) => {
    if (percent < i) percent = after('%', i);
    if (backslash < i) backslash = after('\\', i);
    return Math.min(percent, backslash);
  };
}

const ONE_LETTER: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

// A key glued to what comes before it (`KEYsk-ant-…`, `1xoxb-…`, `MY_ghp_…`) is missed by a rule that wants no
// letter (`(?<!\p{L})`) or no word character (`\b`) before it. So each long run of token characters is also
// searched from each of its first few letters after a word character, as a text of its own.
const TOKEN_CHARS = new Set(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+/=-'].map((c) => c.charCodeAt(0)),
);
const isTokenChar = (code: number): boolean => TOKEN_CHARS.has(code);
const SHORTEST_RUN = 20;
// How far into a run a key may start: the longest word glued before it ("Bearer", "export", "KEY_").
const GLUE = 12;
// The longest a key is that a glued window must hold whole.
const WINDOW = 1024;

// The runs of token characters, as [start, length]: scanned by hand, since a regular expression matching a run of
// megabytes (a base64 blob on one line) overflows the regexp engine's stack.
function* tokenRuns(text: string): Generator<[number, number]> {
  for (let i = 0; i < text.length; ) {
    if (!isTokenChar(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < text.length && isTokenChar(text.charCodeAt(i))) i += 1;
    if (i - start >= SHORTEST_RUN) yield [start, i - start];
  }
}

// The windows of a text joined into one text, a line each, and the window a place in it is in: where that window
// ends in the joined text, and a place in it as a place in the text. The rules run once over all windows: run once
// per window, the rules' set-up cost more than their search (about 6 s a megabyte of source code).
type Glued = { text: string; windowAt: (place: number) => { end: number; at: (place: number) => number } };

function gluedWindows(text: string): Glued {
  const parts: string[] = [];
  const starts: number[] = []; // where each window starts in the joined text
  const froms: number[] = []; // …and in the text
  let length = 0;
  for (const [start, runLength] of tokenRuns(text)) {
    for (let p = start + 1; p <= start + GLUE && p < start + runLength - 8; p++) {
      if (!/[A-Za-z]/.test(text[p]!) || !/[A-Za-z0-9_]/.test(text[p - 1]!)) continue;
      const window = text.slice(p, Math.min(start + runLength, p + WINDOW));
      starts.push(length);
      froms.push(p);
      parts.push(window, '\n');
      length += window.length + 1;
    }
  }
  const windowAt = (place: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= place) low = middle;
      else high = middle - 1;
    }
    const from = starts[low] ?? 0;
    return { end: (starts[low + 1] ?? length) - 1, at: (at: number) => (froms[low] ?? 0) + at - from };
  };
  return { text: parts.join(''), windowAt };
}

// Spans sorted, overlapping ones joined (the first rule's name kept).
function merged(spans: SecretSpan[]): SecretSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last !== undefined && span.start < last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}
