package explore

// The spew package (go-spew, and the copy testify vendors as
// internal/spew), which testify's failure messages use to dump the values
// an assertion compared. Spew's initialization finds reflect.Value's flag
// bits through unsafe offsets into the real reflect.Value, which the
// interpreter's reflect.Value (model_reflect.go) does not have: the model
// replaces the package. Its initialization does not run, Sdump is
// intrinsic, and its other functions are unsupported.
//
// Sdump formats each value as fmt's %#v does, one line per value, where
// spew prints a multi-line dump with types and lengths: a failure message
// says the same thing as under go test (testify's "expected:" and
// "actual  :" lines do not use spew), but the diffs testify prints from
// spew's dumps are one-line diffs.

// spewPackages are the import paths of the spew packages modelled.
var spewPackages = [...]string{
	"github.com/davecgh/go-spew/spew",
	"github.com/stretchr/testify/internal/spew",
}

func spewModel() model {
	md := model{funcs: map[string]intrinsicFactory{}, replaced: map[string]string{}}
	// sdump formats the values of the variadic slice s, one per line.
	sdump := func(c *icall, s Value) ctrl {
		var out string
		for _, v := range sliceElems(s) {
			line, cc := c.x().sprintf(c.g, "%#v\n", []Value{v})
			if cc != ctrlNext {
				return cc
			}
			out += line
		}
		return c.ret(strV(out))
	}
	for _, p := range spewPackages {
		md.funcs["("+"*"+p+".ConfigState).Sdump"] = simple(func(c *icall) ctrl { return sdump(c, c.args[1]) })
		md.funcs[p+".Sdump"] = simple(func(c *icall) ctrl { return sdump(c, c.args[0]) })
		md.replaced[p] = "only Sdump is modelled"
	}
	return md
}
