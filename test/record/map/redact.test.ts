// Privacy: every kind of secret and every trace of the recording machine removed, and counted; what only looks
// like one left as it was.
import { describe, expect, it } from 'vitest';
import { homeSpellings, identityIn, leaks, makeRedactor, redact } from '../../../src/record/map/redact.ts';

const FAKE_GITHUB = `ghp_${'a1B2'.repeat(9)}`;
const KEY_BLOCK = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
// A JWT as a service hands one out: header {"alg":"HS256","typ":"JWT"}, a payload, a signature.
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('redact', () => {
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
    ['JWT', `TOKEN=${JWT}\nGH=${FAKE_GITHUB}`, 'TOKEN=<redacted:jwt>\nGH=<redacted:github-token>'],
    ['JWT', `{"id_token": "${JWT}"}`, '{"id_token": "<redacted:jwt>"}'],
    ['bearer token', 'Authorization: Bearer 8f3kQ2x9Lm4vT7pZ1wYc', 'Authorization: Bearer <redacted:bearer-token>'],
    ['private key', `x\n${KEY_BLOCK}\ny`, 'x\n<redacted:private-key>\ny'],
    [
      'URL credentials',
      'DATABASE_URL=postgresql://shop:s3cr3t-pw@db.internal:5432/shop',
      'DATABASE_URL=postgresql://<redacted:credentials>@db.internal:5432/shop',
    ],
    [
      'URL credentials',
      'git clone https://ada:ghx_notAKnownShape123@github.com/org/repo.git',
      'git clone https://<redacted:credentials>@github.com/org/repo.git',
    ],
    ['e-mail address', 'Co-Authored-By: Ada <ada.lovelace@analytical.co.uk>', 'Co-Authored-By: Ada <user@example.com>'],
    ['home directory', 'ls /home/ada/other && cat /home/ada', 'ls /home/user/other && cat /home/user'],
    [
      'home directory',
      'tail /tmp/claude-1000/-home-ada-proj-x/tasks/b7.output',
      'tail /tmp/claude-1000/-home-user-proj-x/tasks/b7.output',
    ],
    ['home directory', '{"cwd":"\\/home\\/ada\\/proj"}', '{"cwd":"\\/home\\/user\\/proj"}'],
    ['home directory', 'file=%2Fhome%2Fada%2Fproj%2Fa.ts', 'file=%2Fhome%2Fuser%2Fproj%2Fa.ts'],
    ['user name', 'ada@laptop:~/proj$ ls', 'user@laptop:~/proj$ ls'],
    ['user name', 'cat ~ada/.profile; USER=ada', 'cat ~user/.profile; USER=user'],
    ['--redact ACME-\\d+', 'ticket ACME-1234', 'ticket <redacted>'],
  ])('%s: %j -> %j', (kind, text, expected) => {
    const redactor = makeRedactor(sources);
    expect(redactor.text(text)).toBe(expected);
    expect(redactor.counts[kind]).toBeGreaterThanOrEqual(1);
    // The same as a pure function of the text and the sources.
    expect(redact(text, sources).text).toBe(expected);
  });

  it.each([
    ['an exempt domain in any case', 'user@example.com == USER@EXAMPLE.COM; x@Test.Example.org'],
    ['a git remote', 'git remote add origin git@github.com:org/repo.git; ssh -T git@github.com'],
    ['a no-reply sender', 'Co-Authored-By: Claude <noreply@anthropic.com>'],
    ['a bearer scheme in prose', 'the Bearer scheme; Authorization: Bearer scheme'],
    ['bearer placeholders', 'Bearer <token>, Bearer $TOKEN, Bearer ${API_TOKEN}, Bearer YOUR_JWT_TOKEN'],
    ['a placeholder token', 'Authorization: Bearer your-access-token-here'],
    ['the user name as a word (a branch, a name)', 'git checkout ada/ent-221-fix; Owner: Ada Lovelace; adam'],
    ['words containing the user name', 'canada adam /home/adam root.html'],
    ['a URL without credentials', 'https://github.com/org/repo and http://localhost:3000/a@b'],
  ])('leaves %s alone', (_, text) => {
    const redactor = makeRedactor({ users: ['ada', 'root'], homes: ['/home/ada'], patterns: [] });
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

describe('a Windows home directory', () => {
  const sources = { users: ['alex'], homes: ['C:\\Users\\alex'], patterns: [] };
  it.each([
    ['type C:\\Users\\alex\\notes.txt', 'type C:\\Users\\user\\notes.txt'],
    ['cat c:/users/ALEX/notes.txt', 'cat C:/Users/user/notes.txt'],
    ['ls /c/Users/alex/Downloads', 'ls /c/Users/user/Downloads'],
    ['{"path":"C:\\\\Users\\\\alex\\\\x"}', '{"path":"C:\\\\Users\\\\user\\\\x"}'],
    [
      'C:\\Users\\alex\\.claude\\projects\\C--Users-alex-shop\\a.md',
      'C:\\Users\\user\\.claude\\projects\\C--Users-user-shop\\a.md',
    ],
  ])('%j -> %j', (text, expected) => {
    expect(redact(text, sources).text).toBe(expected);
  });

  it('is spelled in every encoding', () => {
    expect(homeSpellings('C:\\Users\\alex').map(([from]) => from)).toEqual([
      'C:\\Users\\alex',
      'C:/Users/alex',
      '/c/Users/alex',
      'C:\\\\Users\\\\alex',
      'C%3A%5CUsers%5Calex',
      'C%3A%2FUsers%2Falex',
      'C--Users-alex',
    ]);
  });
});

describe('identityIn', () => {
  it.each([
    ['/home/ada/proj', { home: '/home/ada', user: 'ada' }],
    ['/Users/ada/code/x', { home: '/Users/ada', user: 'ada' }],
    ['/root/proj', { home: '/root' }],
    ['C:\\Users\\alex\\shop', { home: 'C:\\Users\\alex', user: 'alex' }],
    ['c:/users/alex', { home: 'c:/users/alex', user: 'alex' }],
    ['D:\\work', {}],
    ['/tmp/tmpabc', {}],
    [undefined, {}],
  ])('%s -> %j', (path, expected) => {
    expect(identityIn(path)).toEqual(expected);
  });
});

describe('leaks', () => {
  const sources = { users: ['ada'], homes: ['/home/ada'] };

  it('finds what redaction would have removed, in every encoding, and nothing in redacted text', () => {
    expect(leaks(`cd /home/ada/x; mail ada@site.org; ada@laptop:~$; ${JWT}`, sources)).toEqual([
      '/home/ada',
      'ada',
      'JWT: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ',
      'e-mail address: ada@site.org',
    ]);
    expect(leaks('ls /tmp/claude-1000/-home-ada-proj/tasks', sources)).toEqual([
      '/home/ada',
      'home directory: -home-ada',
    ]);
    expect(leaks('postgresql://u:p@db/x', sources)).toEqual(['URL credentials: postgresql://u:p@']);
    const text = `cd /home/ada/x; mail ada@site.org; ada@laptop:~$; ${FAKE_GITHUB}; ${JWT}; https://u:p@h/x`;
    expect(leaks(redact(text, { ...sources, patterns: [] }).text, sources)).toEqual([]);
  });

  it('counts no placeholder, git remote or bare word as a leak', () => {
    expect(leaks('Bearer YOUR_JWT_TOKEN git@github.com:org/r.git ada/branch', sources)).toEqual([]);
  });
});

describe('the machine in every form it takes (issue 27)', () => {
  const sources = { users: ['ada'], homes: ['/home/ada'], hosts: ['ada-mbp.lan'], patterns: [] };

  it('makes the owner and group of `ls -l` lines `user`, whoever they are, and leaves generic accounts', () => {
    const listing = [
      'total 16',
      'drwxr-xr-x   5 ada      staff   160 Mar  3 10:00 .',
      '-rw-r--r--@  1 marco    marco   120 Mar  3 10:00 a.txt',
      '-rw-r--r-- 1 root root 7 Mar  3 10:00 b.txt',
      'lrwxr-xr-x 1 ada wheel 12 Mar  3 10:00 c -> a.txt',
    ].join('\n');
    expect(redact(listing, sources).text).toBe(
      [
        'total 16',
        'drwxr-xr-x   5 user      staff   160 Mar  3 10:00 .',
        '-rw-r--r--@  1 user    user   120 Mar  3 10:00 a.txt',
        '-rw-r--r-- 1 root root 7 Mar  3 10:00 b.txt',
        'lrwxr-xr-x 1 user wheel 12 Mar  3 10:00 c -> a.txt',
      ].join('\n'),
    );
    expect(redact(listing, sources).counts).toEqual({ 'file owner': 3 });
    expect(leaks(listing, sources)).toEqual(['file owner: ada']);
    expect(leaks(redact(listing, sources).text, sources)).toEqual([]);
  });

  it("redacts a prompt's user right after a colour escape, raw or made visible", () => {
    expect(redact('\u001b[01;32mada@box:~$ ls\n␛[2Jada@box', sources).text).toBe(
      '\u001b[01;32muser@box:~$ ls\n␛[2Juser@box',
    );
  });

  it('redacts a host name as a whole name, and a dash-encoded home no source named', () => {
    expect(redact('ssh ada-mbp.lan; ping ada-mbp.local; ada-mbps', sources).text).toBe('ssh host; ping host; ada-mbps');
    expect(redact('cat ~/.claude/projects/-Users-zoe-shop/x.jsonl', sources).text).toBe(
      'cat ~/.claude/projects/-home-user-shop/x.jsonl',
    );
    expect(redact('"-home-user-shop" --home-dir -Users-', sources).counts).toEqual({});
  });

  it("keeps the made-up addresses of a project's own tests, and redacts people's", () => {
    const text = 'test@test.com user@domain.org user.name+tag@sub.domain.com john.doe@gmail.com foo@bar.com';
    expect(redact(text, sources).text).toBe(text);
    expect(redact('ada.lovelace@gmail.com john@corp.io', sources).text).toBe('user@example.com user@example.com');
  });
});
