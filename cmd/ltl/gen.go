package main

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

const genUsage = `Usage: ltl gen -f FORMULA -pkg NAME -func NAME [-semantics ltlf|rosu-havelund]

Writes Go source for a dynamic-programming monitor of FORMULA to standard
output: the papers' synthesized algorithm, with one boolean field per
temporal operator and no allocation per event.

Exit status: 0 on success, 2 usage or input error.
`

func init() {
	register(&command{name: "gen", summary: "Go source of a DP monitor", usage: genUsage, run: runGen})
}

func runGen(e *env, args []string) (int, error) {
	fs := newFlags("gen")
	src := fs.String("f", "", "the `formula`")
	pkg := fs.String("pkg", "", "package `name` of the generated file")
	name := fs.String("func", "", "`name` of the generated monitor")
	sem := ltl.LTLf
	semanticsFlag(fs, &sem)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	if len(pos) > 0 {
		return 2, fmt.Errorf("unexpected argument %q", pos[0])
	}
	f, err := parseFormula("f", *src)
	if err != nil {
		return 2, err
	}
	if *pkg == "" || *name == "" {
		return 2, fmt.Errorf("-pkg and -func are required")
	}
	if err := monitor.Generate(e.stdout, f, monitor.GenerateOptions{Package: *pkg, Name: *name, Semantics: sem}); err != nil {
		return 2, err
	}
	return 0, nil
}
