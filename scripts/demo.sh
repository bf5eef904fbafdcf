#!/bin/sh
# make demo: build the ltl CLI and check two properties of a recorded server
# trace (examples/demo/server.jsonl): one holds, one is violated and explained.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/ltl" ./cmd/ltl

show() {
	echo "\$ ltl $*"
	status=0
	"$bin/ltl" "$@" || status=$?
	echo "(exit status $status)"
	echo
	[ "$status" -le 1 ] || exit "$status"
}

echo "== The trace: a server that takes a lock around writes and answers requests."
cat examples/demo/server.jsonl
echo
echo "== Every request is eventually answered (future time):"
show check -f 'G(request -> F response)' examples/demo/server.jsonl
echo "== Every write happens while the lock is held (past time: the lock was acquired and not released since):"
show check -f 'G(write -> (!release S acquire))' examples/demo/server.jsonl
