package split

import (
	"context"
	"testing"
	"time"
)

func TestGoTmpTiming(t *testing.T) {
	for _, n := range []int{64} {
		g, err := goSource(t, mutexSrc, "worker", n)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range []string{"runtime", "mutex", `G "count(crit) <= 1"`, "leaves"} {
			if false {
				continue
			}
			start := time.Now()
			prop, err := g.Property(spec)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Check(context.Background(), g.Program, prop, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("n=%d %s: %s refinements=%d exposed=%v in %v", n, spec, res.Verdict, res.Refinements, res.Exposed, time.Since(start))
		}
	}
}
