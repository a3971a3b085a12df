// What a student types that the grader reads as they meant it, in a course directory `init` wrote: `test` without
// --stage grades what `npm test` grades; a misspelt stage gets "did you mean"; a case name given as an argument
// gets a word about --case.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../support/cli-in-process.ts';

let root: string;
let course: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-words-'));
  const tarball = join(root, 'theinference-0.1.0.tgz');
  await writeFile(tarball, '');
  course = join(root, 'my-agent');
  expect((await cli(['init', 'my-agent', '--from', tarball], root)).code).toBe(0);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('what a student types', () => {
  it("`test` without --stage grades the stage the course's package.json grades", async () => {
    const scripts = JSON.parse(await readFile(join(course, 'package.json'), 'utf8')).scripts;
    expect(scripts.test).toBe('theinference test --stage agent-loop');
    const { code, stdout, stderr } = await cli(['test', '--case', 'stop-refusal'], course);
    expect([code, stderr]).toEqual([1, '']);
    expect(stdout).toContain(' Stage  agent-loop\n');
  }, 120_000);

  it('`test` without --stage outside a course directory asks for one, naming the stages', async () => {
    const { code, stderr } = await cli(['test'], root);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: name the stage to grade: --stage <slug> \(the stages: agent-loop, /);
  });

  it.each([['agent-lop'], ['register-tool'], ['agnet-loop'], ['Agent-Loop']])(
    'a misspelt stage %s gets "did you mean"',
    async (typed) => {
      const { code, stderr } = await cli(['test', '--stage', typed], course);
      expect(code).toBe(2);
      expect(stderr).toMatch(/unknown stage '[^']+'\. Did you mean (agent-loop|register-tools)\? Known stages:/);
    },
  );

  it('a case name given as an argument gets a word about --case', async () => {
    const { code, stderr } = await cli(['test', '--stage', 'agent-loop', 'text-only-answer'], course);
    expect(code).toBe(2);
    expect(stderr).toContain("error: too many arguments for 'test'");
    expect(stderr).toContain('A case is named with --case, not as an argument:');
  });
});
