package ltltest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"strconv"
)

// Scalar is the set of types a symbolic input can have: booleans and
// integers (named types included).
type Scalar interface {
	~bool | ~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Environment variables read by Symbolic when the test runs natively.
const (
	// InputsEnv holds a JSON object of input values by name
	// ({"n": 41, "ok": true}); the regression tests that the explorer
	// writes (explore.EmitTest) set it with t.Setenv.
	InputsEnv = "LTLTEST_INPUTS"
	// SeedEnv holds a decimal seed mixed into the drawn values (default
	// 0), so a randomized run can be varied and repeated.
	SeedEnv = "LTLTEST_SEED"
)

// Symbolic returns the input called name, of type T.
//
// Inside the explorer (ltl explore, ltltest.Explore) it is a fresh
// symbolic value: every branch on it is explored where the solver finds
// both sides feasible, and a finding reports the concrete inputs that
// reach it. One name is one input: calling Symbolic twice with the same
// name returns the same value.
//
// Run natively (go test) it returns the value InputsEnv gives name, if
// any; otherwise a value drawn deterministically from the test's name,
// name and SeedEnv — a boundary value (0, 1, -1, the minimum, the
// maximum) one time in four, uniform bits otherwise — so the same test
// is a plain randomized test. The value and seed are logged.
func Symbolic[T Scalar](t TestingT, name string) T {
	t.Helper()
	var v T
	rv := reflect.ValueOf(&v).Elem()
	if given, ok, err := inputFromEnv(name); err != nil {
		t.Errorf("ltltest.Symbolic(%q): %s: %v", name, InputsEnv, err)
		t.FailNow()
	} else if ok {
		if err := setInput(rv, given); err != nil {
			t.Errorf("ltltest.Symbolic(%q): %s: %v", name, InputsEnv, err)
			t.FailNow()
		}
		logf(t, "ltltest.Symbolic: %s = %v (from %s)", name, v, InputsEnv)
		return v
	}
	seed, err := strconv.ParseInt(os.Getenv(SeedEnv), 10, 64)
	if err != nil {
		seed = 0
	}
	test := ""
	if n, ok := t.(interface{ Name() string }); ok {
		test = n.Name()
	}
	drawInput(rv, drawSeed(test, name, seed))
	logf(t, "ltltest.Symbolic: %s = %v (%s=%d)", name, v, SeedEnv, seed)
	return v
}

func logf(t TestingT, format string, args ...any) {
	t.Helper()
	if l, ok := t.(interface{ Logf(string, ...any) }); ok {
		l.Logf(format, args...)
	}
}

// inputFromEnv returns the value InputsEnv gives name.
func inputFromEnv(name string) (json.RawMessage, bool, error) {
	return lookupInput(os.Getenv(InputsEnv), name)
}

// lookupInput returns the value the JSON object s gives name.
func lookupInput(s, name string) (json.RawMessage, bool, error) {
	if s == "" {
		return nil, false, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, false, fmt.Errorf("not a JSON object: %w", err)
	}
	v, ok := m[name]
	return v, ok, nil
}

// setInput stores a JSON number or boolean in v (a bool or integer).
func setInput(v reflect.Value, raw json.RawMessage) error {
	s := string(raw)
	switch v.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%s is not a bool", s)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s is not a %s", s, v.Type())
		}
		v.SetInt(n)
	default:
		n, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s is not a %s", s, v.Type())
		}
		v.SetUint(n)
	}
	return nil
}

// drawSeed derives the state of an input's generator.
func drawSeed(test, name string, seed int64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(test))
	h.Write([]byte{0})
	h.Write([]byte(name))
	return h.Sum64() ^ uint64(seed)*0x9E3779B97F4A7C15
}

// drawInput sets v (a bool or integer) from the generator state s.
func drawInput(v reflect.Value, s uint64) {
	r := splitmix64(&s)
	if v.Kind() == reflect.Bool {
		v.SetBool(r&1 == 1)
		return
	}
	bits := v.Type().Bits()
	signed := v.CanInt()
	if r%4 == 0 {
		edges := []int64{0, 1, -1, 2, 3} // 2 and 3 stand for min and max
		switch e := edges[splitmix64(&s)%uint64(len(edges))]; {
		case e == 2 && signed:
			v.SetInt(-1 << (bits - 1))
		case e == 2:
			v.SetUint(0)
		case e == 3 && signed:
			v.SetInt(1<<(bits-1) - 1)
		case e == 3 || (e == -1 && !signed):
			v.SetUint(^uint64(0) >> (64 - bits))
		case signed:
			v.SetInt(e)
		default:
			v.SetUint(uint64(e))
		}
		return
	}
	r = splitmix64(&s)
	if signed {
		v.SetInt(int64(r<<(64-bits)) >> (64 - bits))
		return
	}
	v.SetUint(r >> (64 - bits))
}

func splitmix64(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
