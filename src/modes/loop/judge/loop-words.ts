// The words a loop judge says a stage's loop in: its export, its file, its page and its title, from the stage's row
// (src/course/stages.ts), so that a loop-kind mode built on this one (src/modes/<mode>/ importing the loop's judge)
// names the student's own function and page, never runLoop's. Pure.
import { firstStageIn, stageOf } from '../../../course/stages.ts';

export type LoopWords = {
  // The function the student writes (`runLoop`), as messages and hints name it.
  entry: string;
  // Its file, from the course directory (`src/agent-loop.ts`).
  file: string;
  // The stage's page where a course directory has it, and its title as the course names it.
  page: string;
  title: string;
};

// The words of stage `slug`; of the loop mode's first stage for a stage the course does not list (a case graded on
// its own, a test's).
export function loopWords(slug: string | undefined): LoopWords {
  const stage = (slug === undefined ? undefined : stageOf(slug)) ?? firstStageIn('loop')!;
  return {
    entry: stage.entry,
    file: stage.writes[0]!,
    page: `node_modules/theinference/${stage.doc}`,
    title: stage.title,
  };
}
