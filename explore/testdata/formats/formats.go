// Package formats exercises fmt formatting: the explorer's model of fmt
// must print what the real fmt prints.
package formats

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

type point struct {
	X, Y int
	name string
}

type celsius float64

func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type code int

func (c *code) Error() string { return fmt.Sprintf("code %d", int(*c)) }

type inner struct{ A []int }

type outer struct {
	In  inner
	P   *int
	M   map[string]int
	Any any
	Err error
}

// badFormats misuse fmt on purpose (in a variable, so vet does not
// object): wrong verb, missing and extra operands, %w outside Errorf.
var badFormats = []string{"%d %s", "%d %d", "%d", "%w"}

// Lines returns formatted values, one per line.
func Lines() []string {
	c := code(7)
	n := 5
	vals := []string{
		fmt.Sprintf("%d %5d %-5d| %05d %x %X %o %b %c %q %U", 42, 42, 42, -42, 255, 255, 8, 5, 'A', 'B', 0x1F600),
		fmt.Sprintf("%v %.2f %8.3f %e %g %G", 3.5, 3.14159, 2.0, 12345.678, 1e21, 1e-7),
		fmt.Sprintf("%s|%10s|%-10s|%q|%x|%.3s", "go", "right", "left", "quo\"te", "hex", "truncate"),
		fmt.Sprintf("%t %v", true, false),
		fmt.Sprintf("%v %+v", point{1, 2, "p"}, point{1, 2, "p"}),
		fmt.Sprintf("%v %v %v", []int{1, 2}, [2]string{"a", "b"}, map[string]int{"b": 2, "a": 1}),
		fmt.Sprintf("%v %s", celsius(21.5), celsius(-3)),
		fmt.Sprintf("%v", &c),
		fmt.Sprintf("%v %d", []byte("hi"), []byte("hi")),
		fmt.Sprintf("%s %x", []byte("hi"), []byte("hi")),
		fmt.Sprintf("%v", outer{In: inner{[]int{1}}, M: map[string]int{"k": 1}, Any: 3, Err: errors.New("e")}),
		fmt.Sprintf("%v %v", nil, []any{nil, 1, "x"}),
		fmt.Sprintf("%T %T %T %T %T", 1, "s", point{}, &n, []any{}),
		fmt.Sprintf(badFormats[0], "str", 5),
		fmt.Sprintf(badFormats[1], 1),
		fmt.Sprintf(badFormats[2], 1, 2),
		fmt.Sprintf("%*d|%-*d|%.*f", 5, 1, 4, 2, 2, 3.14159),
		fmt.Sprintf("%v %v", time.Duration(1500)*time.Millisecond, 90*time.Second),
		fmt.Sprintf("%08.3f|%+d|% d|%+.1e", 3.14159, 5, 5, 1234.5),
		fmt.Sprint("a", 1, 2, "b", "c", 3.0, nil),
		fmt.Sprintln("a", 1, true),
		fmt.Sprintf("%v", struct {
			A *int
			B []string
		}{nil, nil}),
		fmt.Sprintf("%x %X", "Hello", []string{"ab", "cd"}),
		fmt.Sprintf("%6.2v|%v|%v", 3.14159, float32(0.1), 1e6),
		fmt.Sprintf("%v %v %v", int8(-5), uint16(65535), uintptr(10)),
		fmt.Sprintf("%q %v", []string{"a", "b"}, [][]int{{1}, {2, 3}}),
		fmt.Sprintf("%v %.3v %10.4v|", "str", "string", "string"),
		fmt.Sprintf("%c|%5c|%-3c|", 'x', 'y', 'z'),
		fmt.Sprintf("%v", errors.Join(errors.New("a"), errors.New("b"))),
		fmt.Sprintf(badFormats[3], errors.New("wrapped")),
		fmt.Sprintf("%v|%s", fmt.Errorf("ctx: %w", errors.New("base")), strings.Repeat("ab", 3)),
	}
	return vals
}

// Check reports every line through t.Errorf so the explorer's findings
// carry them.
func Check(t *testing.T) {
	t.Errorf("%s", strings.Join(Lines(), "\n"))
}
