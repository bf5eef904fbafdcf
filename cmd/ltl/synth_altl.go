package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/henceforth-go/henceforth/synth"
)

// isAspectLTL reports whether the arguments name AspectLTL files.
func isAspectLTL(pos []string) bool {
	for _, p := range pos {
		if strings.EqualFold(filepath.Ext(p), ".altl") {
			return true
		}
	}
	return false
}

// readAspectLTL parses the AspectLTL files (a base and its aspects) and
// weaves them.
func readAspectLTL(pos []string, format string) (*synth.Weaving, error) {
	if format != "" {
		return nil, errors.New("-format does not apply to AspectLTL (.altl) files")
	}
	for _, p := range pos {
		if !strings.EqualFold(filepath.Ext(p), ".altl") {
			return nil, fmt.Errorf("%s: AspectLTL files end in .altl; give the base and its aspects only", p)
		}
	}
	spec, err := synth.ParseAspectLTLFiles(pos...)
	if err != nil {
		return nil, err
	}
	return spec.Weave()
}

// explainAspectLTL prints, for a realizable weaving and -trace, where each
// move of the controller comes from; for an unrealizable one, the
// conflicting aspects and the environment's play.
func explainAspectLTL(ctx context.Context, e *env, w *synth.Weaving, res *synth.Result, f synthFlags) error {
	if !res.Realizable {
		c, err := w.Conflicts(ctx)
		if err != nil {
			return err
		}
		return c.WriteText(e.stdout)
	}
	if !f.trace {
		return nil
	}
	tr, err := w.Trace(ctx, res, f.maxStates)
	if err != nil {
		return hintMaxStates(err)
	}
	return tr.WriteText(e.stdout)
}
