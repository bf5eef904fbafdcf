// Command sieve runs bench.Sieve, for golang.org/x/tools/go/ssa/interp.
package main

import "github.com/henceforth-go/henceforth/explore/testdata/bench"

func main() { bench.Sieve() }
