// Privacy: every kind of secret and every trace of the recording machine removed, and counted.
import { describe, expect, it } from 'vitest';
import { identityIn, leaks, makeRedactor } from '../../../src/record/map/redact.ts';

const FAKE_GITHUB = `ghp_${'a1B2'.repeat(9)}`;
const KEY_BLOCK = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';

describe('makeRedactor', () => {
  const sources = { users: ['ada'], homes: ['/home/ada'], patterns: [/ACME-\d+/] };

  it.each([
    ['Anthropic key', 'key=sk-ant-api03-abcdefghijklmnopqrstuvwx', 'key=<redacted:anthropic-key>'],
    ['OpenAI key', 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz', 'OPENAI_API_KEY=<redacted:openai-key>'],
    ['GitHub token', `token ${FAKE_GITHUB}`, 'token <redacted:github-token>'],
    ['AWS key', 'AKIAIOSFODNN7EXAMPLE', '<redacted:aws-key>'],
    [
      'AWS key',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_secret_access_key = <redacted:aws-secret>',
    ],
    ['Slack token', 'xoxb-123456789012-abcdefghij', '<redacted:slack-token>'],
    ['bearer token', 'Authorization: Bearer abc.def.ghijklmnopqrstuv', 'Authorization: Bearer <redacted:bearer-token>'],
    ['private key', `x\n${KEY_BLOCK}\ny`, 'x\n<redacted:private-key>\ny'],
    [
      'e-mail address',
      'Co-Authored-By: Ada <ada.lovelace@analytical.co.uk>',
      'Co-Authored-By: user <user@example.com>',
    ],
    ['home directory', 'ls /home/ada/other && cat /home/ada', 'ls /home/user/other && cat /home/user'],
    ['user name', 'Owner: Ada Lovelace; -home-ada-proj', 'Owner: user Lovelace; -home-user-proj'],
    ['--redact ACME-\\d+', 'ticket ACME-1234', 'ticket <redacted>'],
  ])('%s: %j -> %j', (kind, text, expected) => {
    const redactor = makeRedactor(sources);
    expect(redactor.text(text)).toBe(expected);
    expect(redactor.counts[kind]).toBeGreaterThanOrEqual(1);
  });

  it('leaves alone what identifies nobody: example addresses, words containing the user name, generic users', () => {
    const redactor = makeRedactor({ users: ['ada', 'root'], homes: ['/home/ada'], patterns: [] });
    const text = 'user@example.com test@example.org canada adam root.html /home/adam';
    expect(redactor.text(text)).toBe(text);
    expect(redactor.counts).toEqual({});
  });

  it('removes nothing where a --redact pattern matches empty text, and counts only what it removed', () => {
    const redactor = makeRedactor({ users: [], homes: [], patterns: [/x*/] });
    expect(redactor.text('command: a xx b')).toBe('command: a <redacted> b');
    expect(redactor.counts).toEqual({ '--redact x*': 1 });
  });

  it('counts every occurrence', () => {
    const redactor = makeRedactor(sources);
    redactor.text('/home/ada/a /home/ada/b');
    redactor.text('x@y.io and z@w.io');
    expect(redactor.counts).toEqual({ 'home directory': 2, 'e-mail address': 2 });
  });
});

describe('identityIn', () => {
  it.each([
    ['/home/ada/proj', { home: '/home/ada', user: 'ada' }],
    ['/Users/ada/code/x', { home: '/Users/ada', user: 'ada' }],
    ['/root/proj', { home: '/root' }],
    ['/tmp/tmpabc', {}],
    [undefined, {}],
  ])('%s -> %j', (path, expected) => {
    expect(identityIn(path)).toEqual(expected);
  });
});

describe('leaks', () => {
  it('finds what redaction would have removed, and nothing in redacted text', () => {
    const sources = { users: ['ada'], homes: ['/home/ada'] };
    expect(leaks('cd /home/ada/x; mail ada@site.org; ADA', sources)).toEqual([
      '/home/ada',
      'ada',
      'e-mail address: ada@site.org',
    ]);
    const redactor = makeRedactor({ ...sources, patterns: [] });
    expect(leaks(redactor.text(`cd /home/ada/x; mail ada@site.org; ADA; ${FAKE_GITHUB}`), sources)).toEqual([]);
  });
});
