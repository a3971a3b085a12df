// Whether a `test` run also runs variants, and from which seed: `--variants`, `--no-variants` and `--seed` decide,
// else THEINFERENCE_VARIANTS (`on` or `off`: a CI job's setting, the test suite's own), else CI does where the
// reference is (a course repository's checkout). Watch mode never runs them: its loop stays as fast as a save.
import { randomInt } from 'node:crypto';
import { packageRoot, stageOf } from '../../course/stages.ts';
import { HarnessError } from '../../errors.ts';
import { ciIsSet } from '../../grade/run/isolation/isolation-mode.ts';
import { hasReference, REFERENCE_FILE } from '../../course/reference.ts';
import type { CommandIo } from './io.ts';

// The seed, when the run has variants; `note` when CI would have run them but cannot, said on stderr.
export type VariantChoice = { seed?: number; note?: string };

// A seed a person can type: a whole number from 0 to a billion.
const MAX_SEED = 1_000_000_000;

export async function chooseVariants(
  flags: { stage?: string; variants?: boolean; seed?: string; watch?: boolean },
  io: CommandIo,
): Promise<VariantChoice> {
  const asked = flags.variants === true || flags.seed !== undefined;
  if (flags.variants === false && flags.seed !== undefined) {
    throw new HarnessError('BAD_FLAG', '--seed makes variants, and --no-variants asks for none: drop one of them.');
  }
  if (flags.watch === true) {
    if (asked) {
      throw new HarnessError(
        'BAD_FLAG',
        '--watch never runs variants (its loop stays as fast as a save): drop --variants and --seed, or drop --watch.',
      );
    }
    return {};
  }
  const byDefault = { on: true, off: false }[io.env.THEINFERENCE_VARIANTS ?? ''] ?? ciIsSet(io.env);
  if (flags.variants === false || (!asked && !byDefault)) return {};
  const seed = flags.seed === undefined ? randomInt(MAX_SEED) : parseSeed(flags.seed);
  const root = io.root ?? packageRoot();
  // The stage's reference is the file its student writes (src/agent-loop.ts for the loop).
  const files = stageOf(flags.stage ?? '')?.writes ?? [REFERENCE_FILE];
  if (await hasReference(root, files)) return { seed };
  const where = `this copy of theinference (${root}) has no reference solution (${files.join(', ')}), which the variants' expected results come from: the package students install leaves it out`;
  if (!asked && io.env.THEINFERENCE_VARIANTS !== 'on')
    return { note: `no variants: ${where}. The course's grading job runs them from the course repository.` };
  const by = asked ? (flags.seed === undefined ? '--variants' : '--seed') : 'THEINFERENCE_VARIANTS=on';
  throw new HarnessError(
    'NO_REFERENCE',
    `${by} asks for variants, and ${where}. Run the grader from a checkout of the course repository (\`npm ci\` there, then \`npx theinference test … --dir <submission>\`), or drop ${by}.`,
  );
}

function parseSeed(text: string): number {
  const n = Number(text);
  if (/^\d+$/.test(text.trim()) && n <= MAX_SEED) return n;
  throw new HarnessError(
    'BAD_FLAG',
    `--seed '${text}' is not a seed: give the whole number a report printed (0 to ${MAX_SEED}), e.g. --seed 41730.`,
  );
}
