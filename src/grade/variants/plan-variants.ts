// The variants of a run: made once for its selected cases (whatever the number of submissions), written as case
// files into a temp dir of the grader's own (a program gets its cases on stdin, never this dir), and run through the
// reference in its own sandbox while the submissions' programs run, for the results each variant must give.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modeOf } from '../../course/stages.ts';
import type { Case, CaseData } from '../../course/types.ts';
import { aspectExport, aspectUrl, hasAspect } from '../../modes/mode-table.ts';
import type { PlannedCase } from '../case-plan.ts';
import { removeTree } from '../run/remove-tree.ts';
import { runReference, type ReferenceResult } from '../run-reference.ts';
import type { BatchCase } from '../run/run-batches.ts';

// A mode's variants (src/modes/<mode>/variants.ts, exported as `variants`): the variant of a case file's JSON under
// `seed`, or why it has none.
export type ModeVariants = {
  make: (c: { name: string; data: unknown }, seed: number) => { ok: true; data: CaseData } | { ok: false; why: string };
};

// The suffix that tells a variant's run from its case's in the pool: no case name holds a `/` (it is a file name).
const RUN_SUFFIX = '/variant';

// What a run's variants are: the seed, each variant as a case (by its case's name) and as the pool runs it, the
// cases that have none and why, and the reference's results, which settle once it has run them all.
export type VariantPlan = {
  seed: number;
  cases: Map<string, Case>;
  runs: BatchCase[];
  none: { name: string; why: string }[];
  expected: Promise<Map<string, ReferenceResult>>;
  // Stops the reference if it still runs and removes the temp dir; resolves to a warning when something could
  // not be removed.
  close: () => Promise<string | undefined>;
};

// What making them needs: the package root with the reference, the stage, its selected cases, the seed, and how
// the reference's processes run (the command's environment and --isolation decision).
type VariantRequest = {
  root: string;
  stage: string;
  cases: PlannedCase[];
  seed: number;
  env: NodeJS.ProcessEnv;
  sandbox: boolean;
};

// Makes the variants and starts the reference on them.
export async function planVariants(request: VariantRequest): Promise<VariantPlan> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-variants-'));
  const cases = new Map<string, Case>();
  const none: { name: string; why: string }[] = [];
  const mode = modeOf(request.stage);
  // A mode without variants gives each case none, with the reason.
  const variants = hasAspect(mode, 'variants')
    ? aspectExport<ModeVariants>(await import(aspectUrl(mode, 'variants').href), mode, 'variants', 'variants')
    : { make: () => ({ ok: false as const, why: `its mode (${mode}) has no variants` }) };
  try {
    for (const c of request.cases) {
      const made = variantFromText(c, await readFile(c.file, 'utf8').catch(() => ''), request.seed, variants);
      if (!made.ok) {
        none.push({ name: c.name, why: made.why });
        continue;
      }
      const file = join(dir, `${c.name}.json`);
      await writeFile(file, `${JSON.stringify(made.data)}\n`);
      cases.set(c.name, { stage: request.stage, name: c.name, file, data: made.data });
    }
  } catch (error) {
    await removeTree(dir);
    throw error;
  }
  const stop = new AbortController();
  const expected = runReference({
    root: request.root,
    cases: [...cases.values()],
    env: request.env,
    sandbox: request.sandbox,
    signal: stop.signal,
  }).then((r) => r.results);
  expected.catch(() => {}); // awaited by whoever judges a variant, and by close
  return {
    seed: request.seed,
    cases,
    runs: [...cases.values()].map((c) => ({ name: variantRun(c.name), file: c.file })),
    none,
    expected,
    close: async () => {
      stop.abort();
      await expected.catch(() => undefined);
      return removeTree(dir);
    },
  };
}

// The pool's name for the variant of case `name`.
function variantRun(name: string): string {
  return `${name}${RUN_SUFFIX}`;
}

// The case a pool name is the variant of, or undefined for a case's own run.
export function caseOfRun(name: string): string | undefined {
  return name.endsWith(RUN_SUFFIX) ? name.slice(0, -RUN_SUFFIX.length) : undefined;
}

// The variant of a case file's text, as its mode makes it.
function variantFromText(
  c: PlannedCase,
  text: string,
  seed: number,
  variants: ModeVariants,
): ReturnType<ModeVariants['make']> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, why: 'its file is not JSON' };
  }
  return variants.make({ name: c.name, data }, seed);
}
