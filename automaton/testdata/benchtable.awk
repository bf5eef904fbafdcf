# Turns the output of BenchmarkFamilies into the markdown table of
# BENCHMARKS.part.md: one row per family and n.
#   go test -run '^$' -bench BenchmarkFamilies -benchtime 1x -timeout 0 ./automaton/ | awk -f automaton/testdata/benchtable.awk
# The Lydia column is not measured by the benchmark: it holds the reference
# wall times of Lydia (whitemech/lydia f036d62) measured on this machine
# on 2026-11-26, for the rows where they exist.
BEGIN {
	split("conj_F/13=0.02 conj_F/15=0.09 conj_F/17=0.57 conj_F/18=1.82 conj_F/19=4.52 " \
		"resp/11=0.01 resp/12=0.02 resp/13=0.04 resp/14=0.11 resp/15=0.31 resp/16=0.63 " \
		"until_chain/12=0.18 until_chain/14=1.47 until_chain/16=9.03 until_chain/17=28.3 until_chain/18=>30 " \
		"nested_X/13=0.10 nested_X/15=0.51 nested_X/17=4.77 nested_X/19=25.0 nested_X/20=>30", refs, " ")
	for (i in refs) { split(refs[i], kv, "="); lydia[kv[1]] = kv[2] }
}
/^BenchmarkFamilies\// {
	split($1, a, "/"); fam = a[2]; n = a[3]; sub(/-[0-9]+$/, "", n); sub(/^n=/, "", n)
	delete m
	for (i = 3; i < NF; i += 2) m[$(i + 1)] = $i
	key = fam "/" n; order[++rows] = key
	f[key] = fam; nn[key] = n
	st[key] = m["states"]; t[key] = m["ns/op"] / 1e9; cpu[key] = m["cpu-s"]
	tr[key] = ("transitions" in m) ? sprintf("%.0f", m["transitions"]) : "—"
	if ("mona-states" in m) {
		ms[key] = m["mona-states"]; me[key] = m["mona-expected"]; mt[key] = m["mona-s"]; mc[key] = m["mona-cpu-s"]
	}
	next
}
/^--- BENCH: BenchmarkFamilies\// { split($3, a, "/"); cur = a[2] "/" substr(a[3], 3); sub(/-[0-9]+$/, "", cur); next }
/MONA timed out/ { timeout[cur] = 1 }
END {
	print "| family | n | states | transitions | build (wall) | build (CPU) | MONA states (expected) | MONA wall | MONA CPU | MONA CPU / ours | Lydia (reference) |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (r = 1; r <= rows; r++) {
		k = order[r]
		mona = "—"; mtime = "—"; mcpu = "—"; ratio = "—"
		if (k in ms) {
			mona = sprintf("%.0f (%.0f)", ms[k], me[k]) (ms[k] == me[k] ? "" : " **MISMATCH**")
			mtime = secs(mt[k]); mcpu = secs(mc[k]); ratio = (cpu[k] > 0) ? sprintf("%.0f×", mc[k] / cpu[k]) : "—"
		} else if (k in timeout) {
			mtime = "timeout"
		}
		ly = (k in lydia) ? lydia[k] " s" : "—"
		printf "| %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s |\n", f[k], nn[k], st[k], tr[k], secs(t[k]), secs(cpu[k]), mona, mtime, mcpu, ratio, ly
	}
}

function secs(x) { return x < 1 ? sprintf("%.2f ms", x * 1000) : sprintf("%.2f s", x) }
