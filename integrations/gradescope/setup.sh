#!/usr/bin/env bash
# Gradescope's setup.sh for a theinference course: bubblewrap (the sandbox) and Node.js 20.6 or later, then the course
# repository's own dependencies, exactly as its lock file says. The course repository is the autograder zip's content,
# in /autograder/source; run_autograder grades each upload with it.
#
# Base image: Gradescope's Ubuntu 22.04 or 24.04 base image (choose it in the autograder's settings). Their own
# Node.js packages are 12 and 18, older than theinference runs on, so Node.js 22 comes from NodeSource's apt
# repository (the one nodejs.org points to for Debian and Ubuntu), its signing key checked by apt.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
NODE_MAJOR=22

node_is_recent() {
  command -v node >/dev/null &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 6) ? 0 : 1)'
}

apt-get update -qq
apt-get install -y -qq --no-install-recommends ca-certificates curl gnupg bubblewrap
if ! node_is_recent; then
  install -d -m 0755 /etc/apt/keyrings
  curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor --yes -o /etc/apt/keyrings/nodesource.gpg
  echo "deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_${NODE_MAJOR}.x nodistro main" \
    >/etc/apt/sources.list.d/nodesource.list
  apt-get update -qq
  apt-get install -y -qq nodejs
fi
if ! node_is_recent; then
  echo "theinference needs Node.js 20.6 or later, and this image has $(node --version 2>/dev/null || echo none)." >&2
  echo "Choose Gradescope's Ubuntu 22.04 or 24.04 base image in the autograder's settings, and build it again." >&2
  exit 1
fi
cd "${AUTOGRADER_ROOT:-/autograder}/source"
npm ci --no-audit --no-fund
