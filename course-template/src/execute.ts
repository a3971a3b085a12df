// Your dispatcher, the one file this stage asks you to write (course page "Register the toolset").
// Grade it with `npm run watch`: every case fails with the message below until makeExecute routes tool names.
import type { Execute, ToolOutput, Tools } from 'theinference';

// Routes each tool name the model sends (and its alias) to a method of `tools`, reading the method's arguments
// off `input`; an unknown name comes back as { content: `unknown tool: ${name}`, is_error: true }.
export function makeExecute(tools: Tools): Execute {
  return async (name: string, input: any): Promise<ToolOutput> => {
    // Replace this with a switch over `name` that calls `tools`.
    return {
      content: `makeExecute is not written yet (src/execute.ts): route ${name} to a tools method, as the course page "Register the toolset" shows`,
      is_error: true,
    };
  };
}
