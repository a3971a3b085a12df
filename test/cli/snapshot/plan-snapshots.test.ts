// What a snapshot run finds for each case and each file without one, and what it writes and removes: a table.
import { describe, expect, it } from 'vitest';
import { checkFails, planSnapshots, runActions, type SnapshotEntry } from '../../../src/cli/snapshot/plan-snapshots.ts';
import { formatSnapshot } from '../../../src/course/snapshot-file.ts';
import type { ReferenceResult } from '../../../src/grade/run-reference.ts';

const text = (content: string) => formatSnapshot({ results: [{ content }] });
const ran = (content: string): ReferenceResult => ({ ok: true, results: [{ content }] });

describe('planSnapshots', () => {
  const runs = new Map<string, ReferenceResult>([
    ['same', ran('a')],
    ['same-pending', ran('a')],
    ['new', ran('a')],
    ['changed', ran('b')],
    ['changed-pending', ran('b')],
    ['broken', { ok: false, why: 'exit 1' }],
  ]);
  const disk = {
    snapshots: new Map([
      ['same', text('a')],
      ['same-pending', text('a')],
      ['changed', text('a')],
      ['changed-pending', text('a')],
      ['broken', text('a')],
    ]),
    pending: new Map([
      ['same-pending', text('old')],
      ['changed-pending', text('b')],
      ['broken', text('c')],
    ]),
  };
  const names = ['same', 'same-pending', 'new', 'changed', 'changed-pending', 'broken', 'not-run'];
  const entries = planSnapshots(names, runs, disk, {
    slug: 'demo',
    cases: names,
    snapshots: ['same', 'gone', 'gone-both'],
    pending: ['gone-both', 'gone-pending'],
    recordings: ['same', 'gone-recorded'],
  });

  it.each([
    ['same', 'unchanged', undefined],
    ['same-pending', 'unchanged', text('old')],
    ['new', 'added', undefined],
    ['changed', 'changed', undefined],
    ['changed-pending', 'changed', text('b')],
    ['broken', 'failed', text('c')],
    ['not-run', 'failed', undefined],
  ])('%s is %s', (name, status, pending) => {
    const entry = entries.find((e) => e.name === name);
    expect(entry?.status).toBe(status);
    expect(entry !== undefined && 'pending' in entry ? entry.pending : undefined).toBe(pending);
  });

  it('grades how a changed snapshot drifted', () => {
    const entry = entries.find((e) => e.name === 'changed');
    expect(entry?.status === 'changed' ? entry.drift?.kind : undefined).toBe('wording');
  });

  it('lists every file without a case as obsolete, after the cases', () => {
    expect(entries.slice(names.length)).toEqual([
      { status: 'obsolete', name: 'gone', files: ['snapshots/demo/gone.json'] },
      {
        status: 'obsolete',
        name: 'gone-both',
        files: ['snapshots/demo/gone-both.json', 'snapshots/demo/gone-both.json.new'],
      },
      { status: 'obsolete', name: 'gone-pending', files: ['snapshots/demo/gone-pending.json.new'] },
      { status: 'obsolete', name: 'gone-recorded', files: ['recordings/demo/gone-recorded.json'] },
    ]);
  });

  it('without the whole stage, looks for no obsolete file', () => {
    expect(planSnapshots(['same'], runs, disk).map((e) => e.status)).toEqual(['unchanged']);
  });

  it('writes a pending file only where it would change, removes an outdated one, and never writes a snapshot', () => {
    expect(runActions(entries, { stage: 'demo', removeObsolete: false })).toEqual({
      write: [
        { path: 'snapshots/demo/new.json.new', text: text('a') },
        { path: 'snapshots/demo/changed.json.new', text: text('b') },
      ],
      remove: ['snapshots/demo/same-pending.json.new'],
    });
  });

  it('removes obsolete files only when asked', () => {
    expect(runActions(entries, { stage: 'demo', removeObsolete: true }).remove).toEqual([
      'snapshots/demo/same-pending.json.new',
      'snapshots/demo/gone.json',
      'snapshots/demo/gone-both.json',
      'snapshots/demo/gone-both.json.new',
      'snapshots/demo/gone-pending.json.new',
      'recordings/demo/gone-recorded.json',
    ]);
  });

  it.each<[string, SnapshotEntry, boolean]>([
    ['everything up to date', { status: 'unchanged', name: 'a' }, false],
    ['a pending file left', { status: 'unchanged', name: 'a', pending: text('a') }, true],
    ['a stale snapshot', { status: 'changed', name: 'a', text: '', before: '', drift: undefined }, true],
    ['an obsolete file', { status: 'obsolete', name: 'a', files: ['a.json'] }, true],
  ])('--check fails on %s: %s', (_, entry, fails) => {
    expect(checkFails([entry])).toBe(fails);
  });
});
