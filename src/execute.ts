import type { Execute } from './contract.ts';
import type { Tools } from './tools/index.ts';

export type { Execute } from './contract.ts';

// Routes each tool name (Anthropic's client-tool name and its text-editor alias) to a Tools method,
// translating the model's snake_case input keys into the method's arguments.
export function makeExecute(tools: Tools): Execute {
  return async (name, input: any) => {
    // A switch compares names exactly: `read`, `toString` and `__proto__` fall through to the default,
    // which a lookup in a plain object would not do.
    switch (name) {
      case 'Read':
      case 'view':
        return tools.view(input.path, input.view_range);
      case 'Write':
      case 'create':
        return tools.create(input.path, input.file_text);
      case 'Edit':
      case 'str_replace':
        return tools.strReplace(input.path, input.old_str, input.new_str);
      case 'insert':
        // Current models send `insert_text`; Anthropic's reference names it `new_str`.
        return tools.insert(input.path, input.insert_line, input.insert_text ?? input.new_str);
      case 'Glob':
      case 'glob':
        return tools.glob(input.pattern, input.path);
      case 'Grep':
      case 'grep':
        return tools.grep(input.pattern, input.path, input.glob);
      case 'Bash':
      case 'bash':
        return tools.bash(input.command, input.timeout);
      case 'echo':
        return { content: input.text };
      default:
        return { content: `unknown tool: ${name}`, is_error: true };
    }
  };
}
