package explore

// sharedTestdata are the testdata packages that load (and so loadPatterns,
// given one of them) loads together with the interpreter's test programs:
// one go/packages call and one type check of the standard library
// declarations for all of them, instead of one per package. A package
// belongs here when loading it with the others changes nothing its tests
// see: it imports no library the explorer keeps opaque unless user code
// imports it (errgroup imports golang.org/x/sync, which would make that
// library user code for every package of the program), and its tests do
// not enumerate the program's packages or tests. Tests never modify a
// Program (it is immutable after Load), so sharing one is safe under
// -race and t.Parallel.
var sharedTestdata = []string{
	"./testdata/allocpage", "./testdata/bgloops", "./testdata/ctxdeadline", "./testdata/execfs",
	"./testdata/failvariants", "./testdata/heavyinit", "./testdata/indep", "./testdata/initleak",
	"./testdata/jsonmodels", "./testdata/many", "./testdata/maphash", "./testdata/maporder",
	"./testdata/memstats", "./testdata/misuse", "./testdata/netloop", "./testdata/osmodels",
	"./testdata/panicpos", "./testdata/parallel", "./testdata/quickbig", "./testdata/racenames",
	"./testdata/reflectset", "./testdata/spinwait", "./testdata/stacknames", "./testdata/stdfixes",
	"./testdata/subtests", "./testdata/symsplit", "./testdata/testifyfail", "./testdata/tickers",
	"./testdata/unsafeptr", "./testdata/xtestspec",
}
