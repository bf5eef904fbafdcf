// Package bench holds CPU-bound kernels that compare the interpreter's
// speed with golang.org/x/tools/go/ssa/interp and native Go, and small
// concurrent programs for exploration-rate benchmarks. The kernels use no
// imports so that every interpreter runs exactly the same code.
package bench

// Sieve counts the primes below 200000 with the sieve of Eratosthenes.
func Sieve() {
	const n = 200000
	composite := make([]bool, n)
	count := 0
	for i := 2; i < n; i++ {
		if composite[i] {
			continue
		}
		count++
		for j := i * i; j < n; j += i {
			composite[j] = true
		}
	}
	if count != 17984 {
		panic("sieve: wrong count")
	}
}

// Sort sorts 20000 pseudo-random integers with quicksort and checks the
// result.
func Sort() {
	const n = 20000
	xs := make([]int, n)
	seed := uint32(12345)
	for i := range xs {
		seed = seed*1664525 + 1013904223
		xs[i] = int(seed >> 8)
	}
	quicksort(xs)
	for i := 1; i < n; i++ {
		if xs[i-1] > xs[i] {
			panic("sort: not sorted")
		}
	}
}

func quicksort(xs []int) {
	for len(xs) > 16 {
		p := xs[len(xs)/2]
		i, j := 0, len(xs)-1
		for i <= j {
			for xs[i] < p {
				i++
			}
			for xs[j] > p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		if j < len(xs)-1-i {
			quicksort(xs[:j+1])
			xs = xs[i:]
		} else {
			quicksort(xs[i:])
			xs = xs[:j+1]
		}
	}
	for i := 1; i < len(xs); i++ {
		for k := i; k > 0 && xs[k-1] > xs[k]; k-- {
			xs[k-1], xs[k] = xs[k], xs[k-1]
		}
	}
}

// Maps counts word frequencies in a generated text with a map.
func Maps() {
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	counts := map[string]int{}
	seed := uint32(7)
	for i := 0; i < 50000; i++ {
		seed = seed*1664525 + 1013904223
		counts[words[seed>>29]]++
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	ids := map[int]int{}
	for i := 0; i < 20000; i++ {
		ids[i%1000] += i
	}
	if total != 50000 || len(counts) != 8 || len(ids) != 1000 {
		panic("maps: wrong totals")
	}
}

// PingPong exchanges messages over unbuffered channels between two
// goroutines (the exploration-rate benchmark).
func PingPong() {
	ping, pong := make(chan int), make(chan int)
	done := make(chan bool)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		done <- true
	}()
	go func() {
		for i := 0; i < 3; i++ {
			ping <- i
			<-pong
		}
		close(ping)
	}()
	<-done
}

// mutex is a channel-based lock (the package has no imports).
type mutex struct{ ch chan bool }

func (m *mutex) lock() {
	if m.ch == nil {
		panic("mutex not initialized")
	}
	m.ch <- true
}

func (m *mutex) unlock() { <-m.ch }

func newForks(n int) []mutex {
	forks := make([]mutex, n)
	for i := range forks {
		forks[i].ch = make(chan bool, 1)
	}
	return forks
}

func Philosophers3() { philosophersWith(3) }
func Philosophers4() { philosophersWith(4) }
func Philosophers5() { philosophersWith(5) }
func Philosophers6() { philosophersWith(6) }

// philosophersWith lets n philosophers eat once, each taking the
// lower-numbered of its two forks first (no deadlock).
func philosophersWith(n int) {
	forks := newForks(n)
	done := make(chan bool)
	for i := 0; i < n; i++ {
		go func() {
			first, second := i, (i+1)%n
			if second < first {
				first, second = second, first
			}
			forks[first].lock()
			forks[second].lock()
			forks[second].unlock()
			forks[first].unlock()
			done <- true
		}()
	}
	for i := 0; i < n; i++ {
		<-done
	}
}

// LateWriters lets three goroutines read x and then, if another one
// already set flag, write x: whether a goroutine's first read of x is
// contended depends on the schedule (with Options.Shared, the shard
// plan's dive shows it uncontended and other executions race with it).
func LateWriters() {
	x, flag := 0, 0
	done := make(chan bool)
	for i := 1; i <= 3; i++ {
		go func() {
			v := x
			if flag == 0 {
				flag = i
			} else {
				x = v + i
			}
			done <- true
		}()
	}
	for i := 0; i < 3; i++ {
		<-done
	}
}
