#!/usr/bin/env bash
# Gradescope's setup.sh for a theinference course: bubblewrap (the sandbox) and Node.js 20.6 or later, then the course
# repository's own dependencies, exactly as its lock file says. The course repository is the autograder zip's content,
# in /autograder/source; run_autograder grades each upload with it.
set -euo pipefail
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates bubblewrap nodejs npm
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 6) ? 0 : 1)'; then
  echo "theinference needs Node.js 20.6 or later, and this image's is $(node --version): install a newer one here" >&2
  echo "(a Node.js 20 or 22 package for this Ubuntu release), then run this script again." >&2
  exit 1
fi
cd /autograder/source
npm ci --no-audit --no-fund
