package explore

import "golang.org/x/tools/go/ssa"

// math/big is interpreted (policy.go). Its arithmetic kernels are
// assembly (addVV, mulAddVWW…, without a Go body); each runs as its
// pure-Go version (addVV_g…: pureGoFallback in compile.go), which
// computes the same words. crypto/rand.Int and Prime are pure Go over
// math/big and crypto/rand.Reader (model_rand.go) and so are exact, with
// the reader's deterministic bytes.
//
// The model provides the variable math/big's initializer reads:
// internal/cpu.X86, with no feature set, so that the code that chooses
// between kernels by CPU feature takes the portable one.
func bigModel() model {
	return model{globals: map[string]globalFactory{
		"internal/cpu.X86": func(*machine, *ssa.Global) globalInit {
			return func(*execution, *object) {} // zero: no feature
		},
	}}
}
