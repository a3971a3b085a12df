// The privacy part of `theinference snapshot --check`: every recorded case of the stage (one with a `source`), its
// snapshot, pending snapshot and recording, through the privacy gate the recorder writes them through
// (src/record/write/privacy-gate.ts), so that a case edited by hand, recorded by an older recorder or merged from a
// colleague's branch cannot carry a secret or a machine's name into the course unnoticed. Here the gate knows the
// machine running the check (its user, home and host name) and every shape that never is content: keys, tokens,
// JWTs, URL credentials, private keys, real e-mail addresses, a dash-encoded home (`-Users-alice-shop`), a named
// owner in `ls -l` output. It cannot know a machine that recorded elsewhere: a `/home/<name>` the recorder left in
// as content (an example path in a project's comment) stays.
import { hostname, userInfo } from 'node:os';
import { relative } from 'node:path';
import { recordingPath } from '../../course/recording-file.ts';
import { pendingPath, readText, snapshotPath } from '../../course/snapshot-file.ts';
import type { Case } from '../../course/types.ts';
import { identityOfMachine } from '../../record/map/identity.ts';
import { gateFiles, type PrivacyRefusal } from '../../record/write/privacy-gate.ts';

// The recorded cases' files the gate stops, with what it found.
export async function checkPrivacy(root: string, stage: string, cases: Case[]): Promise<PrivacyRefusal[]> {
  const me = userInfo();
  const who = identityOfMachine({ user: me.username, home: me.homedir, host: hostname() });
  const files: { path: string; text: string }[] = [];
  for (const c of cases.filter((k) => k.data.source !== undefined)) {
    for (const path of [
      c.file,
      snapshotPath(root, stage, c.name),
      pendingPath(root, stage, c.name),
      recordingPath(root, stage, c.name),
    ]) {
      const text = await readText(path);
      if (text !== null) files.push({ path: relative(root, path), text });
    }
  }
  return gateFiles(files, who);
}

// The report's lines for them: none when the suite is clean.
export function renderPrivacy(refusals: PrivacyRefusal[]): string {
  if (refusals.length === 0) return '';
  const lines = refusals.map((r) => `  ${r.path}: ${r.found.join(', ')}`);
  return `privacy: ${refusals.length} recorded file${refusals.length === 1 ? '' : 's'} would carry a machine's name or a secret (re-record, or run \`theinference redact\`):\n${lines.join('\n')}\n`;
}
