// The loop judge as another loop-kind mode reuses it (`loopJudge`, src/modes/loop/judge.ts): its messages and hints
// name the loop as the case's stage row does (loop-words.ts), and the keys a mode adds to a run's end are compared
// once the loop itself agrees, by the mode's own comparison or key by key. Without options it is the loop mode's.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../../src/course/stages.ts';
import { judge, loopJudge } from '../../../../src/modes/loop/judge.ts';
import { loopWords } from '../../../../src/modes/loop/judge/loop-words.ts';
import { assistant1, assistant2, loopCase, request, results1 } from './loop-fixture.ts';

const prompt = loopCase.data.request.messages;
const conversation = [...prompt, assistant1, results1, assistant2];
const run = (end: Record<string, unknown>) => [
  request(prompt),
  request([...prompt, assistant1, results1]),
  { returned: conversation, ...end },
];

describe('loopWords', () => {
  it("says each stage's loop as its row does: its export, its first file, its page and title", () => {
    for (const stage of STAGES) {
      expect(loopWords(stage.slug)).toEqual({
        entry: stage.entry,
        file: stage.writes[0],
        page: `node_modules/theinference/${stage.doc}`,
        title: stage.title,
      });
    }
  });

  it("says a stage the course does not list as the loop mode's first stage", () => {
    const first = STAGES.find((s) => s.mode === 'loop')!;
    expect(loopWords('no-such-stage')).toEqual(loopWords(first.slug));
  });
});

describe('loopJudge', () => {
  it("names the case's stage's function, not runLoop", () => {
    const other = STAGES.find((s) => s.entry !== 'runLoop')!;
    const threw = [request(prompt), { threw: 'Error: boom' }];
    const failure = judge.compare({ ...loopCase, stage: other.slug }, run({}), threw);
    expect(failure?.message).toMatch(new RegExp(`^${other.entry} threw \\("Error: boom"\\) after 1 request of 2`));
    expect(judge.compare(loopCase, run({}), threw)?.message).toMatch(
      /^runLoop threw \("Error: boom"\) after 1 request of 2/,
    );
  });

  it('compares the keys a mode adds to the end once the loop agrees, key by key when it has no comparison', () => {
    const judged = loopJudge({ endKeys: ['transcript'] });
    expect(judged.compare(loopCase, run({ transcript: 'a' }), run({ transcript: 'a' }))).toBeUndefined();
    expect(judged.compare(loopCase, run({ transcript: 'a' }), run({ transcript: 'b' }))).toMatchObject({
      kind: 'mismatch',
      message: expect.stringMatching(/^the run's transcript differs/),
      expected: 'a',
      received: 'b',
    });
    // The loop's own difference comes first.
    const cut = [request(prompt), { returned: prompt, transcript: 'b' }];
    expect(judged.compare(loopCase, run({ transcript: 'a' }), cut)?.message).toMatch(/^runLoop returned after 1/);
  });

  it("gives the added keys to the mode's own comparison", () => {
    const judged = loopJudge({
      endKeys: ['transcript'],
      compareEnd: (_c, e, r) =>
        e.transcript === r.transcript ? undefined : { kind: 'mismatch', message: 'the transcript file differs' },
    });
    expect(judged.compare(loopCase, run({ transcript: 'a' }), run({ transcript: 'b' }))?.message).toBe(
      'the transcript file differs',
    );
  });

  it("is the loop mode's judge without options", () => {
    const threw = [request(prompt), { threw: 'Error: boom' }];
    expect(loopJudge().compare(loopCase, run({}), threw)).toEqual(judge.compare(loopCase, run({}), threw));
  });
});
