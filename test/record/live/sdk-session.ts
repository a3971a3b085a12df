// The session the end-to-end tests record: the real @anthropic-ai/sdk agent (test/fixtures/live/sdk-agent/agent.ts)
// in a fresh workspace, talking to a scripted model through the live proxy. The script reads like a real session:
// parallel calls in a streamed turn, an Edit by absolute path in a created one, a Bash and a Write in parallel, a Grep.
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scriptedModel, type ScriptedModel, type Turn } from './scripted-model.ts';

export const AGENT = fileURLToPath(new URL('../../fixtures/live/sdk-agent/agent.ts', import.meta.url));
// tsx by URL: the agent runs in its workspace, where `--import tsx` would not resolve.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
export const API_KEY = 'sk-ant-api03-LIVETESTKEY-0123456789abcdefghijklmnopqrstuv';

// The workspace before the agent runs: two sources, a .gitignore and what it ignores, a dependency.
export const WORKSPACE_FILES: Record<string, string> = {
  '.gitignore': 'secret.env\n',
  'greet.ts': 'export const greeting = "hello";\n',
  'src/util.ts': 'export const shout = (s: string) => s.toUpperCase();\n',
  'secret.env': `ANTHROPIC_API_KEY=${API_KEY}\n`,
  'node_modules/dep/index.js': 'module.exports = 1;\n',
};

// The tool calls of the script, in order, as the model sends them (`W` is the workspace's absolute path).
export function sessionScript(request: Record<string, unknown>): Turn[] {
  const W = /Working directory: (\S+)/.exec(String(request.system))?.[1] ?? '/missing';
  const use = (id: string, name: string, input: Record<string, unknown>) => ({
    type: 'tool_use' as const,
    id: `toolu_01${id.padEnd(22, 'x')}`,
    name,
    input,
  });
  return [
    {
      content: [
        { type: 'text', text: 'Let me look around.' },
        use('glob', 'Glob', { pattern: '**/*.ts' }),
        use('read', 'Read', { path: 'greet.ts' }),
      ],
    },
    { content: [use('edit', 'Edit', { path: `${W}/greet.ts`, old_str: 'hello', new_str: 'goodbye' })] },
    {
      content: [
        use('bash', 'Bash', { command: 'cat greet.ts' }),
        use('write', 'Write', { path: 'notes.md', file_text: '# Notes\n\nSaid goodbye.\n' }),
      ],
    },
    { content: [use('grep', 'grep', { pattern: 'goodbye', path: W })] },
    { content: [{ type: 'text', text: 'Done: the greeting now says goodbye.' }] },
  ];
}

// The names of the script's calls, in order.
export const SCRIPT_TOOLS = ['Glob', 'Read', 'Edit', 'Bash', 'Write', 'grep'];

export type SdkRig = { workspace: string; logDir: string; model: ScriptedModel };

// A workspace and log dir under `root`, and the scripted model.
export async function makeSdkRig(root: string): Promise<SdkRig> {
  const workspace = await mkdtemp(join(root, 'workspace-'));
  for (const [path, text] of Object.entries(WORKSPACE_FILES)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  const logDir = await mkdtemp(join(root, 'agent-log-'));
  return { workspace, logDir, model: scriptedModel(sessionScript) };
}

// The agent command and environment for a rig.
export function agentCommand(rig: SdkRig): { command: string[]; env: NodeJS.ProcessEnv } {
  return {
    command: [process.execPath, '--import', TSX, AGENT, 'Change the greeting to goodbye.'],
    env: { ...process.env, ANTHROPIC_API_KEY: API_KEY, AGENT_LOG_DIR: rig.logDir, TMPDIR: tmpdir() },
  };
}

// Each body the SDK client received, in order.
export async function receivedBodies(logDir: string): Promise<string[]> {
  const names = (await readdir(logDir))
    .filter((n) => n.startsWith('body-'))
    .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  return Promise.all(names.map((n) => readFile(join(logDir, n), 'utf8')));
}
