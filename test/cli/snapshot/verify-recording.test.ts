// A recorded case re-verified against what its agent was answered (its committed recording), the old snapshot
// against the new: unchanged, now diverging, now reproducing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyRecording } from '../../../src/cli/snapshot/verify-recording.ts';
import type { Recording } from '../../../src/course/recording-file.ts';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import { REPO } from '../../support/reference-course.ts';

const NAME = 'recorded-hello-world-script';
const read = (dir: string) => JSON.parse(readFileSync(join(REPO, dir, 'register-tools', `${NAME}.json`), 'utf8'));
const recording = read('recordings') as Recording;
const { calls } = read('cases') as DispatchCaseData;
const results = (read('snapshots') as { results: unknown[] }).results;
const reworded = [{ content: 'File saved at: <sandbox>/hello.sh' }, results[1]];
const otherOutput = [results[0], { content: 'Hello, world\n', exit_code: 0, is_error: false }];

describe('verifyRecording', () => {
  it('is unchanged when both snapshots reproduce the recording', () => {
    expect(verifyRecording(recording, calls, results, results)).toEqual({ kind: 'unchanged', reproduced: 2, calls: 2 });
  });

  it('is unchanged with a new wording the recording rule reads the same (a Write that still says created)', () => {
    const created = [{ content: 'File created at: <sandbox>/hello.sh' }, results[1]];
    expect(verifyRecording(recording, calls, results, created).kind).toBe('unchanged');
  });

  it.each([
    ['a Write no longer saying it created the file', reworded, 0, 'Write'],
    ['a Bash printing something else', otherOutput, 1, 'Bash'],
  ])('now diverges from the agent: %s, with both sides', (_, after, index, tool) => {
    const check = verifyRecording(recording, calls, results, after);
    expect(check).toMatchObject({ kind: 'diverges', index, tool });
    expect(check.kind === 'diverges' && check.recorded !== check.replayed).toBe(true);
  });

  it('now reproduces where it did not', () => {
    expect(verifyRecording(recording, calls, otherOutput, results)).toEqual({ kind: 'reproduces', indices: [1] });
  });

  it('judges a new snapshot on its own', () => {
    expect(verifyRecording(recording, calls, null, results).kind).toBe('unchanged');
    expect(verifyRecording(recording, calls, null, otherOutput).kind).toBe('diverges');
  });

  it('says nothing of a recording that does not match the case', () => {
    expect(verifyRecording({ calls: recording.calls.slice(1) }, calls, results, results).kind).toBe('unknown');
  });
});
