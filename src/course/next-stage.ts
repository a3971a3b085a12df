// What a student does once a stage is green, read from the table of stages (never a slug written here): the next
// stage and the one command that adds it, or, after the last stage, that the course is done.
import { STAGES, type Stage } from './stages.ts';

// The stage after `slug` in course order, if any.
export function nextStageOf(slug: string): Stage | undefined {
  const at = STAGES.findIndex((s) => s.slug === slug);
  return at < 0 ? undefined : STAGES[at + 1];
}

// The lines after a green run of `slug`. `reached`: the slugs of the earlier stages the course directory has (its
// `npm test` grades them with --previous after the current one; a course begun at a later stage has not the first
// ones). `everyStage`: the run graded each stage before it too, so a green last stage is a finished course. None
// for a slug the course does not list.
export function nextStepLines(slug: string, reached: readonly string[], everyStage: boolean): string[] {
  const at = STAGES.findIndex((s) => s.slug === slug);
  if (at < 0) return [];
  const next = STAGES[at + 1];
  if (next === undefined) {
    return everyStage
      ? [`${slug} was the last stage, and every stage passes: the course is done.`]
      : [`${slug} was the last stage. \`npm test\` grades it with the earlier stages your course directory has.`];
  }
  const earlier = STAGES.slice(0, at)
    .filter((s) => reached.includes(s.slug))
    .reverse();
  const graded = [next, STAGES[at]!, ...earlier].map((s) => s.slug);
  return [
    `${slug} passes. Next stage: ${next.slug} ("${next.title}"). In your course directory, run:`,
    `  npx theinference init --stage ${next.slug}`,
    '  npm install',
    `Then \`npm test\` grades ${graded.join(', then ')}: an earlier stage counts only while it still passes.`,
  ];
}
