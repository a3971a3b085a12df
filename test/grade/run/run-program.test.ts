// One program process, for real: lines streamed with the stderr before each, a hang or a flood killed with its
// whole process group, and its TMPDIR gone once it settles.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RESULT_LINE_BYTES } from '../../../src/grade/run/program-machine.ts';
import { runProgram, type ProgramLine } from '../../../src/grade/run/run-program.ts';
import { CONFINEMENT } from '../../support/isolation.ts';
import { makeCourse, useScratch, processRunning, REPO } from '../course-fixture.ts';

// Cases as the driver reads them from stdin: one JSON object per line.
const PROBE = '{"calls":[]}';
const caseFile = (name: string): string =>
  JSON.stringify(JSON.parse(readFileSync(join(REPO, 'cases', 'register-tools', `${name}.json`), 'utf8')));
const scratch = useScratch();

type Verdict = 'continue' | 'stop';

async function run(
  dir: string,
  cases: string[],
  timeoutMs = 30_000,
  onLine = (_: ProgramLine): Verdict => 'continue',
  driver?: string,
) {
  const lines: ProgramLine[] = [];
  const result = await runProgram({
    dir,
    ...(driver === undefined ? {} : { driver }),
    cases,
    timeoutMs,
    env: process.env,
    confinement: CONFINEMENT,
    onLine: (line) => {
      lines.push(line);
      return onLine(line);
    },
  });
  return { lines, result };
}

describe('runProgram', () => {
  it('streams one line per case and hands out all of stderr, in order, between the lines', async () => {
    const dir = await makeCourse(scratch, 'stderr-between-lines');
    const { lines, result } = await run(dir, [PROBE, PROBE], 30_000, () => 'continue', 'program.ts');
    expect(lines.map((l) => [l.index, l.text])).toEqual([
      [0, '{"results":[]}'],
      [1, '{"results":[]}'],
    ]);
    expect(result).toMatchObject({ end: { kind: 'exited', code: 0, signal: null }, lines: 2 });
    // Which side of a line a stderr write lands on depends on which pipe the grader reads first (it is
    // attributed by arrival); that nothing is lost, reordered or shown with the real temp path does not.
    const stderr = lines.map((l) => l.output).join('') + result.output;
    expect(stderr).toBe('tmp $TMPDIR\nbefore 0\nbefore 1\nafter the last\n');
  });

  it('stops the process when onLine says so', async () => {
    const dir = await makeCourse(scratch, 'stderr-between-lines');
    const { lines, result } = await run(dir, [PROBE, PROBE, PROBE], 30_000, () => 'stop', 'program.ts');
    expect(lines.length).toBe(1);
    expect(result.end).toEqual({ kind: 'stopped' });
  });

  it('kills a hung program with the background child holding its pipes, knowing the call in flight', async () => {
    const dir = await makeCourse(scratch, 'hangs');
    const { lines, result } = await run(dir, [PROBE, caseFile('course-glob-everything')], 1500);
    expect(lines.map((l) => l.text)).toEqual(['{"results":[]}']);
    expect(result.end).toEqual({ kind: 'timeout', timeoutMs: 1500 });
    expect(result.calling?.call).toBe(1);
    expect(result.calling?.ms).toBeGreaterThan(1000);
    expect(await processRunning('sleep 987654', dir)).toBe(false);
  });

  it('knows no call in flight once the case has printed its results', async () => {
    const dir = await makeCourse(scratch, 'exits-non-zero');
    const { lines, result } = await run(dir, [caseFile('course-read-seeded-file'), caseFile('course-bash-echo-hi')]);
    expect(lines.map((l) => l.text)).toEqual(['{"results":[{"content":"1: A"}]}']);
    expect(result.end).toEqual({ kind: 'exited', code: 3, signal: null });
    expect(result.calling?.call).toBe(1);
    const { result: after } = await run(dir, [caseFile('course-read-seeded-file')]);
    expect([after.end, after.calling]).toEqual([{ kind: 'exited', code: 0, signal: null }, undefined]);
  });

  it('does not wait for a background child left holding the pipes after a normal exit, and kills it', async () => {
    const dir = await makeCourse(scratch, 'hangs');
    const { lines, result } = await run(dir, [caseFile('course-bash-echo-hi')]);
    expect(lines.map((l) => JSON.parse(l.text))).toEqual([
      { results: [{ content: 'hi\n', exit_code: 0, is_error: false }] },
    ]);
    expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
    expect(await processRunning('sleep 987654', dir)).toBe(false);
  });

  it('kills a driver of its own that floods stdout without a line break: no result line is that long', async () => {
    const dir = await makeCourse(scratch, 'floods-stdout');
    const { lines, result } = await run(dir, [PROBE, PROBE], 30_000, () => 'continue', 'program.ts');
    expect(lines.length).toBe(1);
    expect(result.end).toEqual({ kind: 'overflow', limitBytes: MAX_RESULT_LINE_BYTES });
  });

  it("shows a dispatcher's flood on stdout as output, only its tail, and ends the call at its timeout", async () => {
    const dir = await makeCourse(scratch, 'prints-a-gigabyte');
    const { lines, result } = await run(dir, [PROBE, caseFile('course-glob-everything')], 3000);
    expect(lines.map((l) => l.text)).toEqual(['{"results":[]}']);
    expect(result.end).toEqual({ kind: 'timeout', timeoutMs: 3000 });
    expect(result.output.length).toBeLessThan(70 * 1024);
    expect(result.output).toMatch(/^\[… \d+ earlier characters not kept …\]\nx+$/);
  });

  it('keeps only the tail of a flood on stderr and reads it all, so the program is never blocked', async () => {
    const dir = await makeCourse(scratch, 'prints-a-gigabyte');
    const { lines, result } = await run(dir, [caseFile('course-bash-echo-hi')]);
    expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
    expect(lines[0]!.output.length).toBeLessThan(70 * 1024);
    expect(lines[0]!.output).toMatch(/^\[… \d+ earlier characters not kept …\]\nx+\n/);
  });

  it('cleans up after a program that vandalises its temp space', async () => {
    const dir = await makeCourse(scratch, 'vandal');
    const { lines, result } = await run(dir, [caseFile('course-read-seeded-file')]);
    expect(lines.map((l) => l.text)).toEqual(['{"results":[{"content":"1: A"}]}']);
    expect(result.end.kind).toBe('exited');
  });

  it('stops when the signal aborts, killing the process', async () => {
    const dir = await makeCourse(scratch, 'hangs');
    const controller = new AbortController();
    const result = await runProgram({
      dir,
      cases: [PROBE, caseFile('course-glob-everything')],
      timeoutMs: 600_000,
      env: process.env,
      confinement: CONFINEMENT,
      signal: controller.signal,
      onLine: () => {
        controller.abort();
        return 'continue';
      },
    });
    expect(result.end).toEqual({ kind: 'stopped' });
    expect(await processRunning('sleep 987654', dir)).toBe(false);
  });

  it('reports a process that cannot be started', async () => {
    const { result } = await run(join(scratch.root, 'no-such-dir'), [PROBE]);
    expect(result.end.kind).toBe('spawn-failed');
  });
});
