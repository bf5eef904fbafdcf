package symbolic

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// bytesSource feeds a fuzzer's bytes to the expression generator: each
// random draw consumes eight bytes, so the fuzzer steers the choice of
// types, operators and values. Once the input runs out, draws come from
// a generator seeded by the input (constant draws would make
// rand.IntN's rejection sampling loop forever).
type bytesSource struct {
	data []byte
	rest *rand.PCG
}

func newBytesSource(data []byte) *bytesSource {
	h := fnv.New64a()
	h.Write(data)
	return &bytesSource{data: data, rest: rand.NewPCG(h.Sum64(), uint64(len(data)))}
}

func (b *bytesSource) Uint64() uint64 {
	if len(b.data) == 0 {
		return b.rest.Uint64()
	}
	var buf [8]byte
	n := copy(buf[:], b.data)
	b.data = b.data[n:]
	return binary.LittleEndian.Uint64(buf[:])
}

// FuzzSemantics builds an expression from the fuzzer's bytes and checks
// it like TestSemanticsMatchGo: folding, Z3 and model evaluation against
// Go, and PanicCondition against Go's panics. Nothing is parsed; the
// bytes only choose the tree.
func FuzzSemantics(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte("\x05\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f"))
	f.Add([]byte("division by zero and shifts by negative counts, please"))
	f.Add([]byte("\x01\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80"))
	s := newZ3Session(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		src := newBytesSource(data)
		g := &gen{r: rand.New(src)}
		g.reset()
		typ := integerTypes[src.Uint64()%uint64(len(integerTypes))]
		depth := int(src.Uint64() % 5)
		var sm sample
		if src.Uint64()%3 == 0 {
			sm = g.boolExpr(typ, depth)
		} else {
			sm = g.expr(typ, depth)
		}
		s.Reset()
		checkSample(t, s, g, sm, "fuzz")
	})
}
