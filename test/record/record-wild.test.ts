// The pipeline on sessions as people record them (issue 16): one real-shaped transcript per defect found on
// sessions from the wild, each recorded as `theinference record --dry-run` would (test/record/wild-sessions.ts).
import { describe, expect, it } from 'vitest';
import { PERSISTED_DROP } from '../../src/record/map/map-call.ts';
import { useScratch } from '../grade/course-fixture.ts';
import { recordFixtures } from './wild-sessions.ts';

const scratch = useScratch();
const WIDE = 60_000;

describe('a Grep result that is no listing', () => {
  it(
    "drops Claude Code 2.1's <persisted-output> preview with a reason of its own, and keeps the rest of its window",
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/persisted-grep.jsonl']);
      expect(reports[0]).toMatchObject({ seen: 5, kept: 4, dropped: { [PERSISTED_DROP]: 1 } });
      expect(cases.map((c) => c.data.calls.map((call) => call.tool))).toEqual([['Read', 'Edit', 'Read', 'Grep']]);
      expect(Object.keys(cases[0]?.data.files ?? {})).toEqual(['src/cart.ts']);
    },
    WIDE,
  );
});

describe('a Windows session', () => {
  it(
    'maps drive letters, backslashes, any case and Git Bash paths as POSIX ones, and keeps what reproduces',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/windows-session.jsonl']);
      expect(reports[0]).toMatchObject({
        seen: 11,
        kept: 10,
        dropped: { 'did not reproduce: Bash: different output': 1 },
      });
      const calls = cases[0]?.data.calls ?? [];
      expect(calls.map((c) => c.input.path ?? c.input.command)).toEqual([
        undefined,
        '<sandbox>/src/cart.ts',
        '<sandbox>/src/util/money.ts',
        '<sandbox>/src',
        '<sandbox>/src',
        '<sandbox>/src/cart.ts',
        '<sandbox>/docs/discounts.md',
        'cat src/cart.ts | head -4',
        'ls <sandbox>/src',
        'src/cart.ts',
      ]);
      expect(Object.keys(cases[0]?.data.files ?? {}).sort()).toEqual(['src/cart.ts', 'src/util/money.ts']);
    },
    WIDE,
  );
});
