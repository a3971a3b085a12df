// What a green stage says comes next, read from the table of stages.
import { describe, expect, it } from 'vitest';
import { nextStageOf, nextStepLines } from '../../src/course/next-stage.ts';
import { STAGES } from '../../src/course/stages.ts';

describe('nextStepLines', () => {
  it.each(STAGES.slice(0, -1).map((s, i) => [s.slug, STAGES[i + 1]!.slug]))(
    'after %s, names the command that adds %s and says the course then grades both',
    (slug, next) => {
      const lines = nextStepLines(slug, [], true);
      expect(nextStageOf(slug)?.slug).toBe(next);
      expect(lines).toContain(`  npx theinference init --stage ${next}`);
      expect(lines.at(-1)).toMatch(new RegExp(`^Then \`npm test\` grades ${next}, then ${slug}(,|:)`));
    },
  );

  it('names, after the stage and the next, the earlier stages the course directory has, nearest first', () => {
    const [first, second, third, fourth] = STAGES.map((s) => s.slug);
    expect(nextStepLines(third!, [first!, second!], true).at(-1)).toMatch(
      new RegExp(`^Then \`npm test\` grades ${fourth}, then ${third}, then ${second}, then ${first}:`),
    );
    // A course begun at a later stage: its `npm test` grades only what it has.
    expect(nextStepLines(third!, [], false).at(-1)).toMatch(
      new RegExp(`^Then \`npm test\` grades ${fourth}, then ${third}:`),
    );
    expect(nextStepLines(third!, [first!], false).at(-1)).not.toContain(second!);
  });

  it('after the last stage, says the course is done when every stage was graded', () => {
    const last = STAGES.at(-1)!.slug;
    expect(nextStageOf(last)).toBeUndefined();
    expect(nextStepLines(last, [], true)).toEqual([
      `${last} was the last stage, and every stage passes: the course is done.`,
    ]);
    expect(nextStepLines(last, [], false).join('\n')).not.toContain('done');
  });

  it('says nothing of a stage the course does not list', () => {
    expect(nextStepLines('nope', [], true)).toEqual([]);
  });
});
