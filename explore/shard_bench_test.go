package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"
)

// shardProcessEnv, when set in a test binary's environment to
// "FUNC SHARED I/N", makes TestShardProcess explore FUNC (of the benchmark
// programs; SHARED "shared" for Options.Shared) as shard I/N and print its
// report's counts as JSON: BenchmarkShards runs shards as processes.
const shardProcessEnv = "EXPLORE_SHARD_PROCESS"

// shardCounts is what a shard process prints.
type shardCounts struct {
	Executions, Skipped, Pruned, Classes, Probes int
	Complete                                     bool
	Load                                         float64 // seconds loading the program
	Seconds                                      float64 // seconds exploring
	CPU                                          float64 // the process's user and system time, loading included (measured by the parent)
}

func TestShardProcess(t *testing.T) {
	spec := os.Getenv(shardProcessEnv)
	if spec == "" {
		t.Skip("runs as a shard process of BenchmarkShards")
	}
	var fn, mode, sh string
	if _, err := fmt.Sscan(spec, &fn, &mode, &sh); err != nil {
		t.Fatalf("%s=%q: %v", shardProcessEnv, spec, err)
	}
	shard, err := ParseShard(sh)
	if err != nil {
		t.Fatal(err)
	}
	// only the package of the entry, as ltl explore -shard loads the
	// package under test
	t0 := time.Now()
	p, err := Load(context.Background(), LoadConfig{Patterns: []string{"./testdata/bench"}, NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(t0).Seconds()
	e, err := p.Func(fn)
	if err != nil {
		t.Fatal(err)
	}
	t0 = time.Now()
	r, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, Shared: mode == "shared", Shard: shard, MaxMemory: -1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(shardCounts{r.Executions, r.Skipped, r.Pruned, r.Classes, r.Probes, r.Complete, load, time.Since(t0).Seconds(), 0})
	fmt.Printf("SHARD %s\n", b)
}

// runShardProcesses runs shards 1..n of fn as n processes, at most par
// at a time, and returns their counts and the wall time.
func runShardProcesses(b *testing.B, fn string, shared bool, n, par int) ([]shardCounts, time.Duration) {
	mode := "plain"
	if shared {
		mode = "shared"
	}
	out := make([]shardCounts, n)
	sem := make(chan bool, par)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	t0 := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- true
			defer func() { <-sem }()
			cmd := exec.Command(os.Args[0], "-test.run=^TestShardProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), shardProcessEnv+"="+fn+" "+mode+" "+strconv.Itoa(i+1)+"/"+strconv.Itoa(n), "GOMAXPROCS=1")
			res, err := cmd.Output()
			var c shardCounts
			if err == nil {
				var line []byte
				for _, l := range splitLines(res) {
					if len(l) > 6 && string(l[:6]) == "SHARD " {
						line = l[6:]
					}
				}
				err = json.Unmarshal(line, &c)
				c.CPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("shard %d/%d: %v\n%s", i+1, n, err, res)
			}
			out[i] = c
		}()
	}
	wg.Wait()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	return out, time.Since(t0)
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, b[start:i])
			start = i + 1
		}
	}
	return append(out, b[start:])
}

// BenchmarkShards runs DPOR explorations (the dining philosophers: N = 5
// with Options.Shared, 3600 classes; N = 5 and N = 6 without) whole and
// in 2, 4 and 8 shards,
// each shard a process of this test binary (GOMAXPROCS=1). Metrics per
// shard count: the largest shard's executions over the mean (balance,
// target ≤ 2), the shards' executions over the whole run's (overhead:
// complete executions are the classes, so 1; the skipped and the
// sleep-set-pruned ones and the probes of the shard plan are reported
// apart, as ratios to the whole run's executions; s*-overhead counts
// every execution run, skipped and pruned ones and probes as whole ones),
// and the speedup of the wall time of 2 shard processes
// running at once over that of 1 process running the whole (target ≥ 1.8
// on 2 free cores), and its stand-in on a shared machine: the whole
// run's CPU time over the largest shard's, each shard run alone.
func BenchmarkShards(b *testing.B) {
	for _, k := range []struct {
		name, fn string
		shared   bool
	}{
		{"philosophers-5-shared", benchPath + ".Philosophers5", true},
		{"philosophers-5", benchPath + ".Philosophers5", false},
		{"philosophers-6", benchPath + ".Philosophers6", false},
	} {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				whole, tWhole := runShardProcesses(b, k.fn, k.shared, 1, 1)
				b.ReportMetric(float64(whole[0].Executions), "whole-execs")
				b.ReportMetric(float64(whole[0].Pruned), "whole-pruned")
				b.ReportMetric(whole[0].Load, "whole-load-s")
				b.ReportMetric(whole[0].Seconds, "whole-explore-s")
				b.ReportMetric(whole[0].CPU, "whole-cpu-s")
				for _, n := range []int{2, 4, 8} {
					// one at a time, so that each process's CPU time is
					// measured as the whole run's was (processes running
					// at once on a loaded machine inflate each other's)
					cs, _ := runShardProcesses(b, k.fn, k.shared, n, 1)
					sum, most, skipped, pruned, probes := 0, 0, 0, 0, 0
					mostCPU, mostWork := 0.0, 0
					for _, c := range cs {
						mostCPU = max(mostCPU, c.CPU)
						mostWork = max(mostWork, c.Executions+c.Pruned+c.Skipped+c.Probes)
						if !c.Complete {
							b.Fatalf("shard incomplete: %+v", c)
						}
						sum += c.Executions
						most = max(most, c.Executions)
						skipped += c.Skipped
						pruned += c.Pruned
						probes += c.Probes
					}
					if sum != whole[0].Executions {
						b.Errorf("%d shards: %d executions, whole %d", n, sum, whole[0].Executions)
					}
					mean := float64(sum) / float64(n)
					b.ReportMetric(float64(most)/mean, fmt.Sprintf("s%d-max/mean", n))
					b.ReportMetric(float64(sum)/float64(whole[0].Executions), fmt.Sprintf("s%d-execs/whole", n))
					b.ReportMetric(float64(skipped)/float64(whole[0].Executions), fmt.Sprintf("s%d-skipped/whole", n))
					b.ReportMetric(float64(pruned-whole[0].Pruned)/float64(whole[0].Executions), fmt.Sprintf("s%d-extra-pruned/whole", n))
					b.ReportMetric(float64(probes)/float64(whole[0].Executions), fmt.Sprintf("s%d-probes/whole", n))
					// every execution run, skipped, pruned and the plan's
					// probes counted as whole ones, over the whole run's
					b.ReportMetric(float64(sum+skipped+pruned+probes)/float64(whole[0].Executions+whole[0].Pruned)-1, fmt.Sprintf("s%d-overhead", n))
					if n == 2 {
						_, t := runShardProcesses(b, k.fn, k.shared, n, 2)
						b.ReportMetric(tWhole.Seconds()/t.Seconds(), "s2-speedup")
					}
					// the speedup 2 free cores would give: the whole
					// run's CPU time over the largest shard's
					b.ReportMetric(whole[0].CPU/mostCPU, fmt.Sprintf("s%d-cpu-speedup-on-%d-cores", n, n))
					// the same for the executions (every kind counted as
					// one): deterministic, loading left out
					b.ReportMetric(float64(whole[0].Executions+whole[0].Pruned)/float64(mostWork), fmt.Sprintf("s%d-execs-speedup", n))
					b.Logf("%s, %d shards: %+v", k.name, n, cs)
				}
			}
		})
	}
}
