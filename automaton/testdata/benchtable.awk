# Turns the output of BenchmarkFamilies into the markdown table of
# BENCHMARKS.part.md: one row per family and n.
#   go test -run '^$' -bench BenchmarkFamilies -benchtime 1x -timeout 0 ./automaton/ | awk -f automaton/testdata/benchtable.awk
/^BenchmarkFamilies\// {
	split($1, a, "/"); fam = a[2]; n = a[3]; sub(/-[0-9]+$/, "", n); sub(/^n=/, "", n)
	delete m
	for (i = 3; i < NF; i += 2) m[$(i + 1)] = $i
	key = fam "/" n; order[++rows] = key
	f[key] = fam; nn[key] = n
	st[key] = m["states"]; t[key] = m["ns/op"] / 1e9
	tr[key] = ("transitions" in m) ? sprintf("%.0f", m["transitions"]) : "—"
	if ("mona-states" in m) {
		ms[key] = m["mona-states"]; me[key] = m["mona-expected"]; mt[key] = m["mona-s"]; sp[key] = m["speedup"]
	}
	next
}
/^--- BENCH: BenchmarkFamilies\// { split($3, a, "/"); cur = a[2] "/" substr(a[3], 3); sub(/-[0-9]+$/, "", cur); next }
/MONA timed out/ { timeout[cur] = 1 }
END {
	print "| family | n | states | transitions | build | MONA states (expected) | MONA time | MONA / ours |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|"
	for (r = 1; r <= rows; r++) {
		k = order[r]
		mona = "—"; mtime = "—"; ratio = "—"
		if (k in ms) {
			mona = sprintf("%.0f (%.0f)", ms[k], me[k]) (ms[k] == me[k] ? "" : " **MISMATCH**")
			mtime = secs(mt[k]); ratio = sprintf("%.0f×", sp[k])
		} else if (k in timeout) {
			mtime = "> 60 s (timeout)"
		}
		printf "| %s | %s | %.0f | %s | %s | %s | %s | %s |\n", f[k], nn[k], st[k], tr[k], secs(t[k]), mona, mtime, ratio
	}
}

function secs(x) { return x < 1 ? sprintf("%.2f ms", x * 1000) : sprintf("%.2f s", x) }
