#!/bin/sh
# The trainer agent's cost to the training loop, this tree beside an earlier commit, alternated (old, new, old, new...)
# so that both see the same machine. Usage: bench/agent-overhead-pair.sh COMMIT [pairs]   (default 3 pairs)
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
commit="$1"
pairs="${2:-3}"
old="$(mktemp -d)"
trap 'rm -rf "$old"' EXIT
git -C "$here" archive "$commit" clients/python | tar -x -C "$old"
py="$here/.venv/bin/python"
i=1
while [ "$i" -le "$pairs" ]; do
    echo "== $commit $i"
    "$py" "$old/clients/python/bench/overhead.py" --runs 5 --calls 200000 --steps 200 --step-ms 50
    echo "== this tree $i"
    "$py" "$here/clients/python/bench/overhead.py" --runs 5 --calls 200000 --steps 200 --step-ms 50
    i=$((i + 1))
done
