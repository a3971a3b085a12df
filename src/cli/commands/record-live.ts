// `theinference record --live --stage <slug> [--name] [--dir] [--workspace <dir>] [--upstream <url>] [--port <n>]
// [--keep-transcript <file>] [--max-calls] [--bash] [--redact] [--dry-run] [--force] -- <agent command…>`: runs
// the agent through the live proxy (src/record/live/), then records what it captured exactly as
// `theinference record <capture>` would (the capture's workspace, as it was before the agent started, is the seed).
// Every flag is checked before the agent starts, so a typo never costs a session.
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { requireReference } from '../../course/reference.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { HarnessError } from '../../errors.ts';
import { recordLiveSession, type LiveSession } from '../../record/live/record-live-session.ts';
import { DEFAULT_UPSTREAM, parseUpstream } from '../../record/live/start-proxy.ts';
import { recordCommand } from './record.ts';
import { casesOfSet } from '../../record/write/case-set.ts';
import { badFlag, checkSharedFlags, isDirectory, refuseToolCaseFlags, type RecordFlags } from './record-flags.ts';
import { write, type CommandIo, type Outcome } from './io.ts';

// Records a live session into the course directory; 'misuse' (exit 2) for bad flags, an agent that never started
// or made no request, or a capture with nothing to record (the message says which).
export async function recordLiveCommand(flags: RecordFlags, io: CommandIo): Promise<Outcome> {
  const stage = await requireStage(io.root ?? packageRoot(), flags.stage);
  await refuseToolCaseFlags(flags, stage);
  const live = await checkLiveFlags(flags, io);
  await requireReference(io.root ?? packageRoot(), 'record --live', stage.writes);
  const say = (line: string): Promise<void> => write(io.stderr, `[theinference] ${line}\n`);
  const session = await recordLiveSession({
    workspace: live.workspace,
    upstream: live.upstream,
    ...(live.port === undefined ? {} : { port: live.port }),
    command: flags.operands,
    env: io.env,
    // The CLI hands over process.stdin/stdout/stderr, which the agent then gets as they are (the terminal).
    stdin: io.stdin as Readable,
    stdout: io.stdout as Writable,
    stderr: io.stderr as Writable,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    log: (line) => void say(line),
  });
  try {
    await say(ending(session));
    if (session.agent.failed !== undefined)
      throw new HarnessError('BAD_FLAG', `${session.agent.failed}; nothing was recorded`);
    // Nothing to record, and no capture kept: it would hold no exchange to read back.
    if (session.exchanges === 0) throw new HarnessError('NO_CASES', noExchange(session.agent));
    const transcript = live.keep === undefined ? session.capture : await keep(session.capture, live.keep);
    if (live.keep !== undefined)
      await say(`the captured session is in ${live.keep} (\`theinference record ${live.keep}\` reads it back)`);
    // The capture holds the workspace as it was before the agent started: the importer hands it on as the seeds'
    // --files-from, so a kept capture read back later gives the same cases.
    const { workspace: _w, upstream: _u, port: _p, keepTranscript: _k, live: _l, ...record } = flags;
    // The interrupt that ended the agent must not also cancel the recording of what it did.
    const { signal: _s, ...calm } = io;
    // The sandbox decision stands as made before the agent ran: decided again, `auto` would warn twice.
    return await recordCommand(
      { ...record, isolation: live.sandbox ? 'required' : 'off', operands: [transcript] },
      calm,
    );
  } finally {
    await session.remove();
  }
}

// `sandbox`: the --isolation decision, made (and warned about) once, before the agent starts.
type LiveFlags = { workspace: string; upstream: string; port?: number; keep?: string; sandbox: boolean };

// What the session's end means for the recording, in one line.
function ending(session: LiveSession): string {
  const { agent } = session;
  const how =
    agent.failed !== undefined
      ? agent.failed
      : agent.interrupted === true
        ? `the agent was interrupted${agent.signal === undefined ? '' : ` (stopped with ${agent.signal})`}`
        : agent.exitCode !== undefined
          ? `the agent exited with code ${agent.exitCode}`
          : `the agent was killed by ${agent.signal}`;
  const omitted =
    session.snapshot.omitted.length === 0
      ? ''
      : `; ${session.snapshot.omitted.length} workspace files left out of the seed (${session.snapshot.omitted[0]?.path}: ${session.snapshot.omitted[0]?.reason}${session.snapshot.omitted.length > 1 ? ', …' : ''})`;
  return `${how}; ${session.exchanges} exchange${session.exchanges === 1 ? '' : 's'} captured${agent.failed === undefined && session.exchanges > 0 ? ', recording them' : ''}${omitted}`;
}

// Why a session that made no request has nothing to record: an agent that failed before its first request (its
// own output says why), or one that never talks to the proxy.
function noExchange(agent: LiveSession['agent']): string {
  if (agent.interrupted !== true && (agent.exitCode ?? 0) === 0 && agent.signal === undefined) {
    return 'the agent sent no request through the proxy, so there is nothing to record: it must read ANTHROPIC_BASE_URL (Claude Code and the Anthropic SDKs do) or OPENAI_BASE_URL, and not be given another base URL';
  }
  const ended =
    agent.interrupted === true
      ? 'was interrupted'
      : agent.exitCode !== undefined
        ? `exited with code ${agent.exitCode}`
        : `was killed by ${agent.signal}`;
  return `the agent ${ended} before it sent any request through the proxy, so there is nothing to record (its own output above says why it stopped)`;
}

// Every flag checked before the agent starts, each error saying how to fix it. `theinference record` checks the
// shared ones again after the session; checking them here first means a typo never costs a session, nor does a
// --name whose cases exist (without --force they would be refused once the session is over).
async function checkLiveFlags(flags: RecordFlags, io: CommandIo): Promise<LiveFlags> {
  if (flags.operands.length === 0)
    badFlag(`give the agent command after --, e.g. theinference record --live --stage ${flags.stage} -- claude`);
  if (flags.filesFrom !== undefined)
    badFlag('--files-from is not for --live: the workspace as it is before the agent starts is the seed (--workspace)');
  if (flags.format !== undefined) badFlag('--format is not for --live: the captured session has a format of its own');
  const { dir, sandbox } = await checkSharedFlags(flags, io);
  if (flags.name !== undefined && flags.force !== true && flags.dryRun !== true) {
    const taken = (await casesOfSet(dir, flags.stage, flags.name)).map((n) => `${n}.json`);
    if (taken.length > 0)
      badFlag(
        `--name ${flags.name}: cases/${flags.stage}/${taken.join(', ')} exist${taken.length === 1 ? 's' : ''}; choose another --name, or add --force to replace what the session records`,
      );
  }
  const workspace = resolve(io.cwd, flags.workspace ?? '.');
  if (!(await isDirectory(workspace)))
    badFlag(`--workspace ${flags.workspace}: no such directory; give the directory the agent works in`);
  const upstream = flags.upstream ?? DEFAULT_UPSTREAM;
  parseUpstream(upstream);
  const port = flags.port === undefined ? undefined : Number(flags.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
    badFlag(`--port takes a port number from 1 to 65535, or leave it out for a free one; got '${flags.port}'`);
  const keep = flags.keepTranscript === undefined ? undefined : resolve(io.cwd, flags.keepTranscript);
  if (keep !== undefined) {
    if (!(await isDirectory(dirname(keep))))
      badFlag(`--keep-transcript ${flags.keepTranscript}: its directory does not exist`);
    if ((await stat(keep).catch(() => undefined)) !== undefined && flags.force !== true) {
      badFlag(`--keep-transcript ${flags.keepTranscript} exists: choose another file, or add --force to replace it`);
    }
  }
  return {
    workspace,
    upstream,
    sandbox,
    ...(port === undefined ? {} : { port }),
    ...(keep === undefined ? {} : { keep }),
  };
}

// Copies the capture to `target` whole or not at all (a temp file beside it, then a rename).
async function keep(capture: string, target: string): Promise<string> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    await copyFile(capture, temp);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return target;
}
