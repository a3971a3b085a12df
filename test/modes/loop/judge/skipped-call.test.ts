// A call refused because an earlier tool_use still waits for its own: named as that tool_use answered without
// execute only when the loop already sent its result, and not with the scripted execute's own refusal.
import { expect, test } from 'vitest';
import { skippedCallHint } from '../../../../src/modes/loop/judge/skipped-call.ts';

const refusal =
  'theinference\'s scripted execute: execute("Read", {"path":"a.txt"}) is tool_use toolu_2\'s call, made before tool_use toolu_1\'s, execute("ReadFile", {"file":"a.txt"})';
const result = (id: string, content: string) => ({ type: 'tool_result', tool_use_id: id, content, is_error: true });

test('a tool_use answered in an earlier message, execute still waiting for it: answered without execute', () => {
  const found = skippedCallHint(result('toolu_2', refusal), [result('toolu_1', 'unknown tool: ReadFile')]);
  expect(found?.text).toMatch(
    /^tool_use toolu_1 got a tool_result in an earlier message, yet execute was never called for it as execute\("ReadFile", \{"file":"a\.txt"\}\): your loop answered it itself/,
  );
  expect(found?.cause).toBe('a tool_use answered without execute');
});

test.each<[string, Record<string, unknown>[]]>([
  // Calls run last to first: the earlier tool_use is answered after, in the same message.
  ['its result not sent before (calls run out of order)', []],
  ['another tool_use answered before', [result('toolu_0', 'unknown tool: ReadFile')]],
  // Execute called for it with other arguments: a call was made, and refused.
  ['its result the scripted refusal of a call made for it', [result('toolu_1', refusal.replace('toolu_2', 'toolu_9'))]],
])('%s: no such claim', (_, earlier) => {
  expect(skippedCallHint(result('toolu_2', refusal), earlier)).toBeUndefined();
});
