// A case's variant, case by case: what is renamed, what stays, and when a case has none.
import { describe, expect, it } from 'vitest';
import type { DispatchCaseData } from '../../../../src/modes/dispatch/case.ts';
import { letterMap, mapAll } from '../../../../src/grade/variants/letter-map.ts';
import { makeVariant } from '../../../../src/modes/dispatch/variants/make-variant.ts';

const SEED = 1234;
const rename = (name: string) => (text: string) => mapAll(text, letterMap(SEED, name));
const variant = (name: string, data: Omit<DispatchCaseData, 'description'>) => {
  const made = makeVariant({ name, data: { description: 'd', ...data } }, SEED);
  if (!made.ok) throw new Error(`no variant: ${made.why}`);
  return made.data;
};

describe('makeVariant', () => {
  it('renames seeded files and their contents, and the strings in the calls that refer to them', () => {
    const m = rename('story');
    const data = variant('story', {
      files: { 'src/a.ts': 'const x = 1;\n', 'link.ts': { symlink: 'src/a.ts' }, 'bin.dat': { base64: 'Zm9vAAo=' } },
      calls: [
        { tool: 'Edit', input: { path: 'src/a.ts', old_str: 'x = 1', new_str: 'y = 2' } },
        { tool: 'Read', input: { path: '<sandbox>/src/a.ts', view_range: [1, 2] } },
        { tool: 'Grep', input: { pattern: '^const\\s', path: 'src', glob: '*.ts' } },
        { tool: 'Glob', input: { pattern: '**/*.ts' } },
        { tool: 'Bash', input: { command: 'cat link.ts', timeout: 500 } },
      ],
    });
    expect(data).toEqual({
      description: 'd',
      files: {
        [`${m('src')}/${m('a')}.${m('ts')}`]: `${m('const')} ${m('x')} = 1;\n`,
        [`${m('link')}.${m('ts')}`]: { symlink: `${m('src')}/${m('a')}.${m('ts')}` },
        [`${m('bin')}.${m('dat')}`]: { base64: Buffer.from(`${m('foo')}\u0000\n`).toString('base64') },
      },
      calls: [
        {
          tool: 'Edit',
          input: { path: `${m('src')}/${m('a')}.${m('ts')}`, old_str: `${m('x')} = 1`, new_str: `${m('y')} = 2` },
        },
        { tool: 'Read', input: { path: `<sandbox>/${m('src')}/${m('a')}.${m('ts')}`, view_range: [1, 2] } },
        { tool: 'Grep', input: { pattern: `^${m('const')}\\s`, path: m('src'), glob: `*.${m('ts')}` } },
        { tool: 'Glob', input: { pattern: `**/*.${m('ts')}` } },
        { tool: 'Bash', input: { command: `cat ${m('link')}.${m('ts')}`, timeout: 500 } },
      ],
    });
  });

  it('keeps what provokes an error: paths out of the sandbox, and what follows a link out of it', () => {
    const m = rename('escape');
    const data = variant('escape', {
      files: { host: { symlink: '/etc' }, 'a.txt': 'A' },
      calls: [
        { tool: 'Read', input: { path: 'host/hosts' } },
        { tool: 'Read', input: { path: '../a.txt' } },
        { tool: 'Read', input: { path: '/etc/hosts' } },
        { tool: 'Glob', input: { pattern: '*', path: '<sandbox>-other' } },
        { tool: 'Bash', input: { command: 'ln -s /etc made && cat made/passwd' } },
        { tool: 'Read', input: { path: 'made/passwd' } },
      ],
    });
    expect(data.files).toEqual({ [m('host')]: { symlink: '/etc' }, [`${m('a')}.${m('txt')}`]: m('A') });
    expect(data.calls.map((c) => Object.values(c.input)[0])).toEqual([
      `${m('host')}/hosts`,
      '../a.txt',
      '/etc/hosts',
      '*',
      `ln -s /etc ${m('made')} && cat ${m('made')}/passwd`,
      `${m('made')}/passwd`,
    ]);
  });

  it('never renames tool names, input keys, numbers or the description, and drops source', () => {
    const made = makeVariant(
      {
        name: 'keys',
        data: {
          $schema: '../case.schema.json',
          description: 'Read reads a.txt',
          files: { 'a.txt': 'A' },
          calls: [{ tool: 'Read', input: { path: 'a.txt', view_range: [1, -1], insert_line: '1' } }],
          source: { format: 'claude-code', calls: [{ name: 'Read', input: { file_path: 'a.txt' } }] },
        },
      },
      SEED,
    );
    expect(made.ok && made.data.description).toBe('Read reads a.txt');
    expect(made.ok && made.data.calls[0]).toEqual({
      tool: 'Read',
      input: { path: rename('keys')('a.txt'), view_range: [1, -1], insert_line: '1' },
    });
    expect(made.ok && Object.keys(made.data)).toEqual(['description', 'files', 'calls']);
  });

  it('is the same for the same seed, and another for another seed', () => {
    const c = {
      name: 'same',
      data: { description: 'd', files: { 'a.txt': 'hello' }, calls: [{ tool: 'Read', input: { path: 'a.txt' } }] },
    };
    expect(makeVariant(c, 5)).toEqual(makeVariant(c, 5));
    expect(makeVariant(c, 5)).not.toEqual(makeVariant(c, 6));
  });

  it.each([
    [
      'nothing to rename',
      { calls: [{ tool: 'Bash', input: { command: 'echo $((6 * 7))' } }] },
      'nothing in it to rename',
    ],
    [
      'a grep range over letters',
      { files: { 'a.txt': 'abc' }, calls: [{ tool: 'Grep', input: { pattern: '[a-c]' } }] },
      'has the range a-c',
    ],
    [
      'a script run from the sandbox',
      {
        calls: [
          { tool: 'Write', input: { path: 'run.sh', file_text: 'echo hi' } },
          { tool: 'Bash', input: { command: 'sh run.sh' } },
        ],
      },
      'runs "sh" on the case\'s files',
    ],
  ])('gives no variant for %s, saying why', (_what, data, why) => {
    const made = makeVariant({ name: 'x', data: { description: 'd', ...data } as DispatchCaseData }, SEED);
    expect(made.ok).toBe(false);
    expect(made.ok ? '' : made.why).toContain(why);
  });
});
