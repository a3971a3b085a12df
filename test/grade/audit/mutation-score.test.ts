// The score audit shows beside the kill matrix, read from Stryker's JSON report: detected (killed or timed out) of
// the mutants that ran, and every survivor with where it is; anything that is not such a report is no score.
import { expect, it } from 'vitest';
import { mutationScore, renderMutationScore } from '../../../src/grade/audit/mutation-score.ts';

const mutant = (status: string, line = 1, replacement = 'x') => ({
  id: String(line),
  mutatorName: 'StringLiteral',
  replacement,
  status,
  location: { start: { line, column: 1 }, end: { line, column: 2 } },
});
const report = {
  schemaVersion: '2',
  files: {
    'src/execute.ts': { language: 'typescript', source: '', mutants: [mutant('Killed'), mutant('Timeout', 2)] },
    'src/agent-loop.ts': {
      language: 'typescript',
      source: '',
      mutants: [mutant('Survived', 30, '""'), mutant('CompileError', 4), mutant('Killed', 5)],
    },
  },
};

it('counts detected of the mutants that ran, and lists each survivor', () => {
  expect(mutationScore(JSON.stringify(report))).toEqual({
    detected: 3,
    valid: 4,
    survivors: [{ file: 'src/agent-loop.ts', line: 30, mutator: 'StringLiteral', replacement: '""' }],
  });
});

it('renders the percentage and the survivors', () => {
  const lines = renderMutationScore(mutationScore(JSON.stringify(report))!);
  expect(lines[0]).toMatch(/: 75\.0%, 3 of 4 mutants detected$/);
  expect(lines[1]).toBe('  survived: src/agent-loop.ts:30 StringLiteral → "\\"\\""');
});

it.each(['', 'not json', '[]', '{"files":3}'])('is no score for %j', (text) => {
  expect(mutationScore(text)).toBeUndefined();
});
