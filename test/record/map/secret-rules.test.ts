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

  it('leaves prose and code alone', () => {
    const text = 'const risk_assessment_for_the_project = task-ant-colony; mysql -p\nnpm_config_cache=/tmp';
    expect(findSecrets(text)).toEqual([]);
  });
});
