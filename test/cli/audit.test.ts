// `theinference audit`, by the real binary: the kill matrix of a stage's catalogue of wrong implementations in this
// repository (dispatchers, loops), as text and as JSON; an installed copy, which does not ship the catalogue, says so.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeInstalledCourse } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';

const { scratch, env, theinference } = useBinary();
const TWO = ['--mistake', 'glob-arguments-swapped', '--mistake', 'echo-trims'];

describe('theinference audit', () => {
  it('prints the kill matrix: each mistake caught and named by one message, and the cases none fails', async () => {
    const { exitCode, stdout } = await theinference(['audit', '--stage', 'register-tools', ...TWO]);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Kill matrix of register-tools: 2 wrong dispatchers against \d+ cases\n/);
    expect(stdout).toMatch(
      /\n✓ glob-arguments-swapped — fails \d+ cases, one message\n {4}hint: `Glob` and `glob` call tools\.glob\(input\.path, input\.pattern\)/,
    );
    expect(stdout).toMatch(/\n✓ echo-trims — fails \d+ cases, one message\n/);
    expect(stdout).toMatch(/\nCases no mistake fails \(\d+\): absolute-paths-read-write-edit, /);
    expect(stdout).toContain('\nMistakes no case catches: none\n');
    expect(stdout).toMatch(/\n2 of 2 mistakes caught and named; \d+ of \d+ cases fail at least one mistake$/);
  });

  it("audits the agent-loop stage's wrong loops the same way", async () => {
    const loops = ['--mistake', 'stops-on-text', '--mistake', 'execute-not-awaited'];
    const { exitCode, stdout } = await theinference(['audit', '--stage', 'agent-loop', ...loops]);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Kill matrix of agent-loop: 2 wrong loops against \d+ cases\n/);
    expect(stdout).toMatch(
      /\n✓ stops-on-text — fails \d+ cases, one message\n {4}hint: turn \d+ has text and stop_reason "tool_use"/,
    );
    expect(stdout).toMatch(
      /\n✓ execute-not-awaited — fails \d+ cases, one message\n {4}hint: a tool_result has no content/,
    );
    expect(stdout).toMatch(/\n2 of 2 mistakes caught and named; \d+ of \d+ cases fail at least one mistake$/);
  });

  it("audits compact-context's whole catalogue: every wrong loop caught and named by its one message", async () => {
    const { exitCode, stdout } = await theinference(['audit', '--stage', 'compact-context', '--json']);
    expect(exitCode).toBe(0);
    const matrix = JSON.parse(stdout) as { mistakes: unknown[]; uncaught: string[]; unnamed: string[] };
    expect(matrix.mistakes.length).toBeGreaterThanOrEqual(15);
    expect([matrix.uncaught, matrix.unnamed]).toEqual([[], []]);
  });

  it('gives the same as JSON with --json', async () => {
    const { exitCode, stdout } = await theinference(['audit', '--stage', 'register-tools', '--json', ...TWO]);
    expect(exitCode).toBe(0);
    const matrix = JSON.parse(stdout);
    expect(matrix.mistakes.map((m: { slug: string; named: boolean }) => [m.slug, m.named])).toEqual([
      ['glob-arguments-swapped', true],
      ['echo-trims', true],
    ]);
    expect(matrix.kills['echo-keeps-trailing-newlines']).toEqual(['echo-trims']);
    expect([matrix.uncaught, matrix.unnamed]).toEqual([[], []]);
  });

  it('refuses an entry the catalogue does not have', async () => {
    const { exitCode, stderr } = await theinference(['audit', '--stage', 'register-tools', '--mistake', 'nope']);
    expect([exitCode, stderr]).toEqual([
      2,
      'error: --mistake nope: no such entry in test/fixtures/wrong-execute/catalogue.ts',
    ]);
  });

  it('says plainly that an installed copy has no catalogue, and where to run it', async () => {
    const { dir, bin } = await makeInstalledCourse(scratch);
    const { exitCode, stderr } = await execa('node', [bin, 'audit', '--stage', 'register-tools'], {
      cwd: dir,
      env: env(),
      reject: false,
    });
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(
      /^error: the catalogue of wrong dispatchers \(test\/fixtures\/wrong-execute\/catalogue\.ts\) is not in this copy of theinference \(.*node_modules\/theinference\): an installed package does not ship it\. Run audit in a checkout of theinference's repository/,
    );
  });
});
