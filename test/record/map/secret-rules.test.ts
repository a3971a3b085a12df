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
  ])('finds %s', (_what, text, secret) => {
    for (const written of [text, JSON.stringify({ output: text })]) {
      expect(redact(written, { users: [], homes: [], patterns: [] }).text).not.toContain(secret);
    }
  });

  it('leaves a secret named but not given alone: a $VAR, a type', () => {
    expect(findSecrets('export API_KEY=$MY_KEY; const password: string = input.password;')).toEqual([]);
  });

  it('leaves prose and code alone', () => {
    const text = 'const risk_assessment_for_the_project = task-ant-colony; mysql -p\nnpm_config_cache=/tmp';
    expect(findSecrets(text)).toEqual([]);
  });
});
