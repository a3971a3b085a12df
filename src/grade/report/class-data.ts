// A class's graded results as a file (`test --class-data`), and the shards' files as one class again
// (`theinference merge`): a class graded over a CI matrix reads as one, its page and summary the same as one run's.
// The file holds every submission's whole report, the stage, the shard it was and the variants' seed; the merge
// refuses files that are not one class's shards, each once, saying which. Pure.
import { safeJson } from './safe-json.ts';
import { HarnessError } from '../../errors.ts';
import type { ClassReport, SubmissionResult } from '../types.ts';
import type { ReportFiles } from './class-summary.ts';

// What marks the file as this, and its layout's version (a later grader refuses a layout it does not know).
const FORMAT = 'theinference class data';
const VERSION = 1;

// Which shard of how many, as --shard gives it (src/grade/select-cases.ts `Shard`, the room above this one).
type Shard = { index: number; total: number };

export type ClassData = {
  format: typeof FORMAT;
  version: typeof VERSION;
  stage: string;
  // Which shard of how many (null: the whole class in one run), and how many submissions the whole class has.
  shard: Shard | null;
  classSize: number;
  durationMs: number;
  seed: number | null;
  warnings: string[];
  // Each submission's report file as the shard wrote it, by name.
  reports: Record<string, string>;
  submissions: SubmissionResult[];
};

// The file a class run writes: its report, which shard it was, the class's size, and its report files.
export function renderClassData(
  report: ClassReport,
  run: { shard: Shard | undefined; classSize: number; files: ReportFiles },
): string {
  const data: ClassData = {
    format: FORMAT,
    version: VERSION,
    stage: report.stage,
    shard: run.shard ?? null,
    classSize: run.classSize,
    durationMs: report.durationMs,
    seed: report.variants?.seed ?? null,
    warnings: report.warnings ?? [],
    reports: Object.fromEntries(run.files),
    submissions: report.submissions,
  };
  return `${safeJson(data)}\n`;
}

// A file's text as class data, or a HarnessError naming the file and what it holds instead.
export function parseClassData(text: string, file: string): ClassData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad(file, 'is not JSON');
  }
  const data = value as Partial<ClassData> | null;
  if (data === null || typeof data !== 'object' || data.format !== FORMAT) throw bad(file, 'is not class data');
  if (data.version !== VERSION) {
    throw bad(
      file,
      `is class data of layout ${String(data.version)}, which this grader (layout ${VERSION}) cannot read`,
    );
  }
  const shape =
    typeof data.stage === 'string' &&
    (data.shard === null || (typeof data.shard?.index === 'number' && typeof data.shard.total === 'number')) &&
    typeof data.classSize === 'number' &&
    typeof data.durationMs === 'number' &&
    (data.seed === null || typeof data.seed === 'number') &&
    Array.isArray(data.warnings) &&
    typeof data.reports === 'object' &&
    data.reports !== null &&
    Array.isArray(data.submissions) &&
    data.submissions.every((s) => typeof s?.name === 'string' && typeof s.report === 'object' && s.report !== null);
  if (!shape) throw bad(file, 'is class data with a field missing or of the wrong type (was it edited?)');
  return data as ClassData;
}

// The shards' data as one class: the stage, the seed and the shard count must agree, every shard 1…n be there
// once, and no submission be graded twice. The duration is the longest shard's (they ran side by side); the
// warnings each once; the submissions in name order, as one run gives them.
export function mergeClassData(parts: { file: string; data: ClassData }[]): {
  report: ClassReport;
  files: Map<string, string>;
} {
  const [first, ...rest] = parts;
  if (first === undefined) throw new HarnessError('BAD_CLASS_DATA', 'merge needs the class data of every shard.');
  for (const { file, data } of rest) {
    for (const [what, mine, theirs] of [
      ['stage', data.stage, first.data.stage],
      ['variants seed', data.seed ?? 'none', first.data.seed ?? 'none'],
      ['class size', data.classSize, first.data.classSize],
    ] as const) {
      if (mine !== theirs) {
        throw new HarnessError(
          'BAD_CLASS_DATA',
          `${file} has ${what} ${mine}, ${first.file} has ${theirs}: merge the shards of one class run, each graded with the same --stage, --dir and --seed.`,
        );
      }
    }
  }
  checkShards(parts);
  const seen = new Map<string, string>();
  for (const { file, data } of parts) {
    for (const s of data.submissions) {
      const other = seen.get(s.name);
      if (other !== undefined) {
        throw new HarnessError(
          'BAD_CLASS_DATA',
          `the submission ${JSON.stringify(s.name)} is in ${other} and in ${file}: give each shard's file once.`,
        );
      }
      seen.set(s.name, file);
    }
  }
  const submissions = parts.flatMap((p) => p.data.submissions).sort((a, b) => byName(a.name, b.name));
  if (submissions.length !== first.data.classSize) {
    throw new HarnessError(
      'BAD_CLASS_DATA',
      `the files hold ${submissions.length} submissions of a class of ${first.data.classSize}: give the class data of every shard.`,
    );
  }
  const warnings = [...new Set(parts.flatMap((p) => p.data.warnings))];
  const seed = first.data.seed;
  return {
    report: {
      stage: first.data.stage,
      submissions,
      durationMs: Math.max(...parts.map((p) => p.data.durationMs)),
      ...(seed === null ? {} : { variants: { seed } }),
      ...(warnings.length === 0 ? {} : { warnings }),
    },
    files: new Map(parts.flatMap((p) => Object.entries(p.data.reports))),
  };
}

// The order a class run gives its submissions (src/grade/run-class.ts).
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// One whole run, or shards 1…n of one n, each once.
function checkShards(parts: { file: string; data: ClassData }[]): void {
  const whole = parts.filter((p) => p.data.shard === null);
  if (whole.length > 0 && parts.length > 1) {
    throw new HarnessError(
      'BAD_CLASS_DATA',
      `${whole[0]!.file} is a whole class's run, not a shard: merge it alone, or merge only the files of --shard runs.`,
    );
  }
  if (whole.length > 0) return;
  const total = parts[0]!.data.shard!.total;
  const byIndex = new Map<number, string>();
  for (const { file, data } of parts) {
    const shard = data.shard!;
    if (shard.total !== total) {
      throw new HarnessError(
        'BAD_CLASS_DATA',
        `${file} is shard ${shard.index}/${shard.total}, ${parts[0]!.file} one of ${total}: merge the shards of one run.`,
      );
    }
    const other = byIndex.get(shard.index);
    if (other !== undefined) {
      throw new HarnessError(
        'BAD_CLASS_DATA',
        `${other} and ${file} are both shard ${shard.index}/${total}: give each shard's file once.`,
      );
    }
    byIndex.set(shard.index, file);
  }
  const missing = Array.from({ length: total }, (_, k) => k + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new HarnessError(
      'BAD_CLASS_DATA',
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: give the class data of every shard (a shard with no submission writes one too).`,
    );
  }
}

function bad(file: string, what: string): HarnessError {
  return new HarnessError(
    'BAD_CLASS_DATA',
    `${file} ${what}: give the files that \`theinference test --dir … --shard i/n --class-data <file>\` wrote.`,
  );
}
