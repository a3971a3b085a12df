// The expected-vs-received diff: pretty JSON with sorted keys, multi-line strings one line per line, what a
// terminal hides made visible, unchanged stretches collapsed, colour only when asked for.
import { describe, expect, it } from 'vitest';
import { prettyLines, renderLineDiff, renderValueDiff } from '../../../src/grade/report/render-diff.ts';

const plain = { color: false };

describe('prettyLines', () => {
  it.each([
    ['keys sorted', { is_error: false, content: 'A' }, ['{', '  "content": "A",', '  "is_error": false', '}']],
    [
      'a multi-line string one line per line',
      { content: '1: a\n2: b\n' },
      ['{', '  "content": "1: a', '2: b', '"', '}'],
    ],
    [
      'a missing final newline by where the quote sits',
      { content: '1: a\n2: b' },
      ['{', '  "content": "1: a', '2: b"', '}'],
    ],
    ['tabs and \\r escaped', { content: 'a\tb\r\nc' }, ['{', '  "content": "a\\tb\\r', 'c"', '}']],
    ['trailing spaces marked', { content: 'a  \nb' }, ['{', '  "content": "a··', 'b"', '}']],
    ['invisible characters escaped', 'a\u00a0b\u200b', ['"a\\u00a0b\\u200b"']],
    // A result's keys are the program's too: a bidi override or a line separator in one must not act either.
    ['invisible characters in a key escaped', { 'x\u2028y\u202e': 1 }, ['{', '  "x\\u2028y\\u202e": 1', '}']],
    ['empty containers', { a: [], b: {} }, ['{', '  "a": [],', '  "b": {}', '}']],
    ['nothing', undefined, ['undefined']],
  ])('renders %s', (_, value, lines) => {
    expect(prettyLines(value)).toEqual(lines);
  });
});

describe('renderValueDiff', () => {
  it('shows the lines that differ, expected as - and received as +', () => {
    const diff = renderValueDiff(
      { content: 'hi\n', exit_code: 0, is_error: false },
      { content: 'hi\n', exit_code: 0 },
      plain,
    );
    expect(diff.split('\n')).toEqual([
      '- expected',
      '+ received',
      '',
      '  {',
      '    "content": "hi',
      '  ",',
      '-   "exit_code": 0,',
      '-   "is_error": false',
      '+   "exit_code": 0',
      '  }',
    ]);
  });

  it('compares multi-line strings line by line and names the legend when a trailing space is marked', () => {
    const diff = renderValueDiff('1: a\n2: b\n3: c', '1: a\n2: b \n3: c', {
      ...plain,
      labels: { expected: 'snapshot', received: 'yours' },
    });
    expect(diff.split('\n')).toEqual([
      '- snapshot',
      '+ yours',
      '',
      '  "1: a',
      '- 2: b',
      '+ 2: b·',
      '  3: c"',
      '',
      '· marks a trailing space; tabs, \\r and invisible characters are shown escaped',
    ]);
  });

  it('colours only when asked', () => {
    expect(renderValueDiff('a', 'b', plain)).not.toContain('\u001b[');
    expect(renderValueDiff('a', 'b', { color: true })).toContain('\u001b[');
  });
});

describe('renderLineDiff', () => {
  it('collapses long unchanged stretches, keeping context around each change', () => {
    const expected = Array.from({ length: 20 }, (_, k) => `line ${k + 1}`);
    const received = expected.map((l) => (l === 'line 10' ? 'line ten' : l));
    const diff = renderLineDiff(expected, received, { ...plain, context: 2 });
    expect(diff.split('\n').slice(3)).toEqual([
      '  … 7 unchanged lines',
      '  line 8',
      '  line 9',
      '- line 10',
      '+ line ten',
      '  line 11',
      '  line 12',
      '  … 8 unchanged lines',
    ]);
  });

  it('stops after maxLines diff lines and says how many more there are, and how many of them changed', () => {
    const diff = renderLineDiff(['a', 'b', 'c', 'd'], ['w', 'x', 'y', 'z'], { ...plain, maxLines: 3 });
    expect(diff.split('\n').slice(3)).toEqual([
      '- a',
      '- b',
      '- c',
      '  … 5 more lines of the diff left out (5 changed)',
    ]);
  });
});
