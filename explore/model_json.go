package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// The encoding/json package. It is opaque (built on reflect); the model
// runs the real package on host values that mirror the interpreter's:
//
//   - a mirror (jsonMirror) pairs an interpreter type with a host type
//     built with reflect (StructOf, SliceOf, MapOf…): the same kinds,
//     field names and struct tags, so the real encoder and decoder apply
//     Go's rules (field order, tags, omitempty, embedded-field promotion,
//     map key sorting, string escaping, number formatting) and print the
//     same bytes. Unexported fields are left out (json skips them), an
//     unexported embedded struct gets an exported host name.
//   - Marshalers and TextMarshalers (and, decoding, Unmarshalers and
//     TextUnmarshalers) are mirrored by json.RawMessage: encoding calls
//     the interpreted method (a nested call) and splices its output, which
//     the real encoder compacts and escapes as it does a Marshaler's;
//     decoding gives the method the raw bytes of the value. A back edge of
//     a recursive type is mirrored by any (encoding: it holds the pointed
//     value's mirror) or by json.RawMessage (decoding: the value is
//     decoded by a nested unmarshal).
//   - errors are the interpreter's values of json's error types with the
//     interpreter's types in them (*json.SyntaxError,
//     *json.UnmarshalTypeError…), so they print as Go prints them. The
//     encoding errors whose messages name types (unsupported types, NaN,
//     cycles, failing marshalers) are detected on the interpreter's values
//     before the host encoder runs.
//
// Decoding converts the destination to its mirror (so that decoding
// merges into existing values as json does), decodes into it with the
// real package and copies the result back: pointers, slice backing arrays
// and maps the destination had are reused, as json reuses them.
//
// Encoders and decoders write and read through the io.Writer and
// io.Reader they were made with (nested calls of Write and Read); their
// state lives in the cells of the real json.Encoder and json.Decoder
// structs (w, escapeHTML, indentPrefix, indentValue; r, buf (the unread
// input), scanned (the input consumed), err, tokenState, tokenStack, and
// decodeState's useNumber and disallowUnknownFields); Token, More and
// Decode follow json's token states.
//
// Not modelled (unsupported): decoding into a
// non-empty interface, a TextUnmarshaler given a non-string, a type error
// inside a recursive type, and `,string` on a field whose type has an
// IsZero method and omitzero. The model's reads and writes of program
// memory are not reported to the race detector.

// mirrorHow says how a mirror's host value represents the interpreter's.
type mirrorHow uint8

const (
	mPlain       mirrorHow = iota // same shape
	mIface                        // interface: host any holding the dynamic value's mirror
	mSplice                       // Marshaler (Unmarshaler): host json.RawMessage from the method
	mText                         // TextMarshaler (TextUnmarshaler): host json.RawMessage of the quoted text
	mBox                          // back edge of a recursive type: host any (encode), json.RawMessage (decode)
	mRaw                          // json.RawMessage itself
	mNumber                       // json.Number itself
	mUnsupported                  // a type json cannot encode (chan, func, complex, bad map key)
)

// jsonMirror pairs an interpreter type with its host mirror type ht.
// Invariant: the host value of a mirror is a value of ht; for mPlain,
// ht has t's kind, and elem, key and fields mirror t's element, key and
// the struct fields json considers.
type jsonMirror struct {
	t    *rtype
	addr bool // the value is addressable (pointer methods apply)
	how  mirrorHow
	ht   reflect.Type

	elem, key *jsonMirror
	fields    []jsonMirrorField
	// keyText: map keys are converted by MarshalText/UnmarshalText (host
	// string keys).
	keyText bool
	// ptrMethod: the Marshaler's method is called on the value's address.
	ptrMethod bool
	// nonEmpty: an interface type with methods.
	nonEmpty bool
}

// jsonMirrorField is a struct field json considers.
type jsonMirrorField struct {
	name      string // the interpreter's field name
	hostName  string // its host name (exported)
	off       int
	hidx      int // index in the host struct
	mr        *jsonMirror
	omitEmpty bool
	omitZero  bool
	// box: the host field is any, nil when the model omits the field
	// (the host value's emptiness would differ from the interpreter's).
	box bool
	// isZero: the field's type has an IsZero method (omitzero calls it);
	// isZeroPtr: on the value's address.
	isZero, isZeroPtr bool
	promoted          bool // an embedded struct whose fields json promotes
}

type jsonMirrorKey struct {
	t         *rtype
	addr, dec bool
	gob       bool // encoding/gob's mirror (model_gob.go)
}

var (
	hostAny    = reflect.TypeFor[any]()
	hostRaw    = reflect.TypeFor[json.RawMessage]()
	hostNumber = reflect.TypeFor[json.Number]()
)

// jsonTypes holds the types of encoding/json and encoding the model uses.
type jsonTypes struct {
	raw, number                                       *rtype
	marshaler, unmarshaler, textMarshaler, textUnmars *types.Interface
	isZeroer                                          *types.Interface
}

func (m *machine) jsonTypes() *jsonTypes {
	if m.jsonT != nil {
		return m.jsonT
	}
	iface := func(pkg, name string) *types.Interface {
		if t := m.named(pkg, name); t != nil {
			if it, ok := t.Underlying().(*types.Interface); ok {
				return it
			}
		}
		return types.NewInterfaceType(nil, nil) // never implemented: see implements
	}
	jt := &jsonTypes{
		marshaler:     iface("encoding/json", "Marshaler"),
		unmarshaler:   iface("encoding/json", "Unmarshaler"),
		textMarshaler: iface("encoding", "TextMarshaler"),
		textUnmars:    iface("encoding", "TextUnmarshaler"),
	}
	if t := m.named("encoding/json", "RawMessage"); t != nil {
		jt.raw = m.rtypeOf(t)
	}
	if t := m.named("encoding/json", "Number"); t != nil {
		jt.number = m.rtypeOf(t)
	}
	sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.Bool])), false)
	jt.isZeroer = types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "IsZero", sig)}, nil).Complete()
	m.jsonT = jt
	return jt
}

// implements reports whether t implements the (non-empty) interface it.
func implements(t types.Type, it *types.Interface) bool {
	return it.NumMethods() > 0 && types.Implements(t, it)
}

// mirrorOf returns json's or gob's mirror of t (cached per machine), or
// why t has none.
func (m *machine) mirrorOf(t *rtype, addr, dec, gob bool) (mr *jsonMirror, why string) {
	k := jsonMirrorKey{t, addr, dec, gob}
	if mr, ok := m.jsonMirrors[k]; ok {
		return mr, ""
	}
	b := &mirrorBuilder{m: m, jt: m.jsonTypes(), dec: dec, gob: gob, active: map[jsonMirrorKey]bool{}}
	defer func() {
		if r := recover(); r != nil {
			mr, why = nil, fmt.Sprintf("json: cannot mirror %s: %v", t, r)
		}
	}()
	mr = b.build(t, addr, false)
	if b.why != "" {
		return nil, b.why
	}
	if m.jsonMirrors == nil {
		m.jsonMirrors = map[jsonMirrorKey]*jsonMirror{}
	}
	m.jsonMirrors[k] = mr
	return mr, ""
}

type mirrorBuilder struct {
	m      *machine
	jt     *jsonTypes
	dec    bool
	gob    bool
	active map[jsonMirrorKey]bool
	why    string
}

var hostBasic = map[kind]reflect.Type{
	kBool: reflect.TypeFor[bool](), kInt: reflect.TypeFor[int](), kInt8: reflect.TypeFor[int8](),
	kInt16: reflect.TypeFor[int16](), kInt32: reflect.TypeFor[int32](), kInt64: reflect.TypeFor[int64](),
	kUint: reflect.TypeFor[uint](), kUint8: reflect.TypeFor[uint8](), kUint16: reflect.TypeFor[uint16](),
	kUint32: reflect.TypeFor[uint32](), kUint64: reflect.TypeFor[uint64](), kUintptr: reflect.TypeFor[uintptr](),
	kFloat32: reflect.TypeFor[float32](), kFloat64: reflect.TypeFor[float64](),
	kComplex64: reflect.TypeFor[complex64](), kComplex128: reflect.TypeFor[complex128](),
	kString: reflect.TypeFor[string](), kUnsafePointer: reflect.TypeFor[unsafe.Pointer](),
	kChan: reflect.TypeFor[chan int](), kFunc: reflect.TypeFor[func()](),
}

// build mirrors t; plain skips the (Un)Marshaler checks of t itself (an
// embedded struct json promotes the fields of).
func (b *mirrorBuilder) build(t *rtype, addr, plain bool) *jsonMirror {
	if b.dec || b.gob {
		addr = true
	}
	k := jsonMirrorKey{t, addr, b.dec, b.gob}
	mr := &jsonMirror{t: t, addr: addr}
	if b.gob {
		return b.buildGob(mr, k)
	}
	if b.active[k] && !plain {
		mr.how, mr.ht = mBox, hostAny
		if b.dec {
			mr.ht = hostRaw
		}
		return mr
	}
	jt := b.jt
	switch {
	case t == jt.raw:
		mr.how, mr.ht = mRaw, hostRaw
		return mr
	case t == jt.number:
		mr.how, mr.ht = mNumber, hostNumber
		return mr
	case plain || t.kind == kPtr && t.elem == jt.raw:
	case b.dec:
		pt := types.NewPointer(t.T)
		if t.kind == kIface && implements(t.T, jt.unmarshaler) {
			b.why = fmt.Sprintf("json: decoding into %s (an interface with UnmarshalJSON)", t)
		}
		switch {
		case implements(pt, jt.unmarshaler):
			mr.how, mr.ht, mr.ptrMethod = mSplice, hostRaw, true
			return mr
		case implements(pt, jt.textUnmars):
			mr.how, mr.ht, mr.ptrMethod = mText, hostRaw, true
			return mr
		}
	default:
		pt := types.NewPointer(t.T)
		switch {
		case t.kind != kPtr && addr && implements(pt, jt.marshaler):
			mr.how, mr.ht, mr.ptrMethod = mSplice, hostRaw, true
			return mr
		case implements(t.T, jt.marshaler):
			mr.how, mr.ht = mSplice, hostRaw
			return mr
		case t.kind != kPtr && addr && implements(pt, jt.textMarshaler):
			mr.how, mr.ht, mr.ptrMethod = mText, hostRaw, true
			return mr
		case implements(t.T, jt.textMarshaler):
			mr.how, mr.ht = mText, hostRaw
			return mr
		}
	}
	switch t.kind {
	case kComplex64, kComplex128, kChan, kFunc, kUnsafePointer:
		mr.how, mr.ht = mUnsupported, hostBasic[t.kind]
		return mr
	case kIface:
		mr.how, mr.ht = mIface, hostAny
		mr.nonEmpty = t.T.Underlying().(*types.Interface).NumMethods() > 0
		return mr
	}
	return b.shape(mr, k, addr, plain)
}

// shape mirrors t by its kind, json's way or gob's (b.gob): a basic
// kind's host type, or the host pointer, slice, array, map or struct
// built from the mirrors of t's parts.
func (b *mirrorBuilder) shape(mr *jsonMirror, k jsonMirrorKey, addr, plain bool) *jsonMirror {
	t := mr.t
	if ht, ok := hostBasic[t.kind]; ok {
		mr.ht = ht
		return mr
	}
	b.active[k] = true
	defer delete(b.active, k)
	switch t.kind {
	case kPtr:
		mr.elem = b.build(t.elem, true, plain)
		mr.ht = reflect.PointerTo(mr.elem.ht)
	case kSlice:
		mr.elem = b.build(t.elem, true, false)
		mr.ht = reflect.SliceOf(mr.elem.ht)
	case kArray:
		mr.elem = b.build(t.elem, addr, false)
		mr.ht = reflect.ArrayOf(t.len, mr.elem.ht)
	case kMap:
		if b.gob {
			mr.key = b.build(t.key, true, false)
		} else {
			b.mapKey(mr)
		}
		mr.elem = b.build(t.elem, b.dec, false)
		if mr.how == mUnsupported {
			mr.ht = reflect.MapOf(reflect.TypeFor[bool](), mr.elem.ht)
			return mr
		}
		mr.ht = reflect.MapOf(mr.key.ht, mr.elem.ht)
	case kStruct:
		if b.gob {
			b.gobFields(mr)
		} else {
			b.structFields(mr)
		}
	default:
		pkg := "json"
		if b.gob {
			pkg = "gob"
		}
		b.why = fmt.Sprintf("%s: the model cannot mirror %s", pkg, t)
		mr.ht = hostAny
	}
	return mr
}

// mapKey mirrors a map's key as json's map encoder and decoder treat it.
func (b *mirrorBuilder) mapKey(mr *jsonMirror) {
	kt := mr.t.key
	mr.key = &jsonMirror{t: kt, ht: hostBasic[kString]}
	text := implements(kt.T, b.jt.textMarshaler) && kt.kind != kString
	if b.dec {
		text = implements(types.NewPointer(kt.T), b.jt.textUnmars)
	}
	switch {
	case text:
		mr.keyText = true
	case kt.kind == kString:
	case kt.kind.isInteger():
		mr.key.ht = hostBasic[kt.kind]
	default:
		mr.how = mUnsupported
		if b.dec {
			b.why = fmt.Sprintf("json: decoding into %s (its key type is not supported)", mr.t)
		}
	}
}

// structFields mirrors the fields json considers.
func (b *mirrorBuilder) structFields(mr *jsonMirror) {
	t := mr.t
	st := t.T.Underlying().(*types.Struct)
	var sfs []reflect.StructField
	used := map[string]bool{}
	for i, f := range t.fields {
		tag := st.Tag(i)
		jtag := reflect.StructTag(tag).Get("json")
		if jtag == "-" {
			continue
		}
		exported := token.IsExported(f.name)
		et := f.t
		if et.kind == kPtr {
			et = et.elem
		}
		if f.emb {
			if !exported && et.kind != kStruct {
				continue
			}
		} else if !exported {
			continue
		}
		name, opts, _ := strings.Cut(jtag, ",")
		mf := jsonMirrorField{name: f.name, off: f.off, hidx: len(sfs)}
		mf.promoted = f.emb && name == "" && et.kind == kStruct
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				mf.omitEmpty = true
			case "omitzero":
				mf.omitZero = true
			}
		}
		if mf.promoted && b.dec && f.t.kind == kPtr && !exported {
			// json fails to allocate it ("cannot set embedded pointer to
			// unexported struct"); the host field is exported
			b.why = fmt.Sprintf("json: decoding into %s (embedded pointer to the unexported %s)", t, f.t)
		}
		mf.mr = b.build(f.t, mr.addr, mf.promoted)
		ht := mf.mr.ht
		if !b.dec && (mf.omitEmpty || mf.omitZero) {
			switch mf.mr.how {
			case mSplice, mText, mBox:
				mf.box = true
			}
			if mf.omitZero {
				mf.isZero = implements(f.t.T, b.jt.isZeroer)
				mf.isZeroPtr = !mf.isZero && implements(types.NewPointer(f.t.T), b.jt.isZeroer)
				if mf.isZero || mf.isZeroPtr {
					if strings.Contains(","+opts+",", ",string,") {
						b.why = fmt.Sprintf("json: field %s of %s: ,string with omitzero and an IsZero method", f.name, t)
					}
					mf.box = true
				}
			}
			if mf.box {
				ht = hostAny
			}
		}
		mf.hostName = f.name
		if !exported {
			mf.hostName = strings.ToUpper(f.name[:1]) + f.name[1:]
			if !token.IsExported(mf.hostName) {
				mf.hostName = "X" + f.name
			}
		}
		if used[mf.hostName] {
			b.why = fmt.Sprintf("json: struct %s: embedded field %s has the name of another field", t, f.name)
		}
		used[mf.hostName] = true
		sfs = append(sfs, reflect.StructField{Name: mf.hostName, Type: ht, Tag: reflect.StructTag(tag), Anonymous: mf.promoted})
		mr.fields = append(mr.fields, mf)
	}
	mr.ht = reflect.StructOf(sfs)
}

// jsonConv is one encoding or decoding call.
type jsonConv struct {
	c   *icall
	m   *machine
	gob bool  // encoding/gob's call (gob's mirrors)
	cc  ctrl  // not ctrlNext: the call stops (panic, unsupported, yield)
	err Value // the error the call returns (nil: none)

	// encoding: the references on the current path (cycle detection)
	path   []jsonRef
	onPath map[jsonRef]int

	// decoding: where the host pointers, slice arrays and maps of the
	// destination's mirror came from, and the interface values it held
	ptrs     map[unsafe.Pointer]jsonLoc
	hostPtrs map[jsonLoc]reflect.Value
	slices   map[unsafe.Pointer]jsonLoc
	maps     map[unsafe.Pointer]*mapObject
	ifaces   map[[2]unsafe.Pointer]Value
	newPtrs  map[unsafe.Pointer]jsonLoc
}

type jsonRef struct {
	p   unsafe.Pointer
	off uint64
	n   int
	t   *rtype
}

// jsonLoc is an address in interpreter memory.
type jsonLoc struct {
	o   *object
	off int
	t   *rtype
}

func newJSONConv(c *icall) *jsonConv {
	return &jsonConv{c: c, m: c.m(), cc: ctrlNext, onPath: map[jsonRef]int{},
		ptrs: map[unsafe.Pointer]jsonLoc{}, hostPtrs: map[jsonLoc]reflect.Value{},
		slices: map[unsafe.Pointer]jsonLoc{}, maps: map[unsafe.Pointer]*mapObject{},
		ifaces: map[[2]unsafe.Pointer]Value{}, newPtrs: map[unsafe.Pointer]jsonLoc{}}
}

// errRet returns the call's single error result: err if ok, else j.err
// (or the call stops with j.cc).
func (j *jsonConv) errRet(err Value, ok bool) ctrl {
	if !ok {
		if j.cc != ctrlNext {
			return j.cc
		}
		return j.c.ret(j.err)
	}
	return j.c.ret(err)
}

// valAt returns the value of type t at o[off]: a view for aggregates.
func valAt(t *rtype, o *object, off int) Value {
	if t.kind.isAggregate() {
		return ptrV(o, off)
	}
	return o.cells[off]
}

func (j *jsonConv) fail(cc ctrl) bool {
	j.cc = cc
	return false
}

// unsupported stops the execution with an "unsupported" finding that
// names the called function.
func (j *jsonConv) unsupported(format string, args ...any) bool {
	msg := fmt.Sprintf(format, args...)
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "json: "), "gob: ")
	return j.fail(j.c.g.unsupported(j.c.pos, "%s: %s", j.c.name(), msg))
}

func (j *jsonConv) mirror(t *rtype, addr, dec bool) (*jsonMirror, bool) {
	mr, why := j.m.mirrorOf(t, addr, dec, j.gob)
	if mr == nil {
		return nil, j.unsupported("%s", why)
	}
	return mr, true
}

// encode converts v (of mr.t, stored at at.o[at.off] if at.o is set) to
// its host mirror value.
func (j *jsonConv) encode(mr *jsonMirror, v Value, at jsonLoc) (reflect.Value, bool) {
	t := mr.t
	switch mr.how {
	case mRaw:
		if v.p == nil {
			return reflect.Zero(hostRaw), true
		}
		b := sliceBytes(v)
		if b == nil {
			b = []byte{}
		}
		return reflect.ValueOf(json.RawMessage(b)), true
	case mNumber:
		return reflect.ValueOf(json.Number(v.Str())), true
	case mSplice, mText:
		return j.callMarshal(mr, v, at)
	case mBox:
		inner, ok := j.mirror(t, mr.addr, false)
		if !ok {
			return reflect.Value{}, false
		}
		hv, ok := j.encode(inner, v, at)
		if !ok {
			return hv, false
		}
		r := reflect.New(hostAny).Elem()
		r.Set(hv)
		return r, true
	case mUnsupported:
		j.err = j.jsonError("UnsupportedTypeError", map[string]Value{"Type": j.typeValue(t)})
		return reflect.Value{}, false
	case mIface:
		if v.p == nil {
			return reflect.Zero(hostAny), true
		}
		it := v.iface()
		inner, ok := j.mirror(it.t, false, false)
		if !ok {
			return reflect.Value{}, false
		}
		hv, ok := j.encode(inner, it.v, jsonLoc{})
		if !ok {
			return hv, false
		}
		r := reflect.New(hostAny).Elem()
		r.Set(hv)
		return r, true
	}
	r := reflect.New(mr.ht).Elem()
	switch k := t.kind; {
	case k == kBool:
		r.SetBool(v.Bool())
	case k.isSigned():
		r.SetInt(v.Int())
	case k.isInteger():
		r.SetUint(v.Uint())
	case k.isFloat():
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			bits := 64
			if k == kFloat32 {
				bits = 32
			}
			j.err = j.jsonError("UnsupportedValueError", map[string]Value{"Str": strV(strconv.FormatFloat(f, 'g', -1, bits))})
			return r, false
		}
		r.SetFloat(f)
	case k == kString:
		r.SetString(v.Str())
	case k.isComplex():
		r.SetComplex(v.Complex())
	case k == kChan || k == kFunc:
		// gob's mirror: gob ignores fields of these kinds
	case k == kPtr:
		if v.p == nil {
			return r, true
		}
		if !j.push(jsonRef{p: v.p, off: v.a, t: t}) {
			return r, false
		}
		defer j.pop()
		he, ok := j.encode(mr.elem, valAt(t.elem, v.obj(), v.off()), jsonLoc{o: v.obj(), off: v.off()})
		if !ok {
			return r, false
		}
		p := reflect.New(mr.elem.ht)
		p.Elem().Set(he)
		return p, true
	case k == kSlice:
		if v.p == nil {
			return r, true
		}
		n := v.sliceLen()
		if mr.elem.how == mPlain && mr.elem.ht.Kind() == reflect.Uint8 {
			b := sliceBytes(v)
			if b == nil {
				b = []byte{}
			}
			return reflect.ValueOf(b).Convert(mr.ht), true
		}
		if !j.push(jsonRef{p: v.p, off: v.a, n: n, t: t}) {
			return r, false
		}
		defer j.pop()
		s := reflect.MakeSlice(mr.ht, n, n)
		return s, j.encodeElems(mr, v, jsonLoc{o: v.obj(), off: v.off()}, s)
	case k == kArray:
		if !j.encodeElems(mr, v, at, r) {
			return r, false
		}
	case k == kMap:
		return j.encodeMap(mr, v)
	case k == kStruct:
		for _, f := range mr.fields {
			fv := viewAt(f.mr.t, v, f.off)
			var loc jsonLoc
			if at.o != nil {
				loc = jsonLoc{o: at.o, off: at.off + f.off}
			}
			if f.omitEmpty || f.omitZero {
				omit, ok := j.omitted(f, fv, loc)
				if !ok {
					return r, false
				}
				if omit {
					continue
				}
			}
			he, ok := j.encode(f.mr, fv, loc)
			if !ok {
				return r, false
			}
			r.Field(f.hidx).Set(he)
		}
	default:
		return r, j.unsupported("json: encoding %s", t)
	}
	return r, true
}

// encodeElems converts the elements of the array or slice v (stored from
// at if at.o is set) into the host array or slice r of as many elements.
func (j *jsonConv) encodeElems(mr *jsonMirror, v Value, at jsonLoc, r reflect.Value) bool {
	es := mr.t.elem.size
	for i := range r.Len() {
		var loc jsonLoc
		if at.o != nil {
			loc = jsonLoc{o: at.o, off: at.off + i*es}
		}
		he, ok := j.encode(mr.elem, viewAt(mr.t.elem, v, i*es), loc)
		if !ok {
			return false
		}
		r.Index(i).Set(he)
	}
	return true
}

// push enters a reference; a cycle is json's "encountered a cycle" error,
// naming the type json names (it starts checking 1000 references deep).
func (j *jsonConv) push(r jsonRef) bool {
	key := jsonRef{p: r.p, off: r.off, n: r.n}
	if i, ok := j.onPath[key]; ok {
		const start = 1001
		k := len(j.path) - i
		at := i
		if i < start {
			at = i + (start-i)%k
		}
		t := j.path[at].t
		j.err = j.jsonError("UnsupportedValueError", map[string]Value{"Str": strV("encountered a cycle via " + reflectTypeString(t))})
		return false
	}
	j.onPath[key] = len(j.path)
	j.path = append(j.path, r)
	return true
}

func (j *jsonConv) pop() {
	r := j.path[len(j.path)-1]
	delete(j.onPath, jsonRef{p: r.p, off: r.off, n: r.n})
	j.path = j.path[:len(j.path)-1]
}

// encodeMap converts a map: keys resolved as json resolves them, values
// converted in the order of the sorted keys.
func (j *jsonConv) encodeMap(mr *jsonMirror, v Value) (reflect.Value, bool) {
	t := mr.t
	if v.p == nil {
		return reflect.Zero(mr.ht), true
	}
	if mr.how == mUnsupported {
		j.err = j.jsonError("UnsupportedTypeError", map[string]Value{"Type": j.typeValue(t)})
		return reflect.Value{}, false
	}
	if j.gob {
		hm := reflect.MakeMapWithSize(mr.ht, v.mapObj().len())
		ok := true
		v.mapObj().each(func(k, val Value) bool {
			var hk, hv reflect.Value
			if hk, ok = j.encode(mr.key, k, jsonLoc{}); ok {
				if hv, ok = j.encode(mr.elem, val, jsonLoc{}); ok {
					hm.SetMapIndex(hk, hv)
				}
			}
			return ok
		})
		return hm, ok
	}
	if !j.push(jsonRef{p: v.p, t: t}) {
		return reflect.Value{}, false
	}
	defer j.pop()
	type ent struct {
		ks   string
		k, v Value
	}
	var ents []ent
	var failed bool
	v.mapObj().each(func(k, val Value) bool {
		e := ent{k: k, v: val}
		switch kt := t.key; {
		case mr.keyText:
			if kt.kind == kPtr && k.p == nil {
				break
			}
			b, ok := j.callBytes(kt, k, "MarshalText")
			if !ok {
				if j.cc == ctrlNext {
					msg, ok := j.errorText(j.err)
					if !ok {
						failed = true
						return false
					}
					j.err = j.m.newErrorString(fmt.Sprintf("json: encoding error for type %q: %q", reflectTypeString(t), msg))
				}
				failed = true
				return false
			}
			e.ks = string(b)
		case kt.kind == kString:
			e.ks = k.Str()
		case kt.kind.isSigned():
			e.ks = strconv.FormatInt(k.Int(), 10)
		default:
			e.ks = strconv.FormatUint(k.Uint(), 10)
		}
		ents = append(ents, e)
		return true
	})
	if failed {
		return reflect.Value{}, false
	}
	sort.SliceStable(ents, func(a, b int) bool { return ents[a].ks < ents[b].ks })
	hm := reflect.MakeMapWithSize(mr.ht, len(ents))
	for _, e := range ents {
		hv, ok := j.encode(mr.elem, e.v, jsonLoc{})
		if !ok {
			return reflect.Value{}, false
		}
		var hk reflect.Value
		switch {
		case mr.keyText || t.key.kind == kString:
			hk = reflect.ValueOf(e.ks)
		case t.key.kind.isSigned():
			hk = reflect.New(mr.key.ht).Elem()
			hk.SetInt(e.k.Int())
		default:
			hk = reflect.New(mr.key.ht).Elem()
			hk.SetUint(e.k.Uint())
		}
		hm.SetMapIndex(hk, hv)
	}
	return hm, true
}

// omitted decides omitempty and omitzero for a field as json does.
func (j *jsonConv) omitted(f jsonMirrorField, v Value, at jsonLoc) (bool, bool) {
	t := f.mr.t
	if f.omitEmpty && isEmptyJSON(t, v) {
		return true, true
	}
	if !f.omitZero {
		return false, true
	}
	switch {
	case f.isZero:
		if t.kind == kPtr && v.p == nil {
			return true, true
		}
		recv := v
		if t.kind.isAggregate() {
			recv = loadValue(t, v.obj(), v.off())
		}
		return j.callBool(t, recv, "IsZero")
	case f.isZeroPtr:
		o, off := at.o, at.off
		if o == nil {
			o, off = newObject(max(1, t.size)), 0
			storeValue(t, o, 0, v)
		}
		return j.callBool(j.m.rtypeOf(types.NewPointer(t.T)), ptrV(o, off), "IsZero")
	}
	return isZeroValue(t, v), true
}

// isEmptyJSON is json's isEmptyValue.
func isEmptyJSON(t *rtype, v Value) bool {
	switch k := t.kind; {
	case k == kArray:
		return t.len == 0
	case k == kSlice:
		return v.sliceLen() == 0
	case k == kMap:
		return v.p == nil || v.mapObj().len() == 0
	case k == kString:
		return v.a == 0
	case k == kBool || k.isInteger() || k.isFloat() || k == kIface || k == kPtr:
		return isZeroValue(t, v)
	}
	return false
}

// isZeroValue is reflect.Value.IsZero.
func isZeroValue(t *rtype, v Value) bool {
	switch k := t.kind; {
	case k == kStruct:
		for _, f := range t.fields {
			if !isZeroValue(f.t, viewAt(f.t, v, f.off)) {
				return false
			}
		}
		return true
	case k == kArray:
		for i := range t.len {
			if !isZeroValue(t.elem, viewAt(t.elem, v, i*t.elem.size)) {
				return false
			}
		}
		return true
	case k == kString:
		return v.a == 0
	case k.isComplex():
		return v.a == 0 && v.b == 0
	case k == kBool || k.isInteger() || k.isFloat():
		return v.a == 0
	}
	return v.p == nil
}

// callBool calls the method name() bool of recv (of type t).
func (j *jsonConv) callBool(t *rtype, recv Value, name string) (bool, bool) {
	fc := j.m.stringMethodAny(t, name)
	if fc == nil {
		return false, j.unsupported("json: %s has no method %s", t, name)
	}
	res, cc := j.c.g.callNested(funcV(fc.self), []Value{recv})
	if cc != ctrlNext {
		return false, j.fail(cc)
	}
	return res.Bool(), true
}

// callBytes calls the method name() ([]byte, error) of recv (of type t):
// false with j.err set if it returns an error.
func (j *jsonConv) callBytes(t *rtype, recv Value, name string) ([]byte, bool) {
	if t.kind == kIface {
		it := recv.iface()
		t, recv = it.t, it.v
	}
	fc := j.m.stringMethodAny(t, name)
	if fc == nil {
		return nil, j.unsupported("json: %s has no method %s", t, name)
	}
	res, cc := j.c.g.callNested(funcV(fc.self), []Value{recv})
	if cc != ctrlNext {
		return nil, j.fail(cc)
	}
	cells := res.obj().cells
	if cells[1].p != nil {
		j.err = cells[1]
		return nil, false
	}
	return sliceBytes(cells[0]), true
}

// callMarshal converts a Marshaler or TextMarshaler by calling its
// method.
func (j *jsonConv) callMarshal(mr *jsonMirror, v Value, at jsonLoc) (reflect.Value, bool) {
	t := mr.t
	recvT, recv := t, v
	switch {
	case mr.ptrMethod:
		recvT, recv = j.m.rtypeOf(types.NewPointer(t.T)), ptrV(at.o, at.off)
	case (t.kind == kPtr || t.kind == kIface) && v.p == nil:
		return reflect.ValueOf(json.RawMessage("null")), true
	case t.kind.isAggregate():
		recv = loadValue(t, v.obj(), v.off())
	}
	name := "MarshalJSON"
	if mr.how == mText {
		name = "MarshalText"
	}
	b, ok := j.callBytes(recvT, recv, name)
	if !ok {
		if j.cc == ctrlNext {
			j.err = j.marshalerError(t, j.err, name)
		}
		return reflect.Value{}, false
	}
	if mr.how == mText {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(string(b)); err != nil {
			return reflect.Value{}, j.unsupported("json: %v", err)
		}
		return reflect.ValueOf(json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))), true
	}
	if !json.Valid(b) {
		err := json.Compact(new(bytes.Buffer), b)
		j.err = j.marshalerError(t, j.hostError(err), "MarshalJSON")
		return reflect.Value{}, false
	}
	if b == nil {
		b = []byte{}
	}
	return reflect.ValueOf(json.RawMessage(b)), true
}

func (j *jsonConv) marshalerError(t *rtype, err Value, src string) Value {
	return j.jsonError("MarshalerError", map[string]Value{"Type": j.typeValue(t), "Err": err, "sourceFunc": strV(src)})
}

// typeValue is the reflect.Type value of t.
func (j *jsonConv) typeValue(t *rtype) Value {
	return ifaceV(j.m.reflectType(), Value{p: unsafe.Pointer(t)})
}

// jsonError makes a *json.<name> error value with the given fields.
func (j *jsonConv) jsonError(name string, fields map[string]Value) Value {
	nt := j.m.named("encoding/json", name)
	if nt == nil {
		return j.m.newErrorString("json: " + name)
	}
	rt := j.m.rtypeOf(nt)
	o := &object{cells: make([]Value, max(1, rt.size)), id: j.c.g.newID(), owner: j.c.g.key}
	for f, v := range fields {
		if off, ok := j.m.cellOffset(nt, f); ok {
			o.cells[off] = v
		}
	}
	return ifaceV(j.m.rtypeOf(types.NewPointer(nt)), ptrV(o, 0))
}

// hostError converts an error of the host json package that names no
// type.
func (j *jsonConv) hostError(err error) Value {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return j.jsonError("SyntaxError", map[string]Value{"msg": strV(se.Error()), "Offset": intV(se.Offset)})
	}
	return j.m.newErrorString(err.Error())
}

// errorText calls err's Error method.
func (j *jsonConv) errorText(err Value) (string, bool) {
	s, ok, cc := j.c.x().callStringMethodCtrl(j.c.g, err.iface(), "Error")
	if cc != ctrlNext {
		return "", j.fail(cc)
	}
	return s, ok
}

// marshal encodes the interface value v: Marshal (indent nil), MarshalIndent
// or an Encoder's Encode (newline set). On failure it returns false with
// j.err or j.cc set.
func (j *jsonConv) marshal(v Value, escapeHTML bool, indent *[2]string, newline bool) ([]byte, bool) {
	var hv reflect.Value
	if v.p != nil {
		it := v.iface()
		mr, ok := j.mirror(it.t, false, false)
		if !ok {
			return nil, false
		}
		if hv, ok = j.encode(mr, it.v, jsonLoc{}); !ok {
			return nil, false
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if indent != nil {
		enc.SetIndent(indent[0], indent[1])
	}
	var x any
	if hv.IsValid() {
		x = hv.Interface()
	}
	if err := enc.Encode(x); err != nil {
		var ute *json.UnsupportedTypeError
		if errors.As(err, &ute) {
			return nil, j.unsupported("json: the model's mirror of a value is not encodable (%v)", err)
		}
		j.err = j.hostError(err)
		return nil, false
	}
	b := buf.Bytes()
	if !newline {
		b = bytes.TrimSuffix(b, []byte("\n"))
	}
	return b, true
}

// The decoding side.

// decodeElems converts the elements of the array or slice v into the
// host array or slice r of as many elements.
func (j *jsonConv) decodeElems(mr *jsonMirror, v Value, r reflect.Value) bool {
	es := mr.t.elem.size
	for i := range r.Len() {
		he, ok := j.decode(mr.elem, viewAt(mr.t.elem, v, i*es))
		if !ok {
			return false
		}
		r.Index(i).Set(he)
	}
	return true
}

// decode converts the destination value v of mr.t to the initial host
// value json decodes into, recording where its references came from.
func (j *jsonConv) decode(mr *jsonMirror, v Value) (reflect.Value, bool) {
	t := mr.t
	r := reflect.New(mr.ht).Elem()
	switch mr.how {
	case mRaw:
		if v.p != nil {
			b := sliceBytes(v)
			if b == nil {
				b = []byte{}
			}
			r.SetBytes(b)
		}
		return r, true
	case mNumber:
		r.SetString(v.Str())
		return r, true
	case mSplice, mText, mBox, mUnsupported:
		return r, true
	case mIface:
		if v.p == nil {
			return r, true
		}
		it := v.iface()
		inner, ok := j.mirror(it.t, false, true)
		if !ok {
			return r, false
		}
		hv, ok := j.decode(inner, it.v)
		if !ok {
			return r, false
		}
		a := hv.Interface()
		j.ifaces[*(*[2]unsafe.Pointer)(unsafe.Pointer(&a))] = v
		r.Set(reflect.ValueOf(&a).Elem())
		return r, true
	}
	switch k := t.kind; {
	case k == kBool:
		r.SetBool(v.Bool())
	case k.isSigned():
		r.SetInt(v.Int())
	case k.isInteger():
		r.SetUint(v.Uint())
	case k.isFloat():
		r.SetFloat(v.Float())
	case k == kString:
		r.SetString(v.Str())
	case k.isComplex():
		r.SetComplex(v.Complex())
	case k == kPtr:
		if v.p == nil {
			return r, true
		}
		loc := jsonLoc{o: v.obj(), off: v.off(), t: t.elem}
		if p, ok := j.hostPtrs[loc]; ok {
			return p, true
		}
		p := reflect.New(mr.elem.ht)
		j.hostPtrs[loc] = p
		j.ptrs[p.UnsafePointer()] = loc
		he, ok := j.decode(mr.elem, valAt(t.elem, v.obj(), v.off()))
		if !ok {
			return r, false
		}
		p.Elem().Set(he)
		return p, true
	case k == kSlice:
		if v.p == nil {
			return r, true
		}
		s := reflect.MakeSlice(mr.ht, v.sliceLen(), v.sliceCap())
		if v.sliceCap() > 0 {
			j.slices[s.UnsafePointer()] = jsonLoc{o: v.obj(), off: v.off()}
		}
		return s, j.decodeElems(mr, v, s)
	case k == kArray:
		if !j.decodeElems(mr, v, r) {
			return r, false
		}
	case k == kMap:
		// json decodes map values into fresh elements and only adds
		// entries: the host map starts empty and its entries are merged
		// into the destination's.
		if v.p == nil {
			return r, true
		}
		hm := reflect.MakeMap(mr.ht)
		j.maps[hm.UnsafePointer()] = v.mapObj()
		return hm, true
	case k == kStruct:
		for _, f := range mr.fields {
			he, ok := j.decode(f.mr, viewAt(f.mr.t, v, f.off))
			if !ok {
				return r, false
			}
			r.Field(f.hidx).Set(he)
		}
	}
	return r, true
}

// back copies the decoded host value hv of mr into o[off].
func (j *jsonConv) back(mr *jsonMirror, hv reflect.Value, o *object, off int) bool {
	t := mr.t
	g := j.c.g
	switch mr.how {
	case mRaw:
		if hv.IsNil() {
			o.cells[off] = Value{}
		} else {
			o.cells[off] = bytesToSlice(hv.Bytes())
		}
		return true
	case mNumber:
		o.cells[off] = strV(hv.String())
		return true
	case mUnsupported:
		if !hv.IsZero() {
			return j.unsupported("json: decoding into %s", t)
		}
		return true
	case mSplice, mText, mBox:
		raw := hv.Bytes()
		if raw == nil {
			return true
		}
		return j.backRaw(mr, raw, o, off)
	case mIface:
		if hv.IsNil() {
			o.cells[off] = Value{}
			return true
		}
		a := hv.Interface()
		if orig, ok := j.ifaces[*(*[2]unsafe.Pointer)(unsafe.Pointer(&a))]; ok {
			it := orig.iface()
			if it.t.kind == kPtr {
				inner, ok := j.mirror(it.t, false, true)
				if !ok {
					return false
				}
				tmp := newObject(1)
				if !j.back(inner, hv.Elem(), tmp, 0) {
					return false
				}
			}
			o.cells[off] = orig
			return true
		}
		if mr.nonEmpty {
			return j.unsupported("json: decoding into the non-empty interface %s", t)
		}
		gv, ok := j.generic(hv.Elem())
		if !ok {
			return false
		}
		o.cells[off] = gv
		return true
	}
	switch k := t.kind; {
	case k == kBool:
		o.cells[off] = boolV(hv.Bool())
	case k.isSigned():
		o.cells[off] = intV(hv.Int())
	case k.isInteger():
		o.cells[off] = uintV(hv.Uint())
	case k == kFloat32:
		o.cells[off] = floatV(float64(float32(hv.Float())))
	case k == kFloat64:
		o.cells[off] = floatV(hv.Float())
	case k == kString:
		o.cells[off] = strV(hv.String())
	case k == kComplex64:
		c := hv.Complex()
		o.cells[off] = complexV(complex128(complex64(c)))
	case k == kComplex128:
		o.cells[off] = complexV(hv.Complex())
	case k == kChan || k == kFunc:
		// gob's mirror: left as it was
	case k == kPtr:
		if hv.IsNil() {
			o.cells[off] = Value{}
			return true
		}
		p := hv.UnsafePointer()
		if loc, ok := j.newPtrs[p]; ok {
			o.cells[off] = ptrV(loc.o, loc.off)
			return true
		}
		loc, ok := j.ptrs[p]
		if !ok {
			loc = jsonLoc{o: &object{cells: make([]Value, max(1, t.elem.size)), id: g.newID(), owner: g.key}}
		}
		j.newPtrs[p] = loc
		o.cells[off] = ptrV(loc.o, loc.off)
		return j.back(mr.elem, hv.Elem(), loc.o, loc.off)
	case k == kSlice:
		if hv.IsNil() {
			o.cells[off] = Value{}
			return true
		}
		n, cp, es := hv.Len(), hv.Cap(), t.elem.size
		var so *object
		base := 0
		if loc, ok := j.slices[hv.UnsafePointer()]; ok && cp > 0 {
			so, base = loc.o, loc.off
		} else {
			so = &object{cells: make([]Value, cp*es), id: g.newID(), owner: g.key}
		}
		if mr.elem.how == mPlain && mr.elem.ht.Kind() == reflect.Uint8 {
			for i, c := range hv.Bytes() {
				so.cells[base+i] = Value{a: uint64(c)}
			}
		} else if !j.backElems(mr, hv, so, base) {
			return false
		}
		o.cells[off] = sliceV(so, base, n, cp)
	case k == kArray:
		return j.backElems(mr, hv, o, off)
	case k == kMap:
		return j.backMap(mr, hv, o, off)
	case k == kStruct:
		for _, f := range mr.fields {
			if !j.back(f.mr, hv.Field(f.hidx), o, off+f.off) {
				return false
			}
		}
	}
	return true
}

// backElems stores the elements of the host array or slice hv at o[off:].
func (j *jsonConv) backElems(mr *jsonMirror, hv reflect.Value, o *object, off int) bool {
	for i := range hv.Len() {
		if !j.back(mr.elem, hv.Index(i), o, off+i*mr.t.elem.size) {
			return false
		}
	}
	return true
}

// backMap merges the decoded host map into the destination map (a new
// one if it was nil), in the order of the sorted keys.
func (j *jsonConv) backMap(mr *jsonMirror, hv reflect.Value, o *object, off int) bool {
	t := mr.t
	if hv.IsNil() {
		o.cells[off] = Value{}
		return true
	}
	mo, ok := j.maps[hv.UnsafePointer()]
	if !ok {
		mo = newMap(t.key, t.elem)
	}
	keys := hv.MapKeys()
	if j.gob {
		// gob's keys: no method calls, any order
		for _, hk := range keys {
			ko := newObject(max(1, t.key.size))
			vo := newObject(max(1, t.elem.size))
			if !j.back(mr.key, hk, ko, 0) || !j.back(mr.elem, hv.MapIndex(hk), vo, 0) {
				return false
			}
			mo.set(loadValue(t.key, ko, 0), loadValue(t.elem, vo, 0))
		}
		o.cells[off] = mapV(mo)
		return true
	}
	sort.Slice(keys, func(a, b int) bool {
		ka, kb := keys[a], keys[b]
		switch ka.Kind() {
		case reflect.String:
			return ka.String() < kb.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return ka.Int() < kb.Int()
		}
		return ka.Uint() < kb.Uint()
	})
	for _, hk := range keys {
		var kv Value
		switch kt := t.key; {
		case mr.keyText:
			ko := &object{cells: make([]Value, max(1, kt.size)), id: j.c.g.newID(), owner: j.c.g.key}
			if !j.callErr(j.m.rtypeOf(types.NewPointer(kt.T)), ptrV(ko, 0), "UnmarshalText", []byte(hk.String())) {
				return false
			}
			kv = loadValue(kt, ko, 0)
		case kt.kind == kString:
			kv = strV(hk.String())
		case kt.kind.isSigned():
			kv = intV(hk.Int())
		default:
			kv = uintV(hk.Uint())
		}
		vo := newObject(max(1, t.elem.size))
		if !j.back(mr.elem, hv.MapIndex(hk), vo, 0) {
			return false
		}
		mo.set(kv, loadValue(t.elem, vo, 0))
	}
	o.cells[off] = mapV(mo)
	return true
}

// backRaw gives the raw bytes of a value to an Unmarshaler, a
// TextUnmarshaler or (a recursive type) a nested unmarshal.
func (j *jsonConv) backRaw(mr *jsonMirror, raw []byte, o *object, off int) bool {
	t := mr.t
	pt := j.m.rtypeOf(types.NewPointer(t.T))
	switch mr.how {
	case mSplice:
		return j.callErr(pt, ptrV(o, off), "UnmarshalJSON", raw)
	case mText:
		switch raw[0] {
		case '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return j.unsupported("json: %v", err)
			}
			return j.callErr(pt, ptrV(o, off), "UnmarshalText", []byte(s))
		case 'n':
			switch t.kind {
			case kIface, kPtr, kMap, kSlice:
				o.cells[off] = Value{}
			}
			return true
		}
		return j.unsupported("json: decoding a JSON %s into %s (a TextUnmarshaler)", jsonKindOf(raw), t)
	}
	// mBox: a recursive type
	inner, ok := j.mirror(t, true, true)
	if !ok {
		return false
	}
	err, ok := j.unmarshalInto(inner, raw, o, off, nil)
	if !ok {
		return false
	}
	if err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return j.unsupported("json: a type error inside the recursive type %s", t)
		}
		j.err = j.hostError(err)
		return false
	}
	return j.err.p == nil
}

func jsonKindOf(raw []byte) string {
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// callErr calls the method name([]byte) error of recv: false with j.err
// set if it fails.
func (j *jsonConv) callErr(t *rtype, recv Value, name string, arg []byte) bool {
	fc := j.m.stringMethodAny(t, name)
	if fc == nil {
		return j.unsupported("json: %s has no method %s", t, name)
	}
	res, cc := j.c.g.callNested(funcV(fc.self), []Value{recv, bytesToSlice(arg)})
	if cc != ctrlNext {
		return j.fail(cc)
	}
	if res.p != nil {
		j.err = res
		return false
	}
	return true
}

// generic converts a value json decoded into an empty interface.
func (j *jsonConv) generic(hv reflect.Value) (Value, bool) {
	m := j.m
	if !hv.IsValid() {
		return Value{}, true
	}
	switch x := hv.Interface().(type) {
	case nil:
		return Value{}, true
	case bool:
		return ifaceV(m.rtypeOf(types.Typ[types.Bool]), boolV(x)), true
	case float64:
		return ifaceV(m.rtypeOf(types.Typ[types.Float64]), floatV(x)), true
	case string:
		return ifaceV(m.stringType, strV(x)), true
	case json.Number:
		if jt := m.jsonTypes(); jt.number != nil {
			return ifaceV(jt.number, strV(string(x))), true
		}
	case []any:
		st := m.rtypeOf(types.NewSlice(m.emptyIface.T))
		so := &object{cells: make([]Value, len(x)), id: j.c.g.newID(), owner: j.c.g.key}
		for i := range x {
			e, ok := j.generic(reflect.ValueOf(x[i]))
			if !ok {
				return Value{}, false
			}
			so.cells[i] = e
		}
		return ifaceV(st, sliceV(so, 0, len(x), len(x))), true
	case map[string]any:
		mt := m.rtypeOf(types.NewMap(types.Typ[types.String], m.emptyIface.T))
		mo := newMap(mt.key, mt.elem)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e, ok := j.generic(reflect.ValueOf(x[k]))
			if !ok {
				return Value{}, false
			}
			mo.set(strV(k), e)
		}
		return ifaceV(mt, mapV(mo)), true
	}
	return Value{}, j.unsupported("json: decoded a %s into an interface", hv.Type())
}

// unmarshal decodes data into the destination pointer dst (an interface
// value), as json.Unmarshal; dec configures the host decoder (nil: plain
// Unmarshal). It returns the error Unmarshal returns, or false with j.cc
// set.
func (j *jsonConv) unmarshal(data []byte, dst Value, dec func(*json.Decoder)) (Value, bool) {
	if !json.Valid(data) {
		var x any
		return j.hostError(json.Unmarshal(data, &x)), true
	}
	if dst.p == nil {
		return j.jsonError("InvalidUnmarshalError", nil), true
	}
	it := dst.iface()
	if it.t.kind != kPtr || it.v.p == nil {
		return j.jsonError("InvalidUnmarshalError", map[string]Value{"Type": j.typeValue(it.t)}), true
	}
	mr, ok := j.mirror(it.t.elem, true, true)
	if !ok {
		return Value{}, false
	}
	err, ok := j.unmarshalInto(mr, data, it.v.obj(), it.v.off(), dec)
	if !ok {
		return Value{}, false
	}
	if j.err.p != nil {
		return j.err, true
	}
	if err == nil {
		return Value{}, true
	}
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return j.typeError(mr, ute)
	}
	if strings.Contains(err.Error(), "struct tag") || strings.Contains(err.Error(), "embedded pointer") {
		return Value{}, j.unsupported("json: the error %q names a host type", err)
	}
	return j.hostError(err), true
}

// unmarshalInto decodes data into o[off] (of mr.t) through the mirror and
// copies the result back (also when decoding reports a type error, as
// json leaves what it decoded).
func (j *jsonConv) unmarshalInto(mr *jsonMirror, data []byte, o *object, off int, dec func(*json.Decoder)) (error, bool) {
	hv, ok := j.decode(mr, valAt(mr.t, o, off))
	if !ok {
		return nil, false
	}
	p := reflect.New(mr.ht)
	p.Elem().Set(hv)
	var err error
	if dec != nil {
		d := json.NewDecoder(bytes.NewReader(data))
		dec(d)
		err = d.Decode(p.Interface())
	} else {
		err = json.Unmarshal(data, p.Interface())
	}
	var ute *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &ute) {
		return err, true
	}
	if !j.back(mr, p.Elem(), o, off) {
		// j.err: an Unmarshaler's error; j.cc: the call stops
		return nil, j.cc == ctrlNext
	}
	return err, true
}

// typeError converts a host *json.UnmarshalTypeError: its struct, field
// path and type are found by walking the destination's mirror along the
// error's field path.
func (j *jsonConv) typeError(root *jsonMirror, ute *json.UnmarshalTypeError) (Value, bool) {
	cur := root
	structName := ""
	var fields []string
	strip := func(mr *jsonMirror) *jsonMirror {
		for mr.how == mPlain && (mr.t.kind == kPtr || mr.t.kind == kSlice || mr.t.kind == kArray || mr.t.kind == kMap) {
			mr = mr.elem
		}
		return mr
	}
	if ute.Field != "" {
		embedded := false
		for _, name := range strings.Split(ute.Field, ".") {
			s := strip(cur)
			if s.how != mPlain || s.t.kind != kStruct {
				return Value{}, j.unsupported("json: cannot place the type error %q", ute.Error())
			}
			if !embedded {
				structName = ""
				if nt, ok := types.Unalias(s.t.T).(*types.Named); ok {
					structName = nt.Obj().Name()
				}
			}
			var next *jsonMirrorField
			for i := range s.fields {
				f := &s.fields[i]
				jname := f.hostName
				tag, _, _ := strings.Cut(reflect.StructTag(s.ht.Field(f.hidx).Tag).Get("json"), ",")
				if f.promoted && f.hostName == name || !f.promoted && (tag == name || tag == "" && jname == name) {
					next = f
					break
				}
			}
			if next == nil {
				return Value{}, j.unsupported("json: cannot place the type error %q", ute.Error())
			}
			embedded = next.promoted
			if next.promoted {
				fields = append(fields, next.name)
			} else {
				fields = append(fields, name)
			}
			cur = next.mr
		}
	}
	var t *rtype
	for mr := cur; mr != nil; mr = mr.elem {
		if mr.ht == ute.Type {
			t = mr.t
			break
		}
		if mr.key != nil && mr.key.ht == ute.Type {
			t = mr.key.t
			break
		}
		if mr.how != mPlain {
			break
		}
	}
	if t == nil {
		return Value{}, j.unsupported("json: cannot name the type of the type error %q", ute.Error())
	}
	return j.jsonError("UnmarshalTypeError", map[string]Value{
		"Value": strV(ute.Value), "Type": j.typeValue(t), "Offset": intV(ute.Offset),
		"Struct": strV(structName), "Field": strV(strings.Join(fields, ".")),
	}), true
}

// Encoders and decoders.

// jsonLayout holds cell offsets of json.Encoder and json.Decoder.
type jsonLayout struct {
	enc, dec                                  *rtype
	encW, encErr, encEscape, encPrefix, encIn int
	decR, decBuf, decScanned, decErr          int
	decUseNumber, decDisallow                 int
	decTokState, decTokStack                  int
	ok                                        bool
}

func (m *machine) jsonLayout() *jsonLayout {
	if m.jsonL != nil {
		return m.jsonL
	}
	l := &jsonLayout{}
	et, dt := m.named("encoding/json", "Encoder"), m.named("encoding/json", "Decoder")
	if et != nil && dt != nil {
		l.enc, l.dec = m.rtypeOf(et), m.rtypeOf(dt)
		ok := true
		off := func(t types.Type, path ...string) int {
			o, found := m.cellOffset(t, path...)
			ok = ok && found
			return o
		}
		l.encW, l.encErr, l.encEscape = off(et, "w"), off(et, "err"), off(et, "escapeHTML")
		l.encPrefix, l.encIn = off(et, "indentPrefix"), off(et, "indentValue")
		l.decR, l.decBuf, l.decScanned, l.decErr = off(dt, "r"), off(dt, "buf"), off(dt, "scanned"), off(dt, "err")
		l.decUseNumber, l.decDisallow = off(dt, "d", "useNumber"), off(dt, "d", "disallowUnknownFields")
		l.decTokState, l.decTokStack = off(dt, "tokenState"), off(dt, "tokenStack")
		l.ok = ok
	}
	m.jsonL = l
	return l
}

// writeAll writes b to the io.Writer w (os.Stdout/os.Stderr: the
// captured output; otherwise its Write method), returning Write's error.
func (j *jsonConv) writeAll(w Value, b []byte) (Value, bool) {
	if w.p == nil {
		return Value{}, j.fail(j.c.nilPanic())
	}
	it := w.iface()
	if j.c.x().isStdStream(it.v) {
		j.c.x().writeOutput(j.c.g, false, string(b))
		return Value{}, true
	}
	fc := j.m.stringMethodAny(it.t, "Write")
	if fc == nil {
		return Value{}, j.unsupported("json: writing to %s (no Write method)", it.t)
	}
	res, cc := j.c.g.callNested(funcV(fc.self), []Value{it.v, bytesToSlice(b)})
	if cc != ctrlNext {
		return Value{}, j.fail(cc)
	}
	return res.obj().cells[1], true
}

// decoderRead reads more input for a Decoder: the bytes read, whether
// the reader reported io.EOF, and another error it reported.
func (j *jsonConv) decoderRead(r Value) ([]byte, bool, Value, bool) {
	const minRead = 512
	got, n, errV, ok := j.callRead(r, minRead)
	if !ok {
		return nil, false, Value{}, false
	}
	if n < 0 || n > minRead {
		return nil, false, Value{}, j.fail(j.c.throwString("encoding/json: invalid Read count"))
	}
	if errV.p != nil && j.isIOErr(errV, "EOF") {
		return got, true, Value{}, true
	}
	return got, false, errV, true
}

// callRead calls the Read method of the io.Reader r with a buffer of size
// bytes: the bytes read (nil if the count is out of range), the count and
// the error Read returned.
func (j *jsonConv) callRead(r Value, size int) ([]byte, int, Value, bool) {
	if r.p == nil {
		return nil, 0, Value{}, j.fail(j.c.nilPanic())
	}
	it := r.iface()
	fc := j.m.stringMethodAny(it.t, "Read")
	if fc == nil {
		return nil, 0, Value{}, j.unsupported("json: reading from %s (no Read method)", it.t)
	}
	buf := bytesToSlice(make([]byte, size))
	res, cc := j.c.g.callNested(funcV(fc.self), []Value{it.v, buf})
	if cc != ctrlNext {
		return nil, 0, Value{}, j.fail(cc)
	}
	n := int(res.obj().cells[0].Int())
	var got []byte
	if n >= 0 && n <= size {
		got = sliceBytes(sliceV(buf.obj(), 0, n, n))
	}
	return got, n, res.obj().cells[1], true
}

// isIOErr reports whether err is the interpreter's io.<name>.
func (j *jsonConv) isIOErr(err Value, name string) bool {
	g := j.m.globalByName("io", name)
	if g == nil {
		return false
	}
	eq, _ := equal(j.m.errorIface, err, j.m.global(g).cells[0])
	return eq
}

func (j *jsonConv) ioErr(name string) Value {
	if g := j.m.globalByName("io", name); g != nil {
		return j.m.global(g).cells[0]
	}
	return j.m.newErrorString(name)
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// decodeNext implements Decoder.Decode: it reads until the buffer holds a
// complete value (as json's Decoder, a value that is not an object or an
// array needs the byte after it or the end of the input), then unmarshals
// it. Read errors other than io.EOF, syntax errors and the end of the
// input stick, as in json's Decoder.
func (j *jsonConv) decodeNext(l *jsonLayout, o *object, off int, dst Value) (Value, bool) {
	cells := o.cells[off:]
	if cells[l.decErr].p != nil {
		return cells[l.decErr], true
	}
	data := sliceBytes(cells[l.decBuf])
	eof := false
	for {
		d := json.NewDecoder(bytes.NewReader(data))
		var raw json.RawMessage
		err := d.Decode(&raw)
		switch {
		case err == nil:
			n := int(d.InputOffset())
			if end := raw[len(raw)-1]; n < len(data) || eof || end == '}' || end == ']' {
				cells[l.decBuf] = bytesToSlice(data[n:])
				cells[l.decScanned] = intV(cells[l.decScanned].Int() + int64(n))
				useNumber, disallow := cells[l.decUseNumber].Bool(), cells[l.decDisallow].Bool()
				return j.unmarshal(data[:n], dst, func(d *json.Decoder) {
					if useNumber {
						d.UseNumber()
					}
					if disallow {
						d.DisallowUnknownFields()
					}
				})
			}
		case err == io.EOF && eof:
			cells[l.decErr] = j.ioErr("EOF")
			return cells[l.decErr], true
		case err == io.ErrUnexpectedEOF && eof:
			cells[l.decErr] = j.ioErr("ErrUnexpectedEOF")
			return cells[l.decErr], true
		case err != io.EOF && err != io.ErrUnexpectedEOF:
			cells[l.decErr] = j.hostError(err)
			return cells[l.decErr], true
		}
		more, atEOF, rerr, ok := j.decoderRead(cells[l.decR])
		if !ok {
			return Value{}, false
		}
		data = append(data, more...)
		cells[l.decBuf] = bytesToSlice(data)
		if rerr.p != nil {
			cells[l.decErr] = rerr
			return rerr, true
		}
		eof = atEOF
	}
}

// The states of json's Decoder between tokens (Decoder.tokenState).
const (
	tokenTopValue = iota
	tokenArrayStart
	tokenArrayValue
	tokenArrayComma
	tokenObjectStart
	tokenObjectKey
	tokenObjectColon
	tokenObjectValue
	tokenObjectComma
)

// peek is json's Decoder.peek: it skips white space and returns the next
// byte, reading more input as needed; errV is the read error (io.EOF
// included) when the input has no more bytes.
func (j *jsonConv) peek(l *jsonLayout, cells []Value) (byte, Value, bool) {
	var pending Value
	for {
		data := sliceBytes(cells[l.decBuf])
		i := 0
		for i < len(data) && isJSONSpace(data[i]) {
			i++
		}
		if i > 0 {
			cells[l.decBuf] = bytesToSlice(data[i:])
			cells[l.decScanned] = intV(cells[l.decScanned].Int() + int64(i))
		}
		if i < len(data) {
			return data[i], Value{}, true
		}
		if pending.p != nil {
			return 0, pending, true
		}
		more, eof, rerr, ok := j.decoderRead(cells[l.decR])
		if !ok {
			return 0, Value{}, false
		}
		cells[l.decBuf] = bytesToSlice(more)
		switch {
		case rerr.p != nil:
			pending = rerr
		case eof:
			pending = j.ioErr("EOF")
		}
	}
}

// skipByte consumes the byte peek returned.
func skipByte(l *jsonLayout, cells []Value) {
	data := sliceBytes(cells[l.decBuf])
	cells[l.decBuf] = bytesToSlice(data[1:])
	cells[l.decScanned] = intV(cells[l.decScanned].Int() + 1)
}

func (j *jsonConv) tokSyntaxError(l *jsonLayout, cells []Value, msg string) Value {
	return j.jsonError("SyntaxError", map[string]Value{"msg": strV(msg), "Offset": cells[l.decScanned]})
}

// decodeValue is Decoder.Decode: decodeNext between json's token states.
func (j *jsonConv) decodeValue(l *jsonLayout, o *object, off int, dst Value) (Value, bool) {
	cells := o.cells[off:]
	if cells[l.decErr].p != nil {
		return cells[l.decErr], true
	}
	switch st := cells[l.decTokState].Int(); st {
	case tokenArrayComma, tokenObjectColon:
		c, errV, ok := j.peek(l, cells)
		if !ok || errV.p != nil {
			return errV, ok
		}
		want, next, msg := byte(','), tokenArrayValue, "expected comma after array element"
		if st == tokenObjectColon {
			want, next, msg = ':', tokenObjectValue, "expected colon after object key"
		}
		if c != want {
			return j.tokSyntaxError(l, cells, msg), true
		}
		skipByte(l, cells)
		cells[l.decTokState] = intV(int64(next))
	}
	if !tokenValueAllowed(cells[l.decTokState].Int()) {
		return j.tokSyntaxError(l, cells, "not at beginning of value"), true
	}
	err, ok := j.decodeNext(l, o, off, dst)
	if ok && (err.p == nil || !j.isStickyErr(cells[l.decErr], err)) {
		tokenValueEnd(l, cells)
	}
	return err, ok
}

// tokenValueAllowed is json's Decoder.tokenValueAllowed for the token
// state st.
func tokenValueAllowed(st int64) bool {
	switch st {
	case tokenTopValue, tokenArrayStart, tokenArrayValue, tokenObjectValue:
		return true
	}
	return false
}

// tokenValueEnd is json's Decoder.tokenValueEnd: the state after a value.
func tokenValueEnd(l *jsonLayout, cells []Value) {
	switch cells[l.decTokState].Int() {
	case tokenArrayStart, tokenArrayValue:
		cells[l.decTokState] = intV(tokenArrayComma)
	case tokenObjectValue:
		cells[l.decTokState] = intV(tokenObjectComma)
	}
}

// isStickyErr reports whether err is the Decoder's sticky error (a read
// or syntax error: Decode returned before tokenValueEnd).
func (j *jsonConv) isStickyErr(sticky, err Value) bool {
	return sticky.p != nil && sticky.p == err.p
}

// token is Decoder.Token.
func (j *jsonConv) token(l *jsonLayout, o *object, off int) (Value, Value, bool) {
	m := j.m
	cells := o.cells[off:]
	state := func() int { return int(cells[l.decTokState].Int()) }
	set := func(s int) { cells[l.decTokState] = intV(int64(s)) }
	stack := func() []int {
		var s []int
		for _, v := range sliceElems(cells[l.decTokStack]) {
			s = append(s, int(v.Int()))
		}
		return s
	}
	allowed := func() bool { return tokenValueAllowed(int64(state())) }
	delim := func(c byte) Value {
		if dt := m.named("encoding/json", "Delim"); dt != nil {
			return ifaceV(m.rtypeOf(dt), intV(int64(c)))
		}
		return ifaceV(m.rtypeOf(types.Typ[types.Int32]), intV(int64(c)))
	}
	tokErr := func(c byte) (Value, Value, bool) {
		var context string
		switch state() {
		case tokenTopValue, tokenArrayStart, tokenArrayValue, tokenObjectValue:
			context = " looking for beginning of value"
		case tokenArrayComma:
			context = " after array element"
		case tokenObjectKey:
			context = " looking for beginning of object key string"
		case tokenObjectColon:
			context = " after object key"
		case tokenObjectComma:
			context = " after object key:value pair"
		}
		q := "'" + strings.Trim(strconv.Quote(string(c)), `"`) + "'"
		switch c {
		case '\'':
			q = `'\''`
		case '"':
			q = `'"'`
		}
		return Value{}, j.tokSyntaxError(l, cells, "invalid character "+q+context), true
	}
	decodeInto := func(t *rtype) (Value, Value, bool) {
		vo := newObject(1)
		err, ok := j.decodeValue(l, o, off, ifaceV(m.rtypeOf(types.NewPointer(t.T)), ptrV(vo, 0)))
		if !ok || err.p != nil {
			return Value{}, err, ok
		}
		return vo.cells[0], Value{}, true
	}
	for {
		c, errV, ok := j.peek(l, cells)
		if !ok || errV.p != nil {
			return Value{}, errV, ok
		}
		switch c {
		case '[', '{':
			if !allowed() {
				return tokErr(c)
			}
			skipByte(l, cells)
			cells[l.decTokStack] = intsV(append(stack(), state()))
			if c == '[' {
				set(tokenArrayStart)
			} else {
				set(tokenObjectStart)
			}
			return delim(c), Value{}, true
		case ']', '}':
			if c == ']' && state() != tokenArrayStart && state() != tokenArrayComma ||
				c == '}' && state() != tokenObjectStart && state() != tokenObjectComma {
				return tokErr(c)
			}
			skipByte(l, cells)
			s := stack()
			set(s[len(s)-1])
			cells[l.decTokStack] = intsV(s[:len(s)-1])
			tokenValueEnd(l, cells)
			return delim(c), Value{}, true
		case ':':
			if state() != tokenObjectColon {
				return tokErr(c)
			}
			skipByte(l, cells)
			set(tokenObjectValue)
			continue
		case ',':
			switch state() {
			case tokenArrayComma:
				skipByte(l, cells)
				set(tokenArrayValue)
				continue
			case tokenObjectComma:
				skipByte(l, cells)
				set(tokenObjectKey)
				continue
			}
			return tokErr(c)
		case '"':
			if state() == tokenObjectStart || state() == tokenObjectKey {
				old := state()
				set(tokenTopValue)
				v, err, ok := decodeInto(m.stringType)
				set(old)
				if !ok || err.p != nil {
					return Value{}, err, ok
				}
				set(tokenObjectColon)
				return ifaceV(m.stringType, v), Value{}, true
			}
		}
		if !allowed() {
			return tokErr(c)
		}
		return decodeInto(m.emptyIface)
	}
}

func jsonModel() model {
	type jc = jsonConv
	// bytesRet returns ([]byte, error).
	bytesRet := func(c *icall, j *jc, b []byte, ok bool) ctrl {
		if !ok {
			if j.cc != ctrlNext {
				return j.cc
			}
			return c.retN(Value{}, j.err)
		}
		return c.retN(bytesToSlice(b), Value{})
	}
	// writeBuf writes to a *bytes.Buffer (Indent, Compact, HTMLEscape).
	writeBuf := func(c *icall, j *jc, dst Value, b []byte) (Value, bool) {
		if dst.p == nil {
			return Value{}, j.fail(c.nilPanic())
		}
		bt := c.m().ptrTo("bytes", "Buffer")
		if bt == nil {
			return Value{}, j.unsupported("json: bytes.Buffer is not loaded")
		}
		return j.writeAll(ifaceV(bt, dst), b)
	}
	layout := func(c *icall) (*jsonLayout, *object, int, bool) {
		l := c.m().jsonLayout()
		o, off, ok := c.ptrArg(0)
		return l, o, off, l.ok && ok
	}
	errField := func(f func(c *icall, o *object, off int, m *machine) string) intrinsicFactory {
		return simple(func(c *icall) ctrl {
			o, off, ok := c.ptrArg(0)
			if !ok {
				return c.nilPanic()
			}
			return c.ret(strV(f(c, o, off, c.m())))
		})
	}
	cellStr := func(m *machine, t string, o *object, off int, field string) string {
		fo, _ := m.cellOffset(m.named("encoding/json", t), field)
		return o.cells[off+fo].Str()
	}
	cellType := func(m *machine, t string, o *object, off int) *rtype {
		fo, _ := m.cellOffset(m.named("encoding/json", t), "Type")
		v := o.cells[off+fo]
		if v.p == nil {
			return nil
		}
		return (*rtype)(v.iface().v.p)
	}
	typeName := func(t *rtype) string {
		if t == nil {
			return "<nil>"
		}
		return reflectTypeString(t)
	}
	return model{
		natives: map[string]any{
			"encoding/json.Valid": json.Valid,
		},
		funcs: map[string]intrinsicFactory{
			"encoding/json.Marshal": nests(simple(func(c *icall) ctrl {
				j := newJSONConv(c)
				b, ok := j.marshal(c.args[0], true, nil, false)
				return bytesRet(c, j, b, ok)
			}), true),
			"encoding/json.MarshalIndent": nests(simple(func(c *icall) ctrl {
				j := newJSONConv(c)
				b, ok := j.marshal(c.args[0], true, &[2]string{c.args[1].Str(), c.args[2].Str()}, false)
				return bytesRet(c, j, b, ok)
			}), true),
			"encoding/json.Unmarshal": nests(simple(func(c *icall) ctrl {
				j := newJSONConv(c)
				err, ok := j.unmarshal(sliceBytes(c.args[0]), c.args[1], nil)
				return j.errRet(err, ok)
			}), false),
			"encoding/json.Indent": nests(simple(func(c *icall) ctrl {
				j := newJSONConv(c)
				var buf bytes.Buffer
				if err := json.Indent(&buf, sliceBytes(c.args[1]), c.args[2].Str(), c.args[3].Str()); err != nil {
					return c.ret(j.hostError(err))
				}
				_, ok := writeBuf(c, j, c.args[0], buf.Bytes())
				return j.errRet(Value{}, ok)
			}), false),
			"encoding/json.Compact": nests(simple(func(c *icall) ctrl {
				j := newJSONConv(c)
				var buf bytes.Buffer
				if err := json.Compact(&buf, sliceBytes(c.args[1])); err != nil {
					return c.ret(j.hostError(err))
				}
				_, ok := writeBuf(c, j, c.args[0], buf.Bytes())
				return j.errRet(Value{}, ok)
			}), false),
			"encoding/json.HTMLEscape": nests(simple(func(c *icall) ctrl {
				j := newJSONConv(c)
				var buf bytes.Buffer
				json.HTMLEscape(&buf, sliceBytes(c.args[1]))
				if _, ok := writeBuf(c, j, c.args[0], buf.Bytes()); !ok {
					return j.cc
				}
				return c.ret(Value{})
			}), false),
			"encoding/json.NewEncoder": simple(func(c *icall) ctrl {
				l := c.m().jsonLayout()
				if !l.ok {
					return c.g.unsupported(c.pos, "json: unexpected layout of json.Encoder")
				}
				o := &object{cells: make([]Value, l.enc.size), id: c.g.newID(), owner: c.g.key}
				o.cells[l.encW] = c.args[0]
				o.cells[l.encEscape] = boolV(true)
				return c.ret(ptrV(o, 0))
			}),
			"(*encoding/json.Encoder).SetEscapeHTML": simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				o.cells[off+l.encEscape] = c.args[1]
				return c.ret(Value{})
			}),
			"(*encoding/json.Encoder).SetIndent": simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				o.cells[off+l.encPrefix] = c.args[1]
				o.cells[off+l.encIn] = c.args[2]
				return c.ret(Value{})
			}),
			"(*encoding/json.Encoder).Encode": nests(simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				cells := o.cells[off:]
				if cells[l.encErr].p != nil {
					return c.ret(cells[l.encErr])
				}
				j := newJSONConv(c)
				var indent *[2]string
				if p, in := cells[l.encPrefix].Str(), cells[l.encIn].Str(); p != "" || in != "" {
					indent = &[2]string{p, in}
				}
				b, ok := j.marshal(c.args[1], cells[l.encEscape].Bool(), indent, true)
				if !ok {
					return j.errRet(Value{}, false)
				}
				err, ok := j.writeAll(cells[l.encW], b)
				if ok && err.p != nil {
					cells[l.encErr] = err
				}
				return j.errRet(err, ok)
			}), false),
			"encoding/json.NewDecoder": simple(func(c *icall) ctrl {
				l := c.m().jsonLayout()
				if !l.ok {
					return c.g.unsupported(c.pos, "json: unexpected layout of json.Decoder")
				}
				o := &object{cells: make([]Value, l.dec.size), id: c.g.newID(), owner: c.g.key}
				o.cells[l.decR] = c.args[0]
				return c.ret(ptrV(o, 0))
			}),
			"(*encoding/json.Decoder).UseNumber": simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				o.cells[off+l.decUseNumber] = boolV(true)
				return c.ret(Value{})
			}),
			"(*encoding/json.Decoder).DisallowUnknownFields": simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				o.cells[off+l.decDisallow] = boolV(true)
				return c.ret(Value{})
			}),
			"(*encoding/json.Decoder).InputOffset": simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				return c.ret(o.cells[off+l.decScanned])
			}),
			"(*encoding/json.Decoder).Decode": nests(simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				j := newJSONConv(c)
				err, ok := j.decodeValue(l, o, off, c.args[1])
				return j.errRet(err, ok)
			}), false),
			"(*encoding/json.Decoder).Token": nests(simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				j := newJSONConv(c)
				tok, err, ok := j.token(l, o, off)
				if !ok {
					if j.cc != ctrlNext {
						return j.cc
					}
					return c.retN(Value{}, j.err)
				}
				return c.retN(tok, err)
			}), false),
			"(*encoding/json.Decoder).Buffered": nests(simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				// bytes.NewReader(the unread input), run by the interpreter
				m := c.m()
				var fn *ssa.Function
				if p := m.prog.SSA.ImportedPackage("bytes"); p != nil {
					fn = p.Func("NewReader")
				}
				rt := m.ptrTo("bytes", "Reader")
				if fn == nil || rt == nil {
					return c.g.unsupported(c.pos, "%s: bytes.NewReader is not loaded", c.name())
				}
				r, cc := c.g.callNested(funcV(m.code(fn).self), []Value{o.cells[off+l.decBuf]})
				if cc != ctrlNext {
					return cc
				}
				return c.ret(ifaceV(rt, r))
			}), true),
			"(encoding/json.Delim).String": simple(func(c *icall) ctrl {
				return c.ret(strV(string(rune(c.args[0].Int()))))
			}),
			"(*encoding/json.Decoder).More": nests(simple(func(c *icall) ctrl {
				l, o, off, ok := layout(c)
				if !ok {
					return c.nilPanic()
				}
				j := newJSONConv(c)
				b, errV, ok := j.peek(l, o.cells[off:])
				if !ok {
					return j.cc
				}
				return c.ret(boolV(errV.p == nil && b != ']' && b != '}'))
			}), false),
			"(*encoding/json.SyntaxError).Error": errField(func(c *icall, o *object, off int, m *machine) string {
				return cellStr(m, "SyntaxError", o, off, "msg")
			}),
			"(*encoding/json.UnmarshalTypeError).Error": errField(func(c *icall, o *object, off int, m *machine) string {
				s := func(f string) string { return cellStr(m, "UnmarshalTypeError", o, off, f) }
				t := typeName(cellType(m, "UnmarshalTypeError", o, off))
				if s("Struct") != "" || s("Field") != "" {
					return "json: cannot unmarshal " + s("Value") + " into Go struct field " + s("Struct") + "." + s("Field") + " of type " + t
				}
				return "json: cannot unmarshal " + s("Value") + " into Go value of type " + t
			}),
			"(*encoding/json.InvalidUnmarshalError).Error": errField(func(c *icall, o *object, off int, m *machine) string {
				t := cellType(m, "InvalidUnmarshalError", o, off)
				switch {
				case t == nil:
					return "json: Unmarshal(nil)"
				case t.kind != kPtr:
					return "json: Unmarshal(non-pointer " + reflectTypeString(t) + ")"
				}
				return "json: Unmarshal(nil " + reflectTypeString(t) + ")"
			}),
			"(*encoding/json.UnsupportedTypeError).Error": errField(func(c *icall, o *object, off int, m *machine) string {
				return "json: unsupported type: " + typeName(cellType(m, "UnsupportedTypeError", o, off))
			}),
			"(*encoding/json.UnsupportedValueError).Error": errField(func(c *icall, o *object, off int, m *machine) string {
				return "json: unsupported value: " + cellStr(m, "UnsupportedValueError", o, off, "Str")
			}),
			"(*encoding/json.MarshalerError).Error": nests(simple(func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				m := c.m()
				src := cellStr(m, "MarshalerError", o, off, "sourceFunc")
				if src == "" {
					src = "MarshalJSON"
				}
				eo, _ := m.cellOffset(m.named("encoding/json", "MarshalerError"), "Err")
				errV := o.cells[off+eo]
				if errV.p == nil {
					return c.nilPanic()
				}
				msg, _, cc := c.x().callStringMethodCtrl(c.g, errV.iface(), "Error")
				if cc != ctrlNext {
					return cc
				}
				return c.ret(strV("json: error calling " + src + " for type " + typeName(cellType(m, "MarshalerError", o, off)) + ": " + msg))
			}), true),
			"(*encoding/json.MarshalerError).Unwrap": simple(func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				eo, _ := c.m().cellOffset(c.m().named("encoding/json", "MarshalerError"), "Err")
				return c.ret(o.cells[off+eo])
			}),
			"(encoding/json.Number).String": simple(func(c *icall) ctrl { return c.ret(c.args[0]) }),
			"(encoding/json.Number).Float64": simple(func(c *icall) ctrl {
				f, err := strconv.ParseFloat(c.args[0].Str(), 64)
				return c.retN(floatV(f), c.m().nativeErrorOrNil(c, err))
			}),
			"(encoding/json.Number).Int64": simple(func(c *icall) ctrl {
				n, err := strconv.ParseInt(c.args[0].Str(), 10, 64)
				return c.retN(intV(n), c.m().nativeErrorOrNil(c, err))
			}),
			"(encoding/json.RawMessage).MarshalJSON": simple(func(c *icall) ctrl {
				if c.args[0].p == nil {
					return c.retN(bytesToSlice([]byte("null")), Value{})
				}
				return c.retN(c.args[0], Value{})
			}),
			"(*encoding/json.RawMessage).UnmarshalJSON": simple(func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.ret(c.m().newErrorString("json.RawMessage: UnmarshalJSON on nil pointer"))
				}
				o.cells[off] = bytesToSlice(sliceBytes(c.args[1]))
				return c.ret(Value{})
			}),
		},
	}
}

// reflectTypeString is t's String as reflect prints it: byte and rune
// are uint8 and int32.
func reflectTypeString(t *rtype) string {
	return byteRune.ReplaceAllStringFunc(t.String(), func(s string) string {
		if strings.HasSuffix(s, "byte") {
			return s[:len(s)-4] + "uint8"
		}
		return s[:len(s)-4] + "int32"
	})
}

// byteRune matches the predeclared byte and rune in a type's string (not
// a package's type of that name).
var byteRune = regexp.MustCompile(`(^|[^.\w])(byte|rune)\b`)

// nativeErrorOrNil converts a native error (nil: the nil error).
func (m *machine) nativeErrorOrNil(c *icall, err error) Value {
	if err == nil {
		return Value{}
	}
	return m.nativeError(c, err)
}
