// Base64 runs are decoded only as far as a bound, binary not past its start, and a run wrapped on lines is one run.
import { describe, expect, it } from 'vitest';
import { base64Secrets } from '../../../src/record/map/base64-secrets.ts';

const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

// A finder that records what it was given, and finds a secret where the text says so.
function recorder(): { seen: string[]; find: (decoded: string) => string | undefined } {
  const seen: string[] = [];
  const find = (decoded: string): string | undefined => {
    seen.push(decoded);
    return decoded.includes('SECRET=') ? 'named-secret' : undefined;
  };
  return { seen, find };
}

describe('base64Secrets', () => {
  it.each([
    ['a run alone', `echo ${b64('SECRET=abcdefghijkl')} | base64 -d`, 5, 5 + b64('SECRET=abcdefghijkl').length],
    ['a base64url run', `"${b64('x SECRET=abc?>>?').replace(/\+/g, '-').replace(/\//g, '_')}"`, 1, 25],
  ])('reports %s whole', (_what, text, start, end) => {
    const { find } = recorder();
    expect(base64Secrets(text, find)).toEqual([[start, end, 'named-secret']]);
  });

  it('joins a run wrapped on lines of one length, and stops at the line after it', () => {
    const wrapped = b64(`${'#'.repeat(120)}\nSECRET=abcdefghijkl\n`).replace(/.{76}/g, '$&\n');
    const text = `data:\n${wrapped}\nnext line`;
    const { seen, find } = recorder();
    expect(base64Secrets(text, find)).toEqual([[6, 6 + wrapped.length, 'named-secret']]);
    expect(seen).toHaveLength(1);
  });

  it('never decodes past the start of binary, however long', () => {
    const { seen, find } = recorder();
    expect(base64Secrets(`png ${b64(Buffer.alloc(3_000_000, 0xa7))} end`, find)).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('decodes at most a bounded start of a long run of text', () => {
    const { seen, find } = recorder();
    base64Secrets(b64('plain words '.repeat(200_000)), find);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.length).toBeLessThanOrEqual(256 * 1024);
  });

  it('leaves short runs, words and paths', () => {
    const { seen, find } = recorder();
    expect(base64Secrets('src/record/map/base64-secrets.ts SECRET= aGVsbG8=', find)).toEqual([]);
    expect(seen).toEqual([]);
  });
});
