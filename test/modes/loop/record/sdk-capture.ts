// A real live capture for the loop recorder's tests: the official Anthropic SDK agent (test/fixtures/live/sdk-agent/)
// through the live proxy (recordLiveSession) against the scripted model of test/record/live/sdk-session.ts, five
// turns, streamed and not in turn, with parallel calls. What the agent saw is in `rig.logDir`.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { recordLiveSession } from '../../../../src/record/live/record-live-session.ts';
import { startFakeUpstream } from '../../../record/live/fake-upstream.ts';
import { agentCommand, makeSdkRig, type SdkRig } from '../../../record/live/sdk-session.ts';

// Records the session under `root` and keeps its capture there as `capture.jsonl`.
export async function captureSdkSession(root: string): Promise<{ capture: string; rig: SdkRig }> {
  const rig = await makeSdkRig(root);
  const upstream = await startFakeUpstream(rig.model.handle);
  try {
    const { command, env } = agentCommand(rig);
    const session = await recordLiveSession({
      workspace: rig.workspace,
      upstream: upstream.url,
      command,
      env,
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      log: () => {},
    });
    try {
      if (session.agent.exitCode !== 0) throw new Error(`the SDK agent ended ${JSON.stringify(session.agent)}`);
      const capture = join(root, 'capture.jsonl');
      await cp(session.capture, capture);
      return { capture, rig };
    } finally {
      await session.remove();
    }
  } finally {
    await upstream.close();
  }
}
