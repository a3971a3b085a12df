// Case selection: names and globs, then deterministic shards that split the cases without overlap.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { nameMatcher, parseShard, selectCases } from '../../src/grade/select-cases.ts';

const NAMES = ['view-missing', 'read-a', 'bash-echo', 'read-b', 'glob-all', 'bash-exit', 'Zeta'];
const cases = NAMES.map((name) => ({ name }));
const names = (list: { name: string }[]): string[] => list.map((c) => c.name);

describe('selectCases', () => {
  it.each([
    [[], ['Zeta', 'bash-echo', 'bash-exit', 'glob-all', 'read-a', 'read-b', 'view-missing']],
    [['read-a'], ['read-a']],
    [['read-*'], ['read-a', 'read-b']],
    [
      ['bash-ex?t', 'glob-all'],
      ['bash-exit', 'glob-all'],
    ],
    [
      ['*a*', 'read-*'],
      ['Zeta', 'bash-echo', 'bash-exit', 'glob-all', 'read-a', 'read-b'],
    ],
  ])('--case %j selects %j, in code-unit order', (patterns, expected) => {
    expect(names(selectCases(cases, patterns))).toEqual(expected);
  });

  it('refuses a pattern that matches nothing, naming it and the cases there are', () => {
    const error = (() => {
      try {
        return selectCases(cases, ['read-a', 'raed-*']);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('NO_CASES');
    expect((error as HarnessError).message).toBe(
      "--case 'raed-*' matches no case. Did you mean 'read-a'? Use a case name or a glob (* and ?), e.g. --case 'read-*'. Cases: Zeta, bash-echo, bash-exit, glob-all, read-a, read-b, view-missing.",
    );
  });

  it.each<[string, string[], string]>([
    [
      'a name shared by no case: the prefix most cases share',
      ['tools-a', 'tools-b', 'stop-a', 'stop-b', 'stop-c'],
      'stop-*',
    ],
    ['a name close to a shared prefix: that prefix', ['tools-a', 'tools-b', 'stop-a', 'stop-b', 'stop-c'], 'tools-*'],
    ['no shared prefix: a case name', ['alpha', 'beta'], 'alpha'],
  ])("suggests a glob of the stage's own cases: %s", (_name, stage, example) => {
    const typed = example === 'tools-*' ? 'tols' : 'basic';
    expect(() =>
      selectCases(
        stage.map((name) => ({ name })),
        [typed],
      ),
    ).toThrow(`e.g. --case '${example}'.`);
  });

  it.each([1, 2, 3, 7, 10])('splits into %i shards that cover every case exactly once', (total) => {
    const shards = Array.from({ length: total }, (_, k) => names(selectCases(cases, [], { index: k + 1, total })));
    expect(shards.flat().sort()).toEqual([...NAMES].sort());
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('gives the same shard whatever order the cases come in', () => {
    const reversed = [...cases].reverse();
    expect(names(selectCases(reversed, [], { index: 2, total: 3 }))).toEqual(
      names(selectCases(cases, [], { index: 2, total: 3 })),
    );
    expect(names(selectCases(cases, [], { index: 2, total: 3 }))).toEqual(['bash-echo', 'read-a']);
  });

  it('shards the selected cases, not all of them', () => {
    expect(names(selectCases(cases, ['read-*', 'bash-*'], { index: 1, total: 2 }))).toEqual(['bash-echo', 'read-a']);
  });
});

describe('nameMatcher', () => {
  it.each([
    ['read-a', 'read-a', true],
    ['read-a', 'read-ab', false],
    ['read.*', 'read-a', false],
    ['read.*', 'read.x', true],
    ['a+b', 'a+b', true],
    ['(x)*', '(x)yz', true],
    ['?', 'ab', false],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(nameMatcher(pattern)(name)).toBe(expected);
  });
});

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, total: 1 }],
    ['2/3', { index: 2, total: 3 }],
    [' 3/3 ', { index: 3, total: 3 }],
  ])('reads %j', (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  it.each(['0/3', '4/3', '1/0', '1', '1/2/3', 'a/b', '-1/2', '1.5/2', ''])(
    'refuses %j, saying what a shard is',
    (text) => {
      expect(() => parseShard(text)).toThrow(
        new HarnessError(
          'BAD_FLAG',
          `--shard '${text}' is not a shard: write i/n with 1 <= i <= n, e.g. --shard 1/3 on the first of three machines.`,
        ),
      );
    },
  );
});
