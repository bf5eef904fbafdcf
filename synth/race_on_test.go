//go:build race

package synth

// raceDetector reports whether the tests run with -race. rudd's node
// finalizers decrement reference counts under its lock while its operations
// increment them without it (rudd v1.1.1-0.20230806153452-9e08a6ea8170,
// hkernel.go:31 against hudd.go:153): a data race inside the library, which
// the race detector reports at random. The tests of the rudd backend
// therefore run without -race only.
const raceDetector = true
