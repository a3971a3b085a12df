// What the importers look for, in the words of the message a course author sees when a file is none of it.
export const LOOKED_FOR =
  'Claude Code session JSONL or stream-json (lines with "type" and "sessionId"), a Codex CLI rollout ' +
  '(lines with "type": "session_meta"/"response_item" and a "payload"), a Gemini CLI session ("sessionId", ' +
  '"projectHash", "messages" with "toolCalls"), a pi session file ("type": "session" with "cwd", "message" ' +
  'entries), an Anthropic Messages request body, ' +
  'messages array or response with tool_use/tool_result blocks, an Anthropic SSE stream (message_start … message_stop), ' +
  'OpenAI Chat Completions messages with tool_calls or role "tool", OpenAI Responses function_call/function_call_output items, ' +
  'or Vercel AI SDK messages with tool-call/tool-result or tool-* parts';
