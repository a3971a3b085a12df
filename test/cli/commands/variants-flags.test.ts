// Whether a run has variants: the flags, THEINFERENCE_VARIANTS, CI where the reference is, never in watch mode.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseVariants } from '../../../src/cli/commands/variants-flags.ts';
import { HarnessError } from '../../../src/errors.ts';
import { REPO } from '../../support/reference-course.ts';

let bare = '';
beforeAll(async () => {
  bare = await mkdtemp(join(tmpdir(), 'theinference-no-reference-'));
});
afterAll(async () => {
  await rm(bare, { recursive: true, force: true });
});

const io = (env: NodeJS.ProcessEnv, root = REPO) =>
  ({ cwd: REPO, env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, root }) as const;
type Flags = Parameters<typeof chooseVariants>[0];

describe('chooseVariants', () => {
  it.each<[string, Flags, NodeJS.ProcessEnv, 'seed' | 'none' | number]>([
    ['off outside CI', {}, {}, 'none'],
    ['on in CI', {}, { CI: 'true' }, 'seed'],
    ['off in CI with CI=false', {}, { CI: 'false' }, 'none'],
    ['asked for', { variants: true }, {}, 'seed'],
    ['a given seed', { seed: '41730' }, {}, 41730],
    ['refused in CI', { variants: false }, { CI: 'true' }, 'none'],
    ['off by the environment', {}, { CI: 'true', THEINFERENCE_VARIANTS: 'off' }, 'none'],
    ['on by the environment', {}, { THEINFERENCE_VARIANTS: 'on' }, 'seed'],
    ['never in watch mode, CI or not', { watch: true }, { CI: 'true' }, 'none'],
  ])('%s', async (_, flags, env, expected) => {
    const choice = await chooseVariants(flags, io(env));
    if (expected === 'none') expect(choice.seed).toBeUndefined();
    else if (expected === 'seed') expect(choice.seed).toEqual(expect.any(Number));
    else expect(choice.seed).toBe(expected);
  });

  it('draws a fresh seed for every run', async () => {
    const seeds = await Promise.all(Array.from({ length: 5 }, () => chooseVariants({ variants: true }, io({}))));
    expect(new Set(seeds.map((s) => s.seed)).size).toBeGreaterThan(1);
  });

  it('says, in CI, that a copy without the reference runs no variants', async () => {
    const choice = await chooseVariants({}, io({ CI: 'true' }, bare));
    expect(choice).toEqual({
      note: expect.stringMatching(
        /^no variants: this copy of theinference \(.*\) has no reference solution \(src\/execute\.ts\)/,
      ),
    });
  });

  it("names the stage's own reference: the loop's for agent-loop", async () => {
    const choice = await chooseVariants({ stage: 'agent-loop' }, io({ CI: 'true' }, bare));
    expect(choice.note).toMatch(/has no reference solution \(src\/agent-loop\.ts\)/);
  });

  it.each<[string, Flags, NodeJS.ProcessEnv, 'bare' | 'repo', RegExp]>([
    [
      'variants without the reference',
      { variants: true },
      {},
      'bare',
      /^--variants asks for variants, and this copy .* Run the grader from a checkout of the course repository/,
    ],
    ['a seed without the reference', { seed: '5' }, {}, 'bare', /^--seed asks for variants/],
    ['a seed that is not a number', { seed: 'abc' }, {}, 'repo', /^--seed 'abc' is not a seed/],
    [
      'a seed and --no-variants',
      { seed: '5', variants: false },
      {},
      'repo',
      /^--seed makes variants, and --no-variants asks for none/,
    ],
    ['variants in watch mode', { variants: true, watch: true }, {}, 'repo', /^--watch never runs variants/],
  ])('refuses %s', async (_, flags, env, root, message) => {
    const error = await chooseVariants(flags, io(env, root === 'bare' ? bare : REPO)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toMatch(message);
  });
});
