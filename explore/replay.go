package explore

import (
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
// stay short. The check detects tokens from another entry or a changed
// program (a diverging replay is an error, never a silent different run).

const tokenVersion = 1

// encodeToken builds the replay token of a path.
func encodeToken(entry string, seed int64, path []choice) string {
	buf := make([]byte, 0, 8+len(path))
	buf = binary.AppendUvarint(buf, tokenVersion)
	buf = binary.AppendVarint(buf, seed)
	buf = binary.AppendUvarint(buf, uint64(len(path)))
	for _, c := range path {
		buf = binary.AppendUvarint(buf, uint64(c.c))
	}
	sum := pathCheck(entry, path)
	buf = append(buf, byte(sum), byte(sum>>8))
	return "v1:" + base64.RawURLEncoding.EncodeToString(buf)
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
	rest, ok := strings.CutPrefix(s, "v1:")
	if !ok {
		return nil, fmt.Errorf("%w %q: want prefix \"v1:\"", ErrBadToken, s)
	}
	buf, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrBadToken, s, err)
	}
	fail := func(what string) (*replayToken, error) {
		return nil, fmt.Errorf("%w %q: %s", ErrBadToken, s, what)
	}
	v, n := binary.Uvarint(buf)
	if n <= 0 || v != tokenVersion {
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
		t.choices = append(t.choices, int(c))
		buf = buf[n:]
	}
	if len(buf) != 2 {
		return fail("bad checksum")
	}
	t.check = uint16(buf[0]) | uint16(buf[1])<<8
	return t, nil
}
