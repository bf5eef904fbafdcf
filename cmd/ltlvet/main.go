package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/henceforth-go/henceforth/annotate/ltlanalysis"
)

func main() { singlechecker.Main(ltlanalysis.Analyzer) }
