import { describe, expect, it } from 'vitest';
import { filterOf, filterOfCases, type CaseFilter } from '../../../src/cli/watch/case-filter.ts';

describe('filterOf (text typed at the prompt)', () => {
  it.each<[string, CaseFilter | undefined]>([
    ['', undefined],
    ['  ', undefined],
    ['read', { label: 'read', cases: ['*read*'] }],
    [' read ', { label: 'read', cases: ['*read*'] }],
    ['read-*', { label: 'read-*', cases: ['read-*'] }],
    ['bash-?', { label: 'bash-?', cases: ['bash-?'] }],
    // Braces are not glob characters to the grader: plain text.
    ['{a,b}', { label: '{a,b}', cases: ['*{a,b}*'] }],
  ])('%j -> %j', (text, filter) => {
    expect(filterOf(text)).toEqual(filter);
  });
});

describe('filterOfCases (the --case patterns watch mode starts with)', () => {
  it.each<[string[] | undefined, CaseFilter | undefined]>([
    [undefined, undefined],
    [[], undefined],
    [['read-*'], { label: 'read-*', cases: ['read-*'] }],
    [['read-*', 'bash-echo'], { label: 'read-* bash-echo', cases: ['read-*', 'bash-echo'] }],
  ])('%j -> %j', (cases, filter) => {
    expect(filterOfCases(cases)).toEqual(filter);
  });
});
