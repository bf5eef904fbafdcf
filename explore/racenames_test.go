package explore

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestRaceNames: a race report names the memory by the source expression
// of each access (c.m, s.items[i], r.names), not by SSA registers.
func TestRaceNames(t *testing.T) {
	p := loadPatterns(t, "./testdata/racenames")
	for _, tc := range []struct{ fn, message string }{
		{"FieldOfReceiver", "read c.m at racenames.go:8 by goroutine 2 and write c.m at racenames.go:8 by goroutine 1"},
		{"SliceElement", "write s.items[i] at racenames.go:24 by goroutine 2 and write s.items[i] at racenames.go:24 by goroutine 1"},
		{"Map", "read map r.names at racenames.go:40 by goroutine 2 and write map r.names at racenames.go:40 by goroutine 1"},
		{"Captured", "read total at racenames.go:59 by goroutine 2 and write total at racenames.go:62 by goroutine 1"},
		// a package variable is qualified by its package's name
		{"PackageVar", "read racenames.hits at racenames.go:72 by goroutine 2 and write racenames.hits at racenames.go:75 by goroutine 1"},
		// registers before: *t2.m and *t8.m
		{"Nested", "write n.next.m at racenames.go:89 by goroutine 2 and write n.get().m at racenames.go:92 by goroutine 1"},
		// before: *items[i] for both
		{"Elements", "write items[k + 1] at racenames.go:103 by goroutine 2 and read items[2] at racenames.go:106 by goroutine 1"},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			e, err := p.Func(testdataPath + "/racenames." + tc.fn)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{Strategy: DPOR})
			require.NoError(t, err)
			f := findKind(r, KindRace)
			require.NotNil(t, f, "%v", r.Findings)
			assert.Contains(t, f.Message, "data race: "+tc.message+", not ordered by synchronization")
			assert.NotRegexp(t, `\bt[0-9]+\b`, f.Message, "no SSA register")
		})
	}
}

// TestDescribeAddrWithoutSyntax: without the syntax of an access, the
// memory is named by the variables and fields it is reached through, or
// as a field of its type, never by a register.
func TestDescribeAddrWithoutSyntax(t *testing.T) {
	p := loadPatterns(t, "./testdata/racenames")
	bare := &Program{Fset: p.Fset} // no syntax trees
	var got []string
	for fn := range ssautil.AllFunctions(p.SSA) {
		name := fn.Name()
		if fn.Pkg == nil || fn.Pkg.Pkg.Name() != "racenames" || !slices.Contains([]string{"Nested$1", "Nested", "Elements$1"}, name) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				if st, ok := ins.(*ssa.Store); ok {
					got = append(got, name+": "+bare.describeAddr(st.Addr)+" / "+p.describeAddr(st.Addr))
				}
			}
		}
	}
	assert.Contains(t, got, "Nested$1: n.next.m / n.next.m")
	assert.Contains(t, got, "Nested: field m of *racenames.Counter / n.get().m")
	assert.Contains(t, got, "Elements$1: items[i] / items[k + 1]")
	for _, g := range got {
		assert.NotRegexp(t, `\bt[0-9]+\b`, g, "no SSA register")
	}
}
