// What every course directory graded in one command shares: the stage's selected cases, their validation and
// snapshots (read once, started when first needed), and their variants with the reference's results for them (made
// once: every submission of a class is graded on the same variants).
import { loadJudging, planCases, type Judging, type PlannedCase } from './case-plan.ts';
import type { Shard } from './select-cases.ts';
import { planVariants, type VariantPlan } from './variants/plan-variants.ts';

export type StagePlan = {
  root: string;
  stage: string;
  selected: PlannedCase[];
  // Validates every case file and reads the selected cases' snapshots, once however often it is asked.
  judging: () => Promise<Judging>;
  variants?: VariantPlan;
  // Stops what the plan started (the reference) and removes its files; resolves to its warnings.
  close: () => Promise<string[]>;
};

// What to plan: the package root, the stage, --case and --shard, and for variants the seed and how the reference's
// processes run.
type StageRequest = {
  root: string;
  stage: string;
  cases: string[];
  shard?: Shard;
  variants?: { seed: number; env: NodeJS.ProcessEnv; sandbox: boolean };
};

// Plans the stage: a HarnessError for a --case that matches nothing (validation errors come from `judging`).
export async function planStage(request: StageRequest): Promise<StagePlan> {
  const selected = await planCases(request.root, request.stage, request.cases, request.shard);
  let judging: Promise<Judging> | undefined;
  const v = request.variants;
  const variants =
    v === undefined
      ? undefined
      : await planVariants({
          root: request.root,
          stage: request.stage,
          cases: selected.filter((c) => c.snapshotted),
          seed: v.seed,
          env: v.env,
          sandbox: v.sandbox,
        });
  return {
    root: request.root,
    stage: request.stage,
    selected,
    judging: () => {
      judging ??= loadJudging(request.root, request.stage, selected);
      return judging;
    },
    ...(variants === undefined ? {} : { variants }),
    close: async () => {
      const removed = await variants?.close();
      return removed === undefined ? [] : [removed];
    },
  };
}
