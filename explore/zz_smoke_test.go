package explore

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestSmokeOtherPackages(t *testing.T) {
	pkg := os.Getenv("SMOKE")
	if pkg == "" {
		t.Skip()
	}
	reports, err := Run(context.Background(), Config{
		LoadConfig: LoadConfig{Dir: "..", Patterns: []string{pkg}},
		Options:    Options{Strategy: DFS, MaxExecutions: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range reports {
		v := r.Verdict()
		counts[v]++
		for _, f := range r.Findings {
			msg := f.Message
			if i := strings.Index(msg, "\n"); i > 0 {
				if os.Getenv("FULL") == "" { msg = msg[:i] }
			}
			t.Logf("%s: %s: %s %s", r.Entry[strings.LastIndex(r.Entry, ".")+1:], f.Kind, f.Pos, msg)
			break
		}
	}
	t.Logf("%v", counts)
}
