package explore

import (
	"bytes"
	"math"
	"math/bits"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// Native pure functions: leaf functions of the standard library without
// side effects, called directly (through reflection) instead of being
// interpreted. Arguments and results are converted between interpreter
// values and Go values by their types; a function whose signature needs a
// conversion that is not supported stays interpreted (or unsupported, for
// opaque packages).
//
// A model lists its natives in model.natives. The packages modelled by
// natives alone (unicode, unicode/utf8, unicode/utf16, math, math/bits,
// bytes, path, path/filepath) share one model, pureModel, here; strings
// and strconv list theirs in model_strings.go and model_strconv.go.

// pureModel is the model of the packages modelled by native pure
// functions alone.
func pureModel() model {
	return model{natives: map[string]any{
		// unicode
		"unicode.IsDigit": unicode.IsDigit, "unicode.IsLetter": unicode.IsLetter, "unicode.IsLower": unicode.IsLower,
		"unicode.IsUpper": unicode.IsUpper, "unicode.IsSpace": unicode.IsSpace, "unicode.IsPunct": unicode.IsPunct,
		"unicode.IsNumber": unicode.IsNumber, "unicode.IsPrint": unicode.IsPrint, "unicode.IsGraphic": unicode.IsGraphic,
		"unicode.IsControl": unicode.IsControl, "unicode.IsMark": unicode.IsMark, "unicode.IsSymbol": unicode.IsSymbol,
		"unicode.IsTitle": unicode.IsTitle, "unicode.ToLower": unicode.ToLower, "unicode.ToUpper": unicode.ToUpper,
		"unicode.ToTitle": unicode.ToTitle, "unicode.SimpleFold": unicode.SimpleFold,
		"unicode/utf8.RuneLen": utf8.RuneLen, "unicode/utf8.RuneCountInString": utf8.RuneCountInString,
		"unicode/utf8.RuneCount": utf8.RuneCount, "unicode/utf8.ValidString": utf8.ValidString, "unicode/utf8.Valid": utf8.Valid,
		"unicode/utf8.DecodeRuneInString": utf8.DecodeRuneInString, "unicode/utf8.DecodeRune": utf8.DecodeRune,
		"unicode/utf8.DecodeLastRuneInString": utf8.DecodeLastRuneInString, "unicode/utf8.DecodeLastRune": utf8.DecodeLastRune,
		"unicode/utf8.ValidRune": utf8.ValidRune, "unicode/utf8.AppendRune": utf8.AppendRune,
		"unicode/utf8.FullRuneInString": utf8.FullRuneInString, "unicode/utf8.RuneStart": utf8.RuneStart,
		"unicode/utf16.IsSurrogate": utf16.IsSurrogate,
		// math
		"math.Abs": math.Abs, "math.Ceil": math.Ceil, "math.Floor": math.Floor, "math.Trunc": math.Trunc, "math.Round": math.Round,
		"math.RoundToEven": math.RoundToEven, "math.Sqrt": math.Sqrt, "math.Cbrt": math.Cbrt, "math.Pow": math.Pow,
		"math.Exp": math.Exp, "math.Exp2": math.Exp2, "math.Log": math.Log, "math.Log2": math.Log2, "math.Log10": math.Log10,
		"math.Log1p": math.Log1p, "math.Expm1": math.Expm1, "math.Sin": math.Sin, "math.Cos": math.Cos, "math.Tan": math.Tan,
		"math.Asin": math.Asin, "math.Acos": math.Acos, "math.Atan": math.Atan, "math.Atan2": math.Atan2, "math.Sinh": math.Sinh,
		"math.Cosh": math.Cosh, "math.Tanh": math.Tanh, "math.Hypot": math.Hypot, "math.Max": math.Max, "math.Min": math.Min,
		"math.Mod": math.Mod, "math.Modf": math.Modf, "math.Frexp": math.Frexp, "math.Ldexp": math.Ldexp, "math.Inf": math.Inf,
		"math.IsInf": math.IsInf, "math.IsNaN": math.IsNaN, "math.NaN": math.NaN, "math.Signbit": math.Signbit,
		"math.Copysign": math.Copysign, "math.Float64bits": math.Float64bits, "math.Float64frombits": math.Float64frombits,
		"math.Float32bits": math.Float32bits, "math.Float32frombits": math.Float32frombits, "math.Dim": math.Dim,
		"math.Remainder": math.Remainder, "math.Nextafter": math.Nextafter, "math.FMA": math.FMA,
		"math/bits.LeadingZeros": bits.LeadingZeros, "math/bits.LeadingZeros64": bits.LeadingZeros64, "math/bits.LeadingZeros32": bits.LeadingZeros32,
		"math/bits.LeadingZeros8": bits.LeadingZeros8, "math/bits.LeadingZeros16": bits.LeadingZeros16,
		"math/bits.TrailingZeros": bits.TrailingZeros, "math/bits.TrailingZeros64": bits.TrailingZeros64, "math/bits.TrailingZeros32": bits.TrailingZeros32,
		"math/bits.TrailingZeros8": bits.TrailingZeros8, "math/bits.TrailingZeros16": bits.TrailingZeros16,
		"math/bits.OnesCount": bits.OnesCount, "math/bits.OnesCount64": bits.OnesCount64, "math/bits.OnesCount32": bits.OnesCount32,
		"math/bits.OnesCount8": bits.OnesCount8, "math/bits.OnesCount16": bits.OnesCount16,
		"math/bits.Len": bits.Len, "math/bits.Len64": bits.Len64, "math/bits.Len32": bits.Len32, "math/bits.Len8": bits.Len8, "math/bits.Len16": bits.Len16,
		"math/bits.RotateLeft": bits.RotateLeft, "math/bits.RotateLeft64": bits.RotateLeft64, "math/bits.RotateLeft32": bits.RotateLeft32,
		"math/bits.RotateLeft8": bits.RotateLeft8, "math/bits.RotateLeft16": bits.RotateLeft16,
		"math/bits.Reverse": bits.Reverse, "math/bits.Reverse64": bits.Reverse64, "math/bits.Reverse32": bits.Reverse32,
		"math/bits.Reverse8": bits.Reverse8, "math/bits.Reverse16": bits.Reverse16,
		"math/bits.ReverseBytes": bits.ReverseBytes, "math/bits.ReverseBytes64": bits.ReverseBytes64, "math/bits.ReverseBytes32": bits.ReverseBytes32,
		"math/bits.ReverseBytes16": bits.ReverseBytes16,
		"math/bits.Add64":          bits.Add64, "math/bits.Sub64": bits.Sub64, "math/bits.Mul64": bits.Mul64, "math/bits.Div64": bits.Div64,
		"math/bits.Add": bits.Add, "math/bits.Sub": bits.Sub, "math/bits.Mul": bits.Mul, "math/bits.Div": bits.Div,
		"math/bits.Add32": bits.Add32, "math/bits.Sub32": bits.Sub32, "math/bits.Mul32": bits.Mul32, "math/bits.Div32": bits.Div32,
		// bytes (pure functions; bytes.Buffer is interpreted)
		"bytes.Equal": bytes.Equal, "bytes.Compare": bytes.Compare, "bytes.Contains": bytes.Contains,
		"bytes.HasPrefix": bytes.HasPrefix, "bytes.HasSuffix": bytes.HasSuffix, "bytes.Index": bytes.Index,
		"bytes.IndexByte": bytes.IndexByte, "bytes.Count": bytes.Count, "bytes.TrimSpace": bytes.TrimSpace,
		"bytes.ToUpper": bytes.ToUpper, "bytes.ToLower": bytes.ToLower, "bytes.EqualFold": bytes.EqualFold,
		// path, path/filepath (pure parts)
		"path.Base": path.Base, "path.Clean": path.Clean, "path.Dir": path.Dir, "path.Ext": path.Ext, "path.IsAbs": path.IsAbs,
		"path.Join": path.Join, "path.Split": path.Split, "path.Match": path.Match,
		"path/filepath.Base": filepath.Base, "path/filepath.Clean": filepath.Clean, "path/filepath.Dir": filepath.Dir,
		"path/filepath.Ext": filepath.Ext, "path/filepath.IsAbs": filepath.IsAbs, "path/filepath.Join": filepath.Join,
		"path/filepath.Split": filepath.Split, "path/filepath.ToSlash": filepath.ToSlash, "path/filepath.FromSlash": filepath.FromSlash,
		"path/filepath.Match": filepath.Match, "path/filepath.Rel": filepath.Rel,
	}}
}

// nativeIntrinsic adapts a native function to the interpreter if all its
// parameter and result types convert.
func (m *machine) nativeIntrinsic(fn *ssa.Function, f any) intrinsic {
	if f == nil {
		return nil
	}
	fv := reflect.ValueOf(f)
	ft := fv.Type()
	sig := fn.Signature
	if ft.NumIn() != sig.Params().Len() || ft.NumOut() != sig.Results().Len() || ft.IsVariadic() != sig.Variadic() {
		return nil
	}
	ins := make([]func(Value) reflect.Value, ft.NumIn())
	for i := range ins {
		if ins[i] = toNative(ft.In(i)); ins[i] == nil {
			return nil
		}
	}
	outs := make([]func(*icall, reflect.Value) Value, ft.NumOut())
	for i := range outs {
		if outs[i] = m.fromNative(ft.Out(i)); outs[i] == nil {
			return nil
		}
	}
	name := fn.String()
	return func(c *icall) ctrl {
		args := make([]reflect.Value, len(ins))
		for i, conv := range ins {
			args[i] = conv(c.args[i])
		}
		res, r, panicked := callNative(fv, args, ft.IsVariadic())
		if panicked {
			return c.nativePanic(name, r)
		}
		switch len(res) {
		case 0:
			return c.ret(Value{})
		case 1:
			return c.ret(outs[0](c, res[0]))
		}
		vs := make([]Value, len(res))
		for i, r := range res {
			vs[i] = outs[i](c, r)
		}
		return c.retN(vs...)
	}
}

// callNative calls fv with args; panicked reports that it panicked with
// r instead of returning res.
func callNative(fv reflect.Value, args []reflect.Value, variadic bool) (res []reflect.Value, r any, panicked bool) {
	defer func() {
		if panicked {
			r = recover()
		}
	}()
	panicked = true
	if variadic {
		res = fv.CallSlice(args)
	} else {
		res = fv.Call(args)
	}
	panicked = false
	return res, nil, false
}

// nativePanic makes the panic r of the native function name (strings.Repeat
// of a negative count, say) a panic of the interpreted program, which it
// may recover: a string panics with the same string, a runtime.Error with
// the interpreter's runtime error of the same message, another error with
// an error value of the same message (nativeError). A panic value of any
// other type is an "unsupported" finding naming the function.
func (c *icall) nativePanic(name string, r any) ctrl {
	switch r := r.(type) {
	case string:
		return c.g.throw(ifaceV(c.m().stringType, strV(r)))
	case runtime.Error:
		return c.g.throwRuntime("%s", strings.TrimPrefix(r.Error(), "runtime error: "))
	case error:
		return c.g.throw(c.m().nativeError(c, r))
	}
	return c.g.unsupported(c.pos, "%s panicked with a value of type %T (%v)", name, r, r)
}

var errorType = reflect.TypeFor[error]()

func toNative(t reflect.Type) func(Value) reflect.Value {
	switch t.Kind() {
	case reflect.Bool:
		return func(v Value) reflect.Value { return reflect.ValueOf(v.Bool()).Convert(t) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v Value) reflect.Value { return reflect.ValueOf(v.Int()).Convert(t) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(v Value) reflect.Value { return reflect.ValueOf(v.Uint()).Convert(t) }
	case reflect.Float32, reflect.Float64:
		return func(v Value) reflect.Value { return reflect.ValueOf(v.Float()).Convert(t) }
	case reflect.String:
		return func(v Value) reflect.Value { return reflect.ValueOf(v.Str()).Convert(t) }
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Uint8:
			return func(v Value) reflect.Value { return reflect.ValueOf(sliceBytes(v)) }
		case reflect.String:
			return func(v Value) reflect.Value {
				elems := sliceElems(v)
				ss := make([]string, len(elems))
				for i, e := range elems {
					ss[i] = e.Str()
				}
				return reflect.ValueOf(ss)
			}
		}
	}
	return nil
}

func (m *machine) fromNative(t reflect.Type) func(*icall, reflect.Value) Value {
	if t == errorType {
		return func(c *icall, v reflect.Value) Value {
			if v.IsNil() {
				return Value{}
			}
			return c.m().nativeError(c, v.Interface().(error))
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(_ *icall, v reflect.Value) Value { return boolV(v.Bool()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(_ *icall, v reflect.Value) Value { return intV(v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(_ *icall, v reflect.Value) Value { return uintV(v.Uint()) }
	case reflect.Float32, reflect.Float64:
		return func(_ *icall, v reflect.Value) Value { return floatV(v.Float()) }
	case reflect.String:
		return func(_ *icall, v reflect.Value) Value { return strV(v.String()) }
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Uint8:
			return func(_ *icall, v reflect.Value) Value {
				if v.IsNil() {
					return Value{}
				}
				return bytesToSlice(v.Bytes())
			}
		case reflect.String:
			return func(_ *icall, v reflect.Value) Value {
				if v.IsNil() {
					return Value{}
				}
				n := v.Len()
				o := newObject(n)
				for i := range n {
					o.cells[i] = strV(v.Index(i).String())
				}
				return sliceV(o, 0, n, n)
			}
		}
	}
	return nil
}
