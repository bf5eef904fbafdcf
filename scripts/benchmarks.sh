#!/bin/sh
# benchmarks.sh regenerates BENCHMARKS.md from the packages' BENCHMARKS.part.md
# files (each package records its latest figures with their commands there).
# A part whose first heading is "# " has every heading demoted one level.
set -eu
cd "$(dirname "$0")/.."
out=BENCHMARKS.md
{
	cat <<'HEAD'
# Benchmarks

Latest figures, each with the command that produced it, run on the project's 2-core
machine (linux/amd64, Go 1.26.8). Other builds often shared the machine, so most sections
report the CPU time of the benchmark's own thread next to wall-clock rates, and say what
the load was. Every benchmark runs its baseline (hand-written code, the naive engine, or
the peer tool) in the same run. Regenerate this file with `sh scripts/benchmarks.sh`.
HEAD
	for pkg in monitor monitor/rv ltl automaton annotate explore symbolic synth split report internal/fds; do
		part=$pkg/BENCHMARKS.part.md
		[ -f "$part" ] || continue
		echo
		if head -1 "$part" | grep -q '^# '; then
			sed 's/^#/##/' "$part"
		else
			cat "$part"
		fi
	done
} >"$out"
