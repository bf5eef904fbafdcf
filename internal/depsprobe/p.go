package depsprobe

import (
	_ "github.com/aclements/go-z3/z3"
	_ "github.com/dalzilio/rudd"
	_ "github.com/stretchr/testify/assert"
	_ "github.com/stretchr/testify/require"
	_ "golang.org/x/tools/go/analysis/analysistest"
	_ "golang.org/x/tools/go/analysis/singlechecker"
	_ "golang.org/x/tools/go/analysis/unitchecker"
	_ "golang.org/x/tools/go/packages"
	_ "golang.org/x/tools/go/ssa/ssautil"
	_ "golang.org/x/tools/go/ssa/interp"
)
