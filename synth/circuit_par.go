package synth

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// workers returns the number of goroutines that determinize jobs
// independent jobs, at most one per job: WithParallelism's n, or by
// default runtime.GOMAXPROCS(0) if more Spaces pay (spacesPay), and 1
// otherwise.
func (c *Controller) workers(jobs int) int {
	w := c.g.parallel
	if w <= 0 {
		w = 1
		if c.spacesPay() {
			w = runtime.GOMAXPROCS(0)
		}
	}
	return max(1, min(w, jobs))
}

// spacesPay reports whether determinization may use BDD Spaces besides
// the controller's (workers, detInputs): without a memory bound (one Space
// keeps the bound for the whole determinization; each other Space would
// have a bound of its own), once the controller's Space has made at least
// parallelMinProduced nodes.
func (c *Controller) spacesPay() bool {
	return c.g.maxBytes == 0 && c.g.sp.Stats().Produced >= parallelMinProduced
}

// parallelMinProduced is the work of realizability and extraction (BDD
// nodes made) below which determinization stays on one goroutine by
// default: a sibling Space costs 3–6 ms to make, fill and read back, more
// than the whole determinization of small specs (tens of µs for the
// circuit tests' specs, which made 150–7,000 nodes), and on AMBA n = 2
// (141 K nodes, 30 ms) two workers gained nothing, while from n = 3
// (624 K nodes) on they do (synth's BENCHMARKS.part.md).
const parallelMinProduced = 1 << 18

// goalInputs are the BDDs determinization reads, all of one Space: ρe ∧
// ρs, the winning region, the guarantees and assumptions, the fixpoint's
// νX pieces of every goal (memory.x), which goalFunctions' jobs read, and
// the initial states, θe and ρe, which the circuit's first step and its
// legal inputs read.
type goalInputs struct {
	sp                 *fds.Space
	tr, win            fds.BDD
	sysJ, envJ         []fds.BDD
	x                  [][][]fds.BDD
	init, thetaE, rhoE fds.BDD
}

// flat returns in's BDDs in one list, in the order copyTo reads them back.
func (in *goalInputs) flat() []fds.BDD {
	fs := append([]fds.BDD{in.tr, in.win, in.init, in.thetaE, in.rhoE}, in.sysJ...)
	fs = append(fs, in.envJ...)
	for _, xj := range in.x {
		for _, xr := range xj {
			fs = append(fs, xr...)
		}
	}
	return fs
}

// copyTo returns in's BDDs copied into sp (with one walk and one build,
// so the copies share their nodes as the originals do).
func (in *goalInputs) copyTo(sp *fds.Space) (*goalInputs, error) {
	fs, err := sp.Copy(in.flat()...)
	if err != nil {
		return nil, err
	}
	out := &goalInputs{sp: sp, tr: fs[0], win: fs[1], init: fs[2], thetaE: fs[3], rhoE: fs[4]}
	fs = fs[5:]
	out.sysJ, fs = fs[:len(in.sysJ)], fs[len(in.sysJ):]
	out.envJ, fs = fs[:len(in.envJ)], fs[len(in.envJ):]
	out.x = make([][][]fds.BDD, len(in.x))
	for j, xj := range in.x {
		out.x[j] = make([][]fds.BDD, len(xj))
		for r, xr := range xj {
			out.x[j][r], fs = fs[:len(xr)], fs[len(xr):]
		}
	}
	return out, nil
}

// job computes goalFunctions' job k in in's Space: the switch-goal
// functions for k = 0, goal k-1's step functions otherwise.
func (in *goalInputs) job(ctx context.Context, k int, sysLevels []int) ([]fds.BDD, error) {
	if k == 0 {
		return switchFunctions(ctx, in.sp, in.win, in.sysJ, in.tr, sysLevels)
	}
	j := k - 1
	return goalStepFunctions(ctx, in.sp, in.x[j], in.envJ, in.tr, in.sysJ[j], sysLevels)
}

// goalFunctionsParallel computes goalFunctions' switch-goal functions and
// every goal's step functions on workers goroutines: the caller's, which
// works in home's Space, and workers-1 others, each in a sibling of it
// (fds.Space.Sibling: same variables, node limit and order) into which the
// caller first copies home. The goroutines take the jobs (the switch
// relation, then the goals in order) as they become free; after all have
// stopped, the caller copies the functions computed in siblings back. The
// functions are canonical BDDs in the one variable order, so they are the
// same whichever goroutine computed them.
//
// Each Space is used by one goroutine at a time: home's by the caller, a
// sibling by the caller only before its goroutine starts and after it has
// stopped. The first error (the context, a node limit in any Space) stops
// every goroutine and is returned. During the call home's Space is bound
// to a context derived from ctx, which a sibling's failure cancels; it is
// bound to ctx again before returning.
func (c *Controller) goalFunctionsParallel(ctx context.Context, workers int, home *goalInputs, sysLevels []int) (switchFns []fds.BDD, goalFns [][]fds.BDD, err error) {
	sp := home.sp
	jobs := len(home.sysJ) + 1
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()

	away := make([]*goalInputs, workers-1)
	for w := range away {
		sib, err := sp.Sibling(pctx)
		if err != nil {
			return nil, nil, fmt.Errorf("synth: determinization worker: %w", err)
		}
		if away[w], err = home.copyTo(sib); err != nil {
			return nil, nil, err
		}
	}

	results := make([][]fds.BDD, jobs) // job k's functions, in its worker's Space
	owner := make([]int, jobs)         // job k's worker: -1 for the caller, else an index of away
	var next atomic.Int32
	var once sync.Once
	var first error
	run := func(w int, in *goalInputs) {
		for pctx.Err() == nil {
			k := int(next.Add(1)) - 1
			if k >= jobs {
				return
			}
			fns, err := in.job(pctx, k, sysLevels)
			if err == nil {
				err = in.sp.Err()
			}
			if err != nil {
				once.Do(func() { first = err; cancel() })
				return
			}
			results[k], owner[k] = fns, w
		}
	}
	sp.SetContext(pctx)
	var wg sync.WaitGroup
	for w, in := range away {
		wg.Go(func() { run(w, in) })
	}
	run(-1, home)
	wg.Wait()
	sp.SetContext(ctx)
	if first != nil {
		return nil, nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}

	// Copy the siblings' functions back, one copy per sibling.
	for w, in := range away {
		var fs []fds.BDD
		for k := range jobs {
			if owner[k] == w {
				fs = append(fs, results[k]...)
			}
		}
		back, err := sp.Copy(fs...)
		if err != nil {
			return nil, nil, err
		}
		for k := range jobs {
			if owner[k] == w {
				results[k], back = back[:len(results[k])], back[len(results[k]):]
			}
		}
		c.siblingMade += in.sp.Stats().Produced
	}
	return results[0], results[1:], nil
}
