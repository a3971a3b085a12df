// What every tool returns. A failure is data (`is_error: true`), never a throw:
// the agent loop feeds it back to the model as a tool_result.
export type ToolOutput = {
  content: string;
  is_error?: boolean;
  exit_code?: number;
};
