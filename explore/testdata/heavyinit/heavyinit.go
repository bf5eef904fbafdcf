// Package heavyinit has a costly package initialization (regular
// expressions compiled and a table built at init, with the standard
// packages they import) and many small tests: the benchmark of package
// initialization snapshots.
package heavyinit

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var patterns = []*regexp.Regexp{
	regexp.MustCompile(`^[a-z]+\[[0-9]+\]$`),
	regexp.MustCompile(`(\w+)@(\w+)\.com`),
	regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`),
	regexp.MustCompile(`(?i)hello\s+world`),
	regexp.MustCompile(`^(GET|POST|PUT|DELETE) (/[^ ]*) HTTP/1\.[01]$`),
	regexp.MustCompile(`[[:alpha:]][[:alnum:]_]*`),
	regexp.MustCompile(`^0x[0-9a-fA-F]+$`),
	regexp.MustCompile(`\b(\w+)\s+(\w+)\b`),
}

var escaper = strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;", `"`, "&#34;", "'", "&#39;")

// classes maps the decimal form of the numbers below 5000 to their
// digit sums.
var classes = func() map[string]int {
	m := map[string]int{}
	for i := range 5000 {
		sum := 0
		for _, d := range strconv.Itoa(i) {
			sum += int(d - '0')
		}
		m[strconv.Itoa(i)] = sum
	}
	return m
}()

type row struct {
	Name  string
	Count int
}

// work runs two goroutines over the package's tables.
func work(t *testing.T, input string) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	matches := 0
	for _, half := range []int{0, 1} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := half; i < len(patterns); i += 2 {
				if patterns[i].MatchString(input) {
					mu.Lock()
					matches++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	var b bytes.Buffer
	b.WriteString(escaper.Replace(input))
	out := fmt.Sprintf("%+v", row{input, matches})
	if b.Len() < len(input) || len(out) == 0 || classes["4999"] != 31 {
		t.Fatalf("report %q %s", b.String(), out)
	}
}

func Test01(t *testing.T) { work(t, "abc[12]") }
func Test02(t *testing.T) { work(t, "bob@example.com") }
func Test03(t *testing.T) { work(t, "2024-01-31") }
func Test04(t *testing.T) { work(t, "Hello  World") }
func Test05(t *testing.T) { work(t, "GET /index.html HTTP/1.1") }
func Test06(t *testing.T) { work(t, "x_1") }
func Test07(t *testing.T) { work(t, "0xBEEF") }
func Test08(t *testing.T) { work(t, "the the") }
func Test09(t *testing.T) { work(t, "nothing") }
func Test10(t *testing.T) { work(t, "a[1]") }
