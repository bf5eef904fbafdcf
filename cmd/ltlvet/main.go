// Command ltlvet checks //ltl: annotations (see package annotate). It runs
// under go vet:
//
//	go install github.com/henceforth-go/henceforth/cmd/ltlvet
//	go vet -vettool=$(which ltlvet) ./...
//
// or standalone, loading packages itself (tests included unless -test=false):
//
//	ltlvet ./...
//
// Both print one line per problem, file:line:col: message, and exit with a
// non-zero status if there is any.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/henceforth-go/henceforth/annotate/ltlanalysis"
)

func main() { singlechecker.Main(ltlanalysis.Analyzer) }
