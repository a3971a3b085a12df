// Variants end to end: the real binary in CI mode (CI=true, the sandbox required) on the whole stage. The reference
// passes every variant, a lookup table of the stored results passes every case as written and fails under
// variants, and a report's seed repeats its variants. On agent-loop alike: the reference loop passes every variant,
// a table of the stored conversations fails them.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeCourse, REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { writeAnswers } from '../support/lookup-table.ts';
import { writeConversations } from '../support/loop-lookup.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
const { scratch, env } = useBinary();

// `theinference test --stage register-tools …` as a CI job runs it: CI set, nothing else deciding variants.
const grade = (dir: string, args: string[] = []) =>
  execa('node', [BIN, 'test', '--stage', 'register-tools', '--dir', dir, ...args], {
    env: { ...env(), CI: 'true', THEINFERENCE_VARIANTS: undefined, THEINFERENCE_ISOLATION: undefined },
    reject: false,
  });
const variantsLine = (stdout: string) => stdout.split('\n').find((l) => l.startsWith(' Also '));

describe('--variants, in CI', () => {
  it('passes the reference on every case and every variant, saying the seed', async () => {
    const { exitCode, stdout } = await grade(await makeCourse(scratch));
    expect(variantsLine(stdout)).toMatch(
      /^ Also {3}variants: seed (\d+), \d{2,} cases also checked on renamed files; \d+ had none \(--seed \1 repeats them\)$/,
    );
    expect(stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(exitCode).toBe(0);
  });

  it('fails a lookup table of the stored results under variants, and passes it without them', async () => {
    const dir = await makeCourse(scratch, 'lookup-table');
    await writeAnswers(dir);
    const without = await grade(dir, ['--no-variants']);
    expect([without.exitCode, variantsLine(without.stdout)]).toEqual([0, undefined]);
    const { exitCode, stdout } = await grade(dir, ['--seed', '41730']);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^ Cases {2}(\d{2,}) failed \| \d+ passed/m);
    expect(stdout).toContain('\n  variant (seed 41730): call 1 of ');
    expect(stdout).toContain('- expected (the reference, on the variant)');
    expect(stdout).toContain('hint: the case passes as written but not its variant');
    // In CI the re-run command grades the stage again with the same variants: a CI job keeps no record for --failed.
    expect(stdout).toMatch(/^npx theinference test --stage register-tools --dir \S+ --seed 41730$/m);
  });

  it('gives the same variants, and the same report, for the same seed', async () => {
    const dir = await makeCourse(scratch, 'lookup-table');
    await writeAnswers(dir);
    // A few cases: with every case failing, the json report cuts each message alike to stay small.
    const some = ['--case', 'story-*', '--reporter', 'json'];
    const [a, b] = [await grade(dir, ['--seed', '5', ...some]), await grade(dir, ['--seed', '5', ...some])];
    expect(JSON.parse(a.stdout).tests).toEqual(JSON.parse(b.stdout).tests);
    const other = await grade(dir, ['--seed', '6', ...some]);
    expect(JSON.parse(other.stdout).tests).not.toEqual(JSON.parse(a.stdout).tests);
  });
});

describe('--variants on agent-loop, in CI', () => {
  // Every loop case twice and the reference once more, in the sandbox: minutes on a busy 2-core machine.
  const E2E_MS = 300_000;
  const gradeLoop = (dir: string, args: string[] = []) =>
    execa('node', [BIN, 'test', '--stage', 'agent-loop', '--dir', dir, ...args], {
      env: { ...env(), CI: 'true', THEINFERENCE_VARIANTS: undefined, THEINFERENCE_ISOLATION: undefined },
      reject: false,
    });

  it(
    'passes the reference loop on every case and every variant, saying what they rename',
    async () => {
      const dir = await makeCourse(scratch);
      await copyFile(join(REPO, 'src', 'agent-loop.ts'), join(dir, 'src', 'agent-loop.ts'));
      const { exitCode, stdout } = await gradeLoop(dir, ['--seed', '41730']);
      expect(variantsLine(stdout)).toMatch(
        /^ Also {3}variants: seed 41730, \d{2,} cases also checked with the model's words, outputs and tool_use ids renamed \(--seed 41730 repeats them\)$/,
      );
      expect(stdout).toMatch(/^\d+ passed, 0 failed$/m);
      expect(exitCode).toBe(0);
    },
    E2E_MS,
  );

  it(
    'fails a table of the stored conversations under variants, and passes it without them',
    async () => {
      const dir = await makeCourse(scratch, 'loop-lookup');
      await writeConversations(dir);
      const without = await gradeLoop(dir, ['--no-variants']);
      expect([without.exitCode, variantsLine(without.stdout)]).toEqual([0, undefined]);
      const { exitCode, stdout } = await gradeLoop(dir, ['--seed', '41730']);
      expect(exitCode).toBe(1);
      expect(stdout).toMatch(/^ Cases {2}\d{2,} failed \| 0 passed/m);
      expect(stdout).toContain('variant (seed 41730): ');
      expect(stdout).toContain(
        "hint: the case passes as written but not its variant: the same loop with the model's words",
      );
    },
    E2E_MS,
  );
});
