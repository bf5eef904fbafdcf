package bank

import (
	_ "embed"
	"testing"
)

//go:embed bank.ltl
var specFile string

//ltl:spec inTest F(lock && unlock)

func TestNothing(t *testing.T) { _ = specFile }
