// The commands a shell line runs, and those outside the course's portable set.
import { describe, expect, it } from 'vitest';
import { commandNames, foreignCommands, PORTABLE_COMMANDS } from '../../../src/record/map/portable-commands.ts';

describe('commandNames', () => {
  it.each([
    ['curl -s localhost:3000/api | jq .', ['curl', 'jq']],
    ['FOO=1 python3 -c "import os" 2>&1 | head -5', ['python3', 'head']],
    ['find . -name "*.ts" | xargs -n 1 grep -l foo', ['find', 'xargs', 'grep']],
    ['echo "$(git rev-parse HEAD)" `date +%s`', ['echo', 'git', 'date']],
    ['ls; (cd sub && mix test) || true', ['ls', 'cd', 'mix', 'true']],
    ['cd src && ls -la > /tmp/x 2> /dev/null && cat /tmp/x', ['cd', 'ls', 'cat']],
    ['if [ -f a ]; then echo yes; else rg foo; fi', ['if', '[', 'then', 'echo', 'else', 'rg', 'fi']],
    ["cat <<'EOF' > x.sh\n#!/bin/sh\nnode server.js\nEOF\nchmod +x x.sh", ['cat', 'chmod']],
    ['chmod +x <sandbox>/hello.sh && <sandbox>/hello.sh', ['chmod', '/sandbox/hello.sh']],
    ["echo 'npm test; jq .' && printf '%s' \"node x\"", ['echo', 'printf']],
    ['# count the lines\nwc -l a.txt', ['wc']],
    ['# step 1: build; then test\n  # (quietly)\ncat a.txt # trailing; rm -rf x\nls', ['cat', 'ls']],
    ['echo $# ${#x} a#b "# not a comment"', ['echo']],
  ])('%j -> %j', (command, names) => {
    expect(commandNames(command)).toEqual(names);
  });
});

describe('foreignCommands', () => {
  it.each([
    ['cat package.json | jq -r .name', ['jq']],
    ['npm test && git status', ['npm', 'git']],
    ['chmod +x ./run.sh && ./run.sh', []],
    ['for f in *.txt; do wc -l "$f"; done', []],
    ['sed -i s/a/b/ x.txt && sort -u y | uniq -c | head', []],
  ])('%j -> %j', (command, foreign) => {
    expect(foreignCommands(command)).toEqual(foreign);
  });

  it('allows the POSIX utilities and the builtins a case may rely on, not the tools of a developer machine', () => {
    for (const name of ['awk', 'sed', 'grep', 'find', 'xargs', 'cd', 'printf', 'test', '['])
      expect(PORTABLE_COMMANDS.has(name), name).toBe(true);
    for (const name of ['jq', 'git', 'node', 'python3', 'curl', 'rg', 'make', 'tar', 'seq'])
      expect(PORTABLE_COMMANDS.has(name), name).toBe(false);
  });
});
