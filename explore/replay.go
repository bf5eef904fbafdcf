package explore

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
)

// Replay tokens.
//
// A token is "v1:" followed by base64url (no padding) of:
//
//	uvarint  version (1)
//	varint   seed
//	uvarint  number of choices
//	uvarint  each choice (index among the alternatives at that point)
//	2 bytes  check: FNV-1a of the entry name and the alternative counts
//
// Only choice points with two or more alternatives are recorded, so tokens
// stay short. A path with long runs of equal choices (a witness continued
// with first choices to its end) is encoded as "v2:", the same fields with
// the choices run-length encoded:
//
//	uvarint  version (2)
//	varint   seed
//	uvarint  number of runs
//	uvarint  each run: the choice, then how many times it repeats
//	2 bytes  check
//
// encodeToken writes whichever is shorter; decodeToken reads both. The check detects tokens from another entry or a changed
// program (a diverging replay is an error, never a silent different run).

const (
	tokenVersion    = 1
	tokenVersionRLE = 2
)

// encodeToken builds the replay token of a path.
func encodeToken(entry string, seed int64, path []choice) string {
	sum := pathCheck(entry, path)
	plain := make([]byte, 0, 8+len(path))
	plain = binary.AppendUvarint(plain, tokenVersion)
	plain = binary.AppendVarint(plain, seed)
	plain = binary.AppendUvarint(plain, uint64(len(path)))
	for _, c := range path {
		plain = binary.AppendUvarint(plain, uint64(c.c))
	}
	plain = append(plain, byte(sum), byte(sum>>8))

	var runs []byte
	nruns := 0
	for i := 0; i < len(path); {
		j := i
		for j < len(path) && path[j].c == path[i].c {
			j++
		}
		runs = binary.AppendUvarint(runs, uint64(path[i].c))
		runs = binary.AppendUvarint(runs, uint64(j-i))
		nruns++
		i = j
	}
	rle := make([]byte, 0, 8+len(runs))
	rle = binary.AppendUvarint(rle, tokenVersionRLE)
	rle = binary.AppendVarint(rle, seed)
	rle = binary.AppendUvarint(rle, uint64(nruns))
	rle = append(rle, runs...)
	rle = append(rle, byte(sum), byte(sum>>8))
	if len(rle) < len(plain) {
		return "v2:" + base64.RawURLEncoding.EncodeToString(rle)
	}
	return "v1:" + base64.RawURLEncoding.EncodeToString(plain)
}

func pathCheck(entry string, path []choice) uint16 {
	h := fnv.New32a()
	h.Write([]byte(entry))
	var b [binary.MaxVarintLen64]byte
	for _, c := range path {
		n := binary.PutUvarint(b[:], uint64(c.n))
		h.Write(b[:n])
	}
	s := h.Sum32()
	return uint16(s ^ s>>16)
}

// replayToken is a decoded token.
type replayToken struct {
	seed    int64
	choices []int
	check   uint16
}

// ErrBadToken is returned for malformed replay tokens.
var ErrBadToken = errors.New("malformed replay token")

func decodeToken(s string) (*replayToken, error) {
	prefix, rest, ok := strings.Cut(s, ":")
	want := map[string]uint64{"v1": tokenVersion, "v2": tokenVersionRLE}[prefix]
	if !ok || want == 0 {
		return nil, fmt.Errorf("%w %q: want prefix \"v1:\" or \"v2:\"", ErrBadToken, s)
	}
	buf, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrBadToken, s, err)
	}
	fail := func(what string) (*replayToken, error) {
		return nil, fmt.Errorf("%w %q: %s", ErrBadToken, s, what)
	}
	v, n := binary.Uvarint(buf)
	if n <= 0 || v != want {
		return fail("unknown version")
	}
	buf = buf[n:]
	t := &replayToken{}
	t.seed, n = binary.Varint(buf)
	if n <= 0 {
		return fail("bad seed")
	}
	buf = buf[n:]
	cnt, n := binary.Uvarint(buf)
	if n <= 0 || cnt > uint64(len(buf)) {
		return fail("bad length")
	}
	buf = buf[n:]
	for range cnt {
		c, n := binary.Uvarint(buf)
		if n <= 0 || c > 1<<20 {
			return fail("bad choice")
		}
		buf = buf[n:]
		repeat := uint64(1)
		if v == tokenVersionRLE {
			repeat, n = binary.Uvarint(buf)
			if n <= 0 || repeat == 0 || repeat > maxTokenChoices-uint64(len(t.choices)) {
				return fail("bad run")
			}
			buf = buf[n:]
		}
		for range repeat {
			t.choices = append(t.choices, int(c))
		}
	}
	if len(buf) != 2 {
		return fail("bad checksum")
	}
	t.check = uint16(buf[0]) | uint16(buf[1])<<8
	return t, nil
}

// maxTokenChoices bounds the path a token may describe, so a malformed
// token cannot make the decoder allocate without limit.
const maxTokenChoices = 1 << 20

// replay runs the execution of a token.
func (p *Program) replay(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	tok, err := decodeToken(opts.Replay)
	if err != nil {
		return err
	}
	opts.Seed = tok.seed
	r.Seed = tok.seed
	m := p.acquireMachine(e, opts)
	defer p.releaseMachine(m)
	rc := &replayChooser{choices: tok.choices}
	x := p.runOne(m, e, opts, rc, 1, tok.seed)
	if x.replayErr != "" {
		return fmt.Errorf("explore: replay of %s: %w (%s)", e.Name, ErrReplayDiverged, x.replayErr)
	}
	if rc.pos != len(rc.choices) || pathCheck(e.Name, x.path) != tok.check {
		return fmt.Errorf("explore: replay of %s: %w", e.Name, ErrReplayDiverged)
	}
	c := newCollector(opts)
	c.add(x)
	x.release()
	c.warnings(m)
	c.fill(r)
	return nil
}

// ErrReplayDiverged is returned when a replay token does not describe an
// execution of the program (another entry, or the program changed).
var ErrReplayDiverged = errors.New("the replay token does not match this program")

type replayChooser struct {
	choices []int
	pos     int
}

func (rc *replayChooser) choose(x *execution, ts []transition) int {
	if rc.pos >= len(rc.choices) {
		rc.pos++
		return -1
	}
	c := rc.choices[rc.pos]
	rc.pos++
	return c
}
