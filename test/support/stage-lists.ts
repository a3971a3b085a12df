// What the CLI says of the course's stages, as tests expect it: made from the table of stages (src/course/stages.ts),
// so that a stage added there changes no test's expectation.
import { STAGES } from '../../src/course/stages.ts';

// The slugs, as error messages list them: "agent-loop, register-tools".
export const KNOWN_STAGES = STAGES.map((s) => s.slug).join(', ');

// `Known stages: …` of an unknown stage's error, whole.
export function unknownStage(slug: string): string {
  return `error: unknown stage '${slug}'. Known stages: ${KNOWN_STAGES}. Run \`npx theinference stages\` to list them with their cases.\n`;
}

// `text` as a regular expression matches it, character for character.
export const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The lines `theinference stages` prints, one per stage in course order: its place, slug, title and case count.
export const STAGE_LINES = STAGES.map((s, k) => `${k + 1} {2}${literally(s.slug)} +${literally(s.title)} +\\d+ cases?`);
