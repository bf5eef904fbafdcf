package explore

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"reflect"
	"strings"
)

// The encoding/gob package, modelled like encoding/json (model_json.go):
// Encoder.Encode converts the value to a host mirror (gob's mirror: the
// exported fields, embedded ones included as plain fields) and encodes it
// with a real gob.Encoder; Decoder.Decode decodes with a real gob.Decoder
// into the destination's mirror and copies the result back. The host
// encoder and decoder are the interpreted Encoder's and Decoder's side
// state (per execution); they write through the program's io.Writer (one
// Write per Encode) and read through its io.Reader (nested Read calls,
// buffered as gob buffers them).
//
// Gob's wire format names types, and a mirror's host type has no name: the
// bytes differ from Go's, so only round trips within the execution (an
// Encoder's stream read by a Decoder) are exact. Not modelled
// (unsupported): interface values (gob.Register), recursive types, types
// with GobEncode, MarshalBinary or MarshalText methods (time.Time), and
// errors whose messages name a type.

// gobEncState is a gob.Encoder's side state.
type gobEncState struct {
	enc *gob.Encoder
	buf bytes.Buffer
}

// gobDecState is a gob.Decoder's side state.
type gobDecState struct {
	dec *gob.Decoder
	r   *gobReader
}

// gobReader is the host io.Reader of a gob.Decoder: it reads the
// interpreted reader through the current call (j).
type gobReader struct {
	j    *jsonConv
	r    Value
	errV Value // the interpreted reader's error (not io.EOF)
}

var errGobStop = errors.New("gob: the interpreted reader stopped")

func (r *gobReader) Read(p []byte) (int, error) {
	j := r.j
	got, n, errV, ok := j.callRead(r.r, len(p))
	if !ok {
		return 0, errGobStop
	}
	if n < 0 || n > len(p) {
		n = 0
	}
	copy(p, got)
	switch {
	case errV.p == nil:
		return n, nil
	case j.isIOErr(errV, "EOF"):
		return n, io.EOF
	case j.isIOErr(errV, "ErrUnexpectedEOF"):
		return n, io.ErrUnexpectedEOF
	}
	r.errV = errV
	return n, errGobStop
}

// buildGob mirrors t for gob.
func (b *mirrorBuilder) buildGob(mr *jsonMirror, k jsonMirrorKey) *jsonMirror {
	t := mr.t
	mr.ht = hostAny
	if b.active[k] {
		b.why = fmt.Sprintf("gob: the recursive type %s is not modelled", t)
		return mr
	}
	pt := types.NewPointer(t.T)
	for _, n := range [][2]string{
		{"encoding/gob", "GobEncoder"}, {"encoding/gob", "GobDecoder"},
		{"encoding", "BinaryMarshaler"}, {"encoding", "BinaryUnmarshaler"},
		{"encoding", "TextMarshaler"}, {"encoding", "TextUnmarshaler"},
	} {
		nt := b.m.named(n[0], n[1])
		if nt == nil {
			continue
		}
		if it, ok := nt.Underlying().(*types.Interface); ok && (implements(t.T, it) || implements(pt, it)) {
			b.why = fmt.Sprintf("gob: %s implements %s.%s (not modelled)", t, n[0], n[1])
			return mr
		}
	}
	switch t.kind {
	case kIface:
		b.why = fmt.Sprintf("gob: interface values (%s) are not modelled", t)
		return mr
	case kUnsafePointer:
		b.why = fmt.Sprintf("gob: %s cannot be encoded", t)
		return mr
	}
	return b.shape(mr, k, true, false)
}

// gobFields mirrors a struct's exported fields (gob's rules: embedded
// ones as plain fields).
func (b *mirrorBuilder) gobFields(mr *jsonMirror) {
	var sfs []reflect.StructField
	for _, f := range mr.t.fields {
		if !token.IsExported(f.name) {
			continue
		}
		mf := jsonMirrorField{name: f.name, hostName: f.name, off: f.off, hidx: len(sfs)}
		mf.mr = b.build(f.t, true, false)
		sfs = append(sfs, reflect.StructField{Name: f.name, Type: mf.mr.ht})
		mr.fields = append(mr.fields, mf)
	}
	mr.ht = reflect.StructOf(sfs)
}

// gobError converts an error of the host gob package.
func (j *jsonConv) gobError(err error, r *gobReader) (Value, bool) {
	switch {
	case errors.Is(err, errGobStop):
		if r != nil && r.errV.p != nil && j.cc == ctrlNext {
			return r.errV, true
		}
		return Value{}, false
	case err == io.EOF:
		return j.ioErr("EOF"), true
	case err == io.ErrUnexpectedEOF:
		return j.ioErr("ErrUnexpectedEOF"), true
	case strings.Contains(err.Error(), "struct {"):
		return Value{}, j.unsupported("gob: the error %q names a host type", err)
	}
	return j.m.newErrorString(err.Error()), true
}

func gobModel() model {
	newObj := func(c *icall, name string) (*object, bool) {
		nt := c.m().named("encoding/gob", name)
		if nt == nil {
			return nil, false
		}
		return &object{cells: make([]Value, max(1, c.m().rtypeOf(nt).size)), id: c.g.newID(), owner: c.g.key}, true
	}
	return model{funcs: map[string]intrinsicFactory{
		"encoding/gob.NewEncoder": simple(func(c *icall) ctrl {
			o, ok := newObj(c, "Encoder")
			if !ok {
				return c.g.unsupported(c.pos, "gob: gob.Encoder is not loaded")
			}
			st := &gobEncState{}
			st.enc = gob.NewEncoder(&st.buf)
			c.x().setSide(o, -1, st)
			c.x().setSide(o, -2, c.args[0])
			return c.ret(ptrV(o, 0))
		}),
		"(*encoding/gob.Encoder).Encode": nests(simple(func(c *icall) ctrl {
			o, _, ok := c.ptrArg(0)
			if !ok {
				return c.nilPanic()
			}
			st, _ := c.x().side[objKeyOf(o, -1)].(*gobEncState)
			w, _ := c.x().side[objKeyOf(o, -2)].(Value)
			if st == nil {
				return c.g.unsupported(c.pos, "gob: an Encoder not made by gob.NewEncoder")
			}
			j := newJSONConv(c)
			j.gob = true
			var x any
			if v := c.args[1]; v.p != nil {
				it := v.iface()
				mr, ok := j.mirror(it.t, true, false)
				if !ok {
					return j.cc
				}
				hv, ok := j.encode(mr, it.v, jsonLoc{})
				if !ok {
					return j.errRet(Value{}, false)
				}
				x = hv.Interface()
			}
			st.buf.Reset()
			if err := st.enc.Encode(x); err != nil {
				ev, ok := j.gobError(err, nil)
				return j.errRet(ev, ok)
			}
			err, ok := j.writeAll(w, bytes.Clone(st.buf.Bytes()))
			return j.errRet(err, ok)
		}), false),
		"encoding/gob.NewDecoder": simple(func(c *icall) ctrl {
			o, ok := newObj(c, "Decoder")
			if !ok {
				return c.g.unsupported(c.pos, "gob: gob.Decoder is not loaded")
			}
			r := &gobReader{r: c.args[0]}
			c.x().setSide(o, -1, &gobDecState{dec: gob.NewDecoder(r), r: r})
			return c.ret(ptrV(o, 0))
		}),
		"(*encoding/gob.Decoder).Decode": nests(simple(func(c *icall) ctrl {
			o, _, ok := c.ptrArg(0)
			if !ok {
				return c.nilPanic()
			}
			st, _ := c.x().side[objKeyOf(o, -1)].(*gobDecState)
			if st == nil {
				return c.g.unsupported(c.pos, "gob: a Decoder not made by gob.NewDecoder")
			}
			j := newJSONConv(c)
			j.gob = true
			st.r.j, st.r.errV = j, Value{}
			dst := c.args[1]
			if dst.p == nil {
				var discard any // Decode(nil) skips a value
				if err := st.dec.Decode(discard); err != nil {
					ev, ok := j.gobError(err, st.r)
					return j.errRet(ev, ok)
				}
				return c.ret(Value{})
			}
			it := dst.iface()
			if it.t.kind != kPtr {
				return c.ret(c.m().newErrorString("gob: attempt to decode into a non-pointer"))
			}
			if it.v.p == nil {
				return c.ret(c.m().newErrorString("gob: DecodeValue of unassignable value"))
			}
			mr, ok := j.mirror(it.t.elem, true, true)
			if !ok {
				return j.cc
			}
			hv, ok := j.decode(mr, valAt(mr.t, it.v.obj(), it.v.off()))
			if !ok {
				return j.cc
			}
			p := reflect.New(mr.ht)
			p.Elem().Set(hv)
			if err := st.dec.Decode(p.Interface()); err != nil {
				ev, ok := j.gobError(err, st.r)
				return j.errRet(ev, ok)
			}
			if !j.back(mr, p.Elem(), it.v.obj(), it.v.off()) {
				return j.errRet(Value{}, false)
			}
			return c.ret(Value{})
		}), false),
	}}
}
