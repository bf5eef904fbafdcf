// Package quickbig holds tests of testing/quick properties, math/big
// arithmetic and crypto/rand.Int. The functions named Fail… fail on
// purpose; go test does not run them (they are not tests), the explorer
// explores them by name.
package quickbig

import (
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"math/big"
	mrand "math/rand"
	"reflect"
	"sync"
	"testing"
	"testing/quick"
)

// Flags keep their defaults (go test runs without them).
var (
	iterations = flag.Int("quickbig.iterations", 20, "iterations of TestQuickReverse")
	verbose    bool
)

func init() { flag.BoolVar(&verbose, "quickbig.verbose", true, "") }

// TestQuickReverse checks that reversing a slice twice gives it back.
func TestQuickReverse(t *testing.T) {
	rev := func(s []int) []int {
		r := make([]int, len(s))
		for i, v := range s {
			r[len(s)-1-i] = v
		}
		return r
	}
	f := func(s []int) bool {
		r := rev(rev(s))
		if len(r) != len(s) {
			return false
		}
		for i := range s {
			if r[i] != s[i] {
				return false
			}
		}
		return true
	}
	if *iterations != 20 || !verbose {
		t.Errorf("flags %d, %v", *iterations, verbose)
	}
	if err := quick.Check(f, &quick.Config{MaxCount: *iterations}); err != nil {
		t.Error(err)
	}
}

// TestQuickCommutes checks that addition commutes, with the default
// configuration (100 inputs) and arguments of several types.
func TestQuickCommutes(t *testing.T) {
	f := func(a, b int32, s string, m map[uint8]bool) bool {
		return int64(a)+int64(b) == int64(b)+int64(a) && len(s) >= 0 && len(m) >= 0
	}
	if err := quick.Check(f, nil); err != nil {
		t.Error(err)
	}
}

// TestQuickCheckEqual compares two implementations of the same function.
func TestQuickCheckEqual(t *testing.T) {
	double := func(x int16) int32 { return int32(x) * 2 }
	shift := func(x int16) int32 { return int32(x) << 1 }
	if err := quick.CheckEqual(double, shift, &quick.Config{MaxCount: 30}); err != nil {
		t.Error(err)
	}
}

// TestQuickConcurrent is a property whose body has scheduling points: a
// mutex and goroutines.
func TestQuickConcurrent(t *testing.T) {
	f := func(a, b uint8) bool {
		var (
			mu  sync.Mutex
			wg  sync.WaitGroup
			sum int
		)
		for _, v := range []uint8{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				sum += int(v)
				mu.Unlock()
			}()
		}
		wg.Wait()
		return sum == int(a)+int(b)
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 3}); err != nil {
		t.Error(err)
	}
}

// TestQuickValue draws values of a struct type.
func TestQuickValue(t *testing.T) {
	type point struct {
		X, Y int8
		Tag  string
	}
	f := func(p point) bool { return int(p.X)+int(p.Y) < 300 }
	if err := quick.Check(f, &quick.Config{MaxCount: 10}); err != nil {
		t.Error(err)
	}
}

// TestQuickConfigValues draws the arguments with Config.Values from
// Config.Rand, MaxCountScale times the default count.
func TestQuickConfigValues(t *testing.T) {
	calls := 0
	cfg := &quick.Config{
		MaxCountScale: 0.05,
		Rand:          mrand.New(mrand.NewSource(1)),
		Values: func(args []reflect.Value, r *mrand.Rand) {
			calls++
			args[0] = reflect.ValueOf(r.Intn(10))
		},
	}
	if err := quick.Check(func(x int) bool { return x >= 0 && x < 10 }, cfg); err != nil {
		t.Error(err)
	}
	if calls != 5 {
		t.Errorf("Values called %d times, want 5", calls)
	}
	// a value assignable to the parameter's (interface) type
	cfg = &quick.Config{
		MaxCount: 3,
		Values: func(args []reflect.Value, r *mrand.Rand) {
			args[0] = reflect.ValueOf(errors.New("boom"))
		},
	}
	if err := quick.Check(func(e error) bool { return e.Error() == "boom" }, cfg); err != nil {
		t.Error(err)
	}
}

// TestQuickSetupErrors checks quick's errors for functions it cannot
// check.
func TestQuickSetupErrors(t *testing.T) {
	for _, tc := range []struct {
		f    any
		want string
	}{
		{42, "argument is not a function"},
		{func(x int) int { return x }, "function does not return a bool"},
		{func(x int) (bool, bool) { return true, true }, "function does not return one value"},
		{func(c chan int) bool { return true }, "cannot create arbitrary value of type chan int for argument 0"},
	} {
		err := quick.Check(tc.f, nil)
		var se quick.SetupError
		if !errors.As(err, &se) || err.Error() != tc.want {
			t.Errorf("Check: %v, want SetupError %q", err, tc.want)
		}
	}
}

// TestQuickValueFunc draws single values with quick.Value.
func TestQuickValueFunc(t *testing.T) {
	r := mrand.New(mrand.NewSource(3))
	for range 10 {
		v, ok := quick.Value(reflect.TypeOf([]string(nil)), r)
		if !ok || v.Kind() != reflect.Slice || v.Len() >= 50 {
			t.Fatalf("Value([]string) = %v, %v", v, ok)
		}
	}
	if _, ok := quick.Value(reflect.TypeOf(make(chan int)), r); ok {
		t.Error("Value(chan int) succeeded")
	}
}

// even is an int that quick draws with its Generate method.
type even int

func (even) Generate(r *mrand.Rand, size int) reflect.Value {
	return reflect.ValueOf(even(2 * r.Intn(1000)))
}

// TestQuickGenerator draws arguments of a type implementing
// quick.Generator, alone and in a slice.
func TestQuickGenerator(t *testing.T) {
	f := func(e even, es []even) bool {
		for _, x := range es {
			if x%2 != 0 {
				return false
			}
		}
		return e%2 == 0
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 20}); err != nil {
		t.Error(err)
	}
}

// FailQuickOrder expects the first goroutine's value to arrive first: it
// fails on the schedules where the second goroutine sends first (with
// different values).
func FailQuickOrder(t *testing.T) {
	f := func(a, b int8) bool {
		ch := make(chan int8, 2)
		go func() { ch <- a }()
		go func() { ch <- b }()
		first := <-ch
		<-ch
		return first == a
	}
	var ce *quick.CheckError
	if err := quick.Check(f, &quick.Config{MaxCount: 2}); errors.As(err, &ce) {
		t.Errorf("%v (count %d, %d inputs)", err, ce.Count, len(ce.In))
	}
}

// FailQuickSmall claims every byte is below 200: quick finds a
// counterexample.
func FailQuickSmall(t *testing.T) {
	f := func(x uint8) bool { return x < 200 }
	if err := quick.Check(f, nil); err != nil {
		t.Error(err)
	}
}

// FailQuickCheckEqual compares two functions that differ on odd inputs.
func FailQuickCheckEqual(t *testing.T) {
	half := func(x uint16) uint16 { return x / 2 * 2 }
	same := func(x uint16) uint16 { return x }
	if err := quick.CheckEqual(half, same, nil); err != nil {
		t.Error(err)
	}
}

// TestBigFactorial computes 30! with big.Int.
func TestBigFactorial(t *testing.T) {
	f := big.NewInt(1)
	for i := int64(2); i <= 30; i++ {
		f.Mul(f, big.NewInt(i))
	}
	if got, want := f.String(), "265252859812191058636308480000000"; got != want {
		t.Errorf("30! = %s, want %s", got, want)
	}
	if got, want := f.Text(16), "d13f6370f96865df5dd54000000"; got != want {
		t.Errorf("30! in hex = %s, want %s", got, want)
	}
	if f.BitLen() != 108 || f.Sign() != 1 || f.IsInt64() {
		t.Errorf("BitLen %d Sign %d IsInt64 %v", f.BitLen(), f.Sign(), f.IsInt64())
	}
}

// TestBigArith exercises the other big.Int operations.
func TestBigArith(t *testing.T) {
	n, ok := new(big.Int).SetString("123456789012345678901234567890", 10)
	if !ok {
		t.Fatal("SetString failed")
	}
	if n.String() != "123456789012345678901234567890" {
		t.Errorf("round trip: %s", n)
	}
	m := big.NewInt(1000000007)
	check := func(what string, got *big.Int, want string) {
		t.Helper()
		if got.String() != want {
			t.Errorf("%s = %s, want %s", what, got, want)
		}
	}
	check("n+m", new(big.Int).Add(n, m), "123456789012345678902234567897")
	check("n-m", new(big.Int).Sub(n, m), "123456789012345678900234567883")
	check("n/m", new(big.Int).Quo(n, m), "123456788148148161864")
	check("n%m", new(big.Int).Rem(n, m), "197434842")
	check("-n div m", new(big.Int).Div(new(big.Int).Neg(n), m), "-123456788148148161865")
	check("-n mod m", new(big.Int).Mod(new(big.Int).Neg(n), m), "802565165")
	check("2^100 mod m", new(big.Int).Exp(big.NewInt(2), big.NewInt(100), m), "976371285")
	check("n<<70", new(big.Int).Lsh(n, 70), "145752050628652680975897013633443949312730317455360")
	check("n>>40", new(big.Int).Rsh(n, 40), "112283295504626656")
	check("3^-1 mod m", new(big.Int).ModInverse(big.NewInt(3), m), "333333336")
	check("gcd", new(big.Int).GCD(nil, nil, big.NewInt(462), big.NewInt(1071)), "21")
	if n.Cmp(m) != 1 || m.Cmp(n) != -1 || n.Cmp(n) != 0 {
		t.Error("Cmp")
	}
	if !m.ProbablyPrime(20) || big.NewInt(1000000011).ProbablyPrime(20) {
		t.Error("ProbablyPrime")
	}
	b := n.Bytes()
	if got := new(big.Int).SetBytes(b); got.Cmp(n) != 0 {
		t.Errorf("SetBytes(Bytes) = %s", got)
	}
	if m.Int64() != 1000000007 || m.Uint64() != 1000000007 || !m.IsInt64() {
		t.Error("Int64/Uint64")
	}
	r := big.NewRat(3, 4)
	r.Add(r, big.NewRat(1, 6))
	if r.String() != "11/12" {
		t.Errorf("3/4+1/6 = %s", r)
	}
}

// TestBigPrint formats a *big.Int in decimal with fmt.
func TestBigPrint(t *testing.T) {
	n := new(big.Int).Lsh(big.NewInt(-3), 64)
	var nilInt *big.Int
	got := fmt.Sprintf("%v %s %d %#v %v", n, n, n, n, nilInt)
	want := "-55340232221128654848 -55340232221128654848 -55340232221128654848 -55340232221128654848 <nil>"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// HexBig formats a *big.Int in hexadecimal, which needs its Format
// method.
func HexBig(t *testing.T) {
	if s := fmt.Sprintf("%x", big.NewInt(255)); s != "ff" {
		t.Errorf("%%x: %s", s)
	}
}

// TestCryptoRandInt draws numbers below a bound.
func TestCryptoRandInt(t *testing.T) {
	max := big.NewInt(1000)
	for range 20 {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			t.Fatal(err)
		}
		if n.Sign() < 0 || n.Cmp(max) >= 0 {
			t.Fatalf("rand.Int = %s, out of [0, 1000)", n)
		}
	}
	p, err := rand.Prime(rand.Reader, 64)
	if err != nil {
		t.Fatal(err)
	}
	if p.BitLen() != 64 || !p.ProbablyPrime(10) {
		t.Errorf("rand.Prime(64) = %s", p)
	}
}
