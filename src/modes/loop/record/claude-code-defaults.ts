// What a loop case recorded from a Claude Code session takes where the session's JSONL holds nothing: the request's
// system prompt and max_tokens, and each tool's definition (Claude Code sends them with every request; its JSONL
// keeps only the turns and the tool results). docs/recording.md ("Loop cases") lists them.
import type { ApiObject } from '../case.ts';

// Claude Code's own first line, standing in for its whole system prompt.
export const CLAUDE_CODE_SYSTEM = "You are Claude Code, Anthropic's official CLI for Claude.";

// Claude Code's output limit for its main model.
export const CLAUDE_CODE_MAX_TOKENS = 32_000;

type Properties = Record<string, { type: string; description: string; items?: object }>;
const text = (description: string) => ({ type: 'string', description });
const number = (description: string) => ({ type: 'number', description });
const tool = (name: string, description: string, properties: Properties, required: string[]): ApiObject => ({
  name,
  description,
  input_schema: { type: 'object', properties, required },
});

// Claude Code's tools as its documentation describes them, by name.
const TOOLS: Record<string, ApiObject> = {
  Read: tool(
    'Read',
    'Reads a file from the local filesystem.',
    {
      file_path: text('The absolute path to the file to read'),
      offset: number('The line number to start reading from'),
      limit: number('The number of lines to read'),
    },
    ['file_path'],
  ),
  Write: tool(
    'Write',
    'Writes a file to the local filesystem.',
    { file_path: text('The absolute path to the file to write'), content: text('The content to write to the file') },
    ['file_path', 'content'],
  ),
  Edit: tool(
    'Edit',
    'Performs exact string replacements in files.',
    {
      file_path: text('The absolute path to the file to modify'),
      old_string: text('The text to replace'),
      new_string: text('The text to replace it with'),
      replace_all: { type: 'boolean', description: 'Replace all occurrences of old_string' },
    },
    ['file_path', 'old_string', 'new_string'],
  ),
  Bash: tool(
    'Bash',
    'Executes a given bash command.',
    {
      command: text('The command to execute'),
      description: text('A short description of what the command does'),
      timeout: number('Optional timeout in milliseconds'),
      run_in_background: { type: 'boolean', description: 'Run the command in the background' },
    },
    ['command'],
  ),
  Glob: tool(
    'Glob',
    'Fast file pattern matching.',
    { pattern: text('The glob pattern to match files against'), path: text('The directory to search in') },
    ['pattern'],
  ),
  Grep: tool(
    'Grep',
    'A powerful search tool built on ripgrep.',
    {
      pattern: text('The regular expression pattern to search for'),
      path: text('File or directory to search in'),
      glob: text('Glob pattern to filter files'),
      output_mode: text('content, files_with_matches or count'),
    },
    ['pattern'],
  ),
  TodoWrite: tool(
    'TodoWrite',
    'Creates and manages a structured task list for the session.',
    { todos: { type: 'array', description: 'The updated todo list', items: { type: 'object' } } },
    ['todos'],
  ),
  Task: tool(
    'Task',
    'Launches a new agent to handle a task.',
    {
      description: text('A short description of the task'),
      prompt: text('The task for the agent to perform'),
      subagent_type: text('The type of agent'),
    },
    ['description', 'prompt'],
  ),
  WebFetch: tool(
    'WebFetch',
    'Fetches content from a URL and processes it with a prompt.',
    { url: text('The URL to fetch content from'), prompt: text('What to extract from the page') },
    ['url', 'prompt'],
  ),
  WebSearch: tool('WebSearch', 'Searches the web.', { query: text('The search query to use') }, ['query']),
};

// The definitions of the tools a session called, in the order it first called them; a tool Claude Code's
// documentation does not describe (an MCP server's) takes an open object schema.
export function claudeCodeTools(names: string[]): ApiObject[] {
  return [...new Set(names)].map(
    (name) =>
      (Object.hasOwn(TOOLS, name) ? TOOLS[name]! : undefined) ??
      tool(name, `${name} (a tool of this session; its definition is not recorded)`, {}, []),
  );
}
