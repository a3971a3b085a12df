// What a loop that keeps the contract (docs/stages/agent-loop.md) sends and returns for a script, worked out from
// the script alone: the results program.ts prints for it, every request whole. The probe compares each run of its
// scripts with this; a test holds it equal to the reference runLoop on every script and every case. A script's API
// error leaves the loop as the SDK makes it from the error's status and body (its own APIError.generate). Pure.
import { APIError } from '@anthropic-ai/sdk';
import { describeLoopThrow } from '../loop-throw.ts';
import { type ApiErrorScript, type ApiObject, LOOP_REQUEST_KEYS, type LoopCaseData } from '../case.ts';

export function contractRun(data: LoopCaseData): unknown[] {
  const fields = Object.fromEntries(
    LOOP_REQUEST_KEYS.filter((k) => k !== 'messages' && data.request[k] !== undefined).map((k) => [k, data.request[k]]),
  );
  const messages: ApiObject[] = [...data.request.messages];
  const results: unknown[] = [];
  for (const { message } of data.turns) {
    results.push({ request: { ...fields, messages: structuredClone(messages) } });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') return [...results, { returned: structuredClone(messages) }];
    const uses = message.content.filter((block) => block.type === 'tool_use');
    messages.push({ role: 'user', content: uses.map((block) => toolResult(data, String(block.id))) });
  }
  if (data.api_error === undefined) return [...results, { returned: structuredClone(messages) }];
  results.push({ request: { ...fields, messages: structuredClone(messages) } });
  return [...results, { threw: thrown(data.api_error) }];
}

// What the SDK throws for an API error, as the driver describes a throw.
function thrown({ status, type, message }: ApiErrorScript): string {
  const body = { type: 'error', error: { type, message } };
  return describeLoopThrow(APIError.generate(status, body, undefined, new Headers()));
}

function toolResult(data: LoopCaseData, id: string): ApiObject {
  const output = data.outputs?.[id];
  if (output === undefined) return { type: 'tool_result', tool_use_id: id };
  if ('throws' in output) return { type: 'tool_result', tool_use_id: id, content: output.throws, is_error: true };
  return {
    type: 'tool_result',
    tool_use_id: id,
    content: output.content,
    ...(output.is_error === true ? { is_error: true } : {}),
  };
}
