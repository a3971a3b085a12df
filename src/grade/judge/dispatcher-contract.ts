// The dispatcher contract of docs/tools.md, as the hints read it: which names reach which Tools method, the input
// keys each method reads, and how a right call to it reads.

// One Tools method: the names it answers to, the input keys it reads (first argument first), the call that reads
// them in order, and the section of docs/tools.md that words its results.
export type MethodContract = { names: string[]; keys: string[]; call: string; section: string };

// Every method, by its name on `Tools`.
export const METHODS: Record<string, MethodContract> = {
  view: {
    names: ['Read', 'view'],
    keys: ['path', 'view_range'],
    call: 'tools.view(input.path, input.view_range)',
    section: 'view(path, viewRange?)',
  },
  create: {
    names: ['Write', 'create'],
    keys: ['path', 'file_text'],
    call: 'tools.create(input.path, input.file_text)',
    section: 'create(path, fileText)',
  },
  strReplace: {
    names: ['Edit', 'str_replace'],
    keys: ['path', 'old_str', 'new_str'],
    call: 'tools.strReplace(input.path, input.old_str, input.new_str)',
    section: 'strReplace(path, oldStr, newStr?)',
  },
  insert: {
    names: ['insert'],
    keys: ['path', 'insert_line', 'insert_text', 'new_str'],
    call: 'tools.insert(input.path, input.insert_line, input.insert_text ?? input.new_str)',
    section: 'insert(path, insertLine, text)',
  },
  glob: {
    names: ['Glob', 'glob'],
    keys: ['pattern', 'path'],
    call: 'tools.glob(input.pattern, input.path)',
    section: 'glob(pattern, path?)',
  },
  grep: {
    names: ['Grep', 'grep'],
    keys: ['pattern', 'path', 'glob'],
    call: 'tools.grep(input.pattern, input.path, input.glob)',
    section: 'grep(pattern, path?, glob?)',
  },
  bash: {
    names: ['Bash', 'bash'],
    keys: ['command', 'timeout'],
    call: 'tools.bash(input.command, input.timeout)',
    section: 'bash(command, timeoutMs?)',
  },
};

// Every tool name the dispatcher routes.
export const KNOWN_NAMES = [...Object.values(METHODS).flatMap((m) => m.names), 'echo'];

// The method a tool name reaches, or undefined for echo and unknown names.
export function methodOf(name: string): string | undefined {
  return Object.keys(METHODS).find((m) => METHODS[m]?.names.includes(name));
}

// The dispatcher's branch a name takes: its method's (both aliases share one), or the name itself.
export function branchOf(name: string): string {
  const method = methodOf(name);
  return method === undefined ? `the branch of ${JSON.stringify(name)}` : `tools.${method}'s branch`;
}
