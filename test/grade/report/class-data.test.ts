// Class data: what a class run writes with --class-data, read back, and the shards' files merged as one class or
// refused with what is wrong (test/cli/merge.test.ts grades a class both ways with the real binary).
import { describe, expect, it } from 'vitest';
import { mergeClassData, parseClassData, renderClassData } from '../../../src/grade/report/class-data.ts';
import type { ClassReport, SubmissionResult } from '../../../src/grade/types.ts';
import { pass, report } from './reports.ts';

const graded = (name: string): SubmissionResult => {
  const run = report('register-tools', [pass('a')]);
  return { name, dir: `/class/${name}`, verdict: 'pass', passed: 1, failed: 0, report: run };
};
const shard = (index: number, names: string[], extra: Partial<ClassReport> = {}) => {
  const data = renderClassData(
    { stage: 'register-tools', durationMs: index * 1000, submissions: names.map(graded), ...extra },
    { shard: { index, total: 3 }, classSize: 4, files: new Map(names.map((n) => [n, `/reports/${n}.xml`])) },
  );
  return { file: `shard-${index}.json`, data: parseClassData(data, `shard-${index}.json`) };
};

describe('mergeClassData', () => {
  it('is the class of one run: every submission in name order, the longest shard, each warning once', () => {
    const { report: merged, files } = mergeClassData([
      shard(2, ['bea', 'dan'], { warnings: ['w'] }),
      shard(1, ['ann', 'cal'], { warnings: ['w'] }),
      shard(3, []),
    ]);
    expect(merged.submissions.map((s) => s.name)).toEqual(['ann', 'bea', 'cal', 'dan']);
    expect([merged.durationMs, merged.warnings, merged.variants]).toEqual([3000, ['w'], undefined]);
    expect(files.get('dan')).toBe('/reports/dan.xml');
  });

  it.each([
    ['a shard missing', () => [shard(1, ['ann', 'cal']), shard(2, ['bea', 'dan'])], 'shard 3/3 missing'],
    ['a shard twice', () => [shard(1, ['ann']), shard(1, ['ann']), shard(3, [])], 'are both shard 1/3'],
    [
      'another seed',
      () => [shard(1, ['ann', 'cal'], { variants: { seed: 1 } }), shard(2, ['bea', 'dan']), shard(3, [])],
      'shard-2.json has variants seed none, shard-1.json has 1',
    ],
    ['a submission in two', () => [shard(1, ['ann', 'cal']), shard(2, ['ann', 'dan']), shard(3, [])], '"ann" is in'],
    [
      'too few submissions',
      () => [shard(1, ['ann']), shard(2, ['bea']), shard(3, [])],
      '2 submissions of a class of 4',
    ],
  ])('refuses %s, saying so', (_, parts, words) => {
    expect(() => mergeClassData(parts())).toThrow(words);
  });
});

describe('parseClassData', () => {
  it.each([
    ['not JSON', '{', 'x.json is not JSON'],
    ['a summary', '{"stage":"register-tools","submissions":[]}', 'x.json is not class data'],
    ['a later layout', '{"format":"theinference class data","version":2}', 'of layout 2'],
    ['an edited file', '{"format":"theinference class data","version":1,"stage":1}', 'a field missing'],
  ])('refuses %s, naming the file', (_, text, words) => {
    expect(() => parseClassData(text, 'x.json')).toThrow(words);
  });
});
