// The scanner's rules find every shape of its own test data (test/fixtures/secret-shapes/), and the recorder's
// additions, however a transcript encodes it: as written, percent-encoded, JSON-escaped, glued to a word.
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../src/record/map/secret-rules.ts';
import { leaks, redact } from '../../../src/record/map/redact.ts';
import { SHAPES } from '../../fixtures/secret-shapes/shapes.ts';

const percent = (s: string): string =>
  [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const jsonEscaped = (s: string): string =>
  [...s].map((c) => (/[A-Za-z]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');

// Each encoding, and the text it gives.
const ENCODINGS: [string, (text: string) => string][] = [
  ['as written', (t) => `export ${t}\n`],
  ['percent-encoded after key=', (t) => `GET /v1?key%3D${percent(t)} HTTP/1.1`],
  ['JSON-escaped', (t) => `{"note":"${jsonEscaped(t)}"}`],
  ['glued to a word', (t) => `KEY${t}`],
  ['after a digit', (t) => `1${t}`],
  ['after _', (t) => `MY_${t}`],
];

describe('findSecrets', () => {
  it('has at least 30 shapes to find', () => expect(SHAPES.length).toBeGreaterThanOrEqual(30));

  describe.each(ENCODINGS)('%s', (_, encode) => {
    it.each(SHAPES.map((s) => [s.name, s] as const))('%s is redacted and no leak is left', (_name, shape) => {
      const text = encode(shape.text);
      expect(findSecrets(text).length, text).toBeGreaterThan(0);
      const out = redact(text, { users: [], homes: [], patterns: [] }).text;
      expect(out).not.toContain(shape.secret);
      expect(out).not.toContain(encode(shape.secret).slice(8, -2));
      expect(leaks(out, { users: [], homes: [] })).toEqual([]);
    });
  });

  // Secrets a trial planted that the preset has no rule for: each found as written and inside a JSON string.
  it.each([
    ['an HTTP Basic header', 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==', 'dXNlcjpwYXNzd29yZDEyMw=='],
    ['an x-api-key header', 'curl -H "x-api-key: 8f7a6b5c4d3e2f1a0b9c" https://api.io', '8f7a6b5c4d3e2f1a0b9c'],
    ['a password by its variable', 'DB_PASSWORD=hunter2secret ./migrate', 'hunter2secret'],
    ['a password by its JSON key', '{"password": "correct horse battery"}', 'correct horse battery'],
    ['a .netrc password', 'machine example.com login bob password s3cr3tpass', 's3cr3tpass'],
    [
      'an Azure account key',
      'AccountName=x;AccountKey=abcdefghijklmnopqrstuvwxyz0123456789ABCD==;',
      'abcdefghijklmnopqrstuvwxyz0123456789ABCD',
    ],
    ['a Docker auth', '{"auths":{"reg.io":{"auth":"Ym9iOnMzY3IzdHBhc3M="}}}', 'Ym9iOnMzY3IzdHBhc3M='],
    [
      'a PGP private key',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGXkZ2wBCADq\n-----END PGP PRIVATE KEY BLOCK-----',
      'lQOYBGXkZ2wBCADq',
    ],
    [
      'a private key cut off',
      '$ head -3 id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA',
      'b3BlbnNzaC1rZXktdjEAAAAA',
    ],
    // A third trial's (issue 35's author trial), which survived recording.
    [
      'a Google API key a character long',
      'key=AIzaSyD8k2Lm7Nb4Vc1Zx9As3Df6Gh0Jk5Lq8Wr2 ok',
      'D8k2Lm7Nb4Vc1Zx9As3Df6Gh0Jk5Lq8Wr2',
    ],
    [
      'an npm token a character long',
      'NPM: npm_Kx8q2Lm7Nb4Vc1Zx9As3Df6Gh0Jk5Lq8Wr2Ty ok',
      'Kx8q2Lm7Nb4Vc1Zx9As3Df6Gh0Jk5Lq8Wr2Ty',
    ],
    ["curl's -u user:password", 'curl -s -u admin:S3cretPassw0rdQ https://ci.example/api', 'S3cretPassw0rdQ'],
    ["sshpass's -p", "sshpass -p 'PlainPassXyz123' ssh deploy@host", 'PlainPassXyz123'],
    ['a --http-password=', 'wget --http-password=Hunter22x http://files.example/a', 'Hunter22x'],
  ])('finds %s', (_what, text, secret) => {
    for (const written of [text, JSON.stringify({ output: text })]) {
      expect(redact(written, { users: [], homes: [], patterns: [] }).text).not.toContain(secret);
    }
  });

  // Secrets a second trial planted that survived: each found as written and inside a JSON string, and gone.
  const anthropicEnv = Buffer.from('ANTHROPIC_API_KEY=sk-ant-api03-B64hidden').toString('base64');
  const rest = 'nM4bV8xC3zK6qW1rT5yH0jP2lD7gS9fA4uE6oI3mN8bV1cX5zQ7wR2tY-SplitAA';
  it.each([
    [
      'an API key in a URL query',
      'curl "https://api.weather.example/v1/forecast?q=paris&api_key=9f8e7d6c5b4a39281726354abcdef012"',
      '9f8e7d6c5b4a39281726354abcdef012',
    ],
    [
      'a signature in a URL query, any case',
      'GET /blob?sv=2021&SIG=aZ3x9Qw2Er5tY8uI0oP1 HTTP/1.1',
      'aZ3x9Qw2Er5tY8uI0oP1',
    ],
    ['an OAuth token in a fragment', 'https://app.io/cb#access_token=ya29.a0AfH6SM&state=1', 'ya29.a0AfH6SM'],
    ['a base64-encoded env line', `echo ${anthropicEnv} | base64 -d`, anthropicEnv],
    [
      'the rest of a key wrapped onto the next line',
      `ANTHROPIC_API_KEY=sk-ant-api03-aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5\n${rest}\nnext`,
      rest,
    ],
    ['the rest of a key after its first half was redacted', `key: <redacted:anthropic-key>\r\n${rest}`, rest],
    [
      "a service account's private_key_id",
      '{"type": "service_account", "private_key_id": "3f1e9c2b7a6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f"}',
      '3f1e9c2b7a6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f',
    ],
    ['an OAuth refresh_token', '{"refresh_token": "1//0gAbCdEfGhIjKl", "expires_in": 3599}', '1//0gAbCdEfGhIjKl'],
  ])('finds %s', (_what, text, secret) => {
    for (const written of [text, JSON.stringify({ output: text })]) {
      const out = redact(written, { users: [], homes: [], patterns: [] }).text;
      expect(out, written).not.toContain(secret);
      expect(leaks(out, { users: [], homes: [] })).toEqual([]);
    }
  });

  it('finds a base64-encoded .env wrapped on lines, and removes every line of it', () => {
    const env = `PORT=3000\nDEBUG=false\n${'# a comment line\n'.repeat(6)}DB_PASSWORD=hunter2secret\n`;
    const wrapped = Buffer.from(env).toString('base64').replace(/.{76}/g, '$&\n');
    expect(wrapped.split('\n').length).toBeGreaterThan(2);
    const out = redact(`data:\n${wrapped}\nend`, { users: [], homes: [], patterns: [] }).text;
    expect(out).toBe('data:\n<redacted:base64-named-secret>\nend');
  });

  it.each([
    ['a normal URL query', 'https://api.weather.example/v1/forecast?q=paris&page=2&units=metric&lang=fr'],
    ['a templated key', 'fetch(`/v1?api_key=${key}`); f"?token={token}"; "?sig=%s"; "?key=<KEY>"; ?auth=true'],
    ['a pagination token name', 'GET /items?page_token=CiAKGjBpNDd2Nmp2Zml2cXRyMzVpdDB0 HTTP/1.1'],
    [
      'a base64 PNG fragment',
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    ],
    ['base64 of harmless text', `echo ${Buffer.from('hello from the build server, all green').toString('base64')}`],
    ['a git SHA on its own line after a normal line', 'Merge branch fix\n3f1e9c2b7a6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f\n'],
    ['a name after a redacted key', 'TOKEN=<redacted:github-token>\nsnake_case_function_name_here()\n'],
  ])('keeps %s', (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('leaves a password named but not given on a command line alone: a $VAR, a template, npm_ variables', () => {
    const text =
      'curl -u "$USER:$PASS" https://x; tool --password=<password>; sshpass -p $PW ssh h; echo $npm_package_dependencies_typescript_version';
    expect(findSecrets(text)).toEqual([]);
  });

  it('leaves a secret named but not given alone: a $VAR, a type', () => {
    expect(findSecrets('export API_KEY=$MY_KEY; const password: string = input.password;')).toEqual([]);
  });

  it('leaves prose and code alone', () => {
    const text = 'const risk_assessment_for_the_project = task-ant-colony; mysql -p\nnpm_config_cache=/tmp';
    expect(findSecrets(text)).toEqual([]);
  });
});
