package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
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

// runAspectSynth is ltl synth on AspectLTL files: weave, decide, and
// explain (traceability when realizable, conflicts when not).
func runAspectSynth(e *env, pos []string, f synthFlags) (int, error) {
	for _, p := range pos {
		if !strings.EqualFold(filepath.Ext(p), ".altl") {
			return 2, fmt.Errorf("%s: AspectLTL files end in .altl; give the base and its aspects only", p)
		}
	}
	if f.format != "" {
		return 2, errors.New("-format does not apply to AspectLTL (.altl) files")
	}
	printed := 0
	for _, b := range []bool{f.goSrc, f.json, f.dot} {
		if b {
			printed++
		}
	}
	spec, err := synth.ParseAspectLTLFiles(pos...)
	if err != nil {
		return 2, err
	}
	w, err := spec.Weave()
	if err != nil {
		return 2, err
	}
	if f.emit != "" {
		var b bytes.Buffer
		if err := synth.WriteSlugsin(&b, w.Spec); err != nil {
			return 2, err
		}
		_, err := e.stdout.Write(b.Bytes())
		return 0, err
	}
	ctx := context.Background()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	unknown := func(err error) error {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("unknown: no answer within -timeout %s", f.timeout)
		}
		return err
	}
	res, err := w.Spec.Realizable(ctx)
	if err != nil {
		return 2, unknown(err)
	}
	fmt.Fprintln(e.stdout, res)
	status := 0
	if res.Realizable {
		if f.trace {
			tr, err := w.Trace(ctx, res, f.maxStates)
			if err != nil {
				return 2, unknown(hintMaxStates(err))
			}
			if err := tr.WriteText(e.stdout); err != nil {
				return 2, err
			}
		}
	} else {
		status = 1
		c, err := w.Conflicts(ctx)
		if err != nil {
			return 2, unknown(err)
		}
		if err := c.WriteText(e.stdout); err != nil {
			return 2, err
		}
	}
	if printed == 0 && f.strategy == "" {
		return status, nil
	}
	m, err := synthMachine(ctx, res, f)
	if err != nil {
		return 2, unknown(err)
	}
	write := func(format string) ([]byte, error) {
		var b bytes.Buffer
		if format == "go" && m.mealy != nil {
			err := w.WriteGo(&b, m.mealy, f.pkg, m.typeName)
			return b.Bytes(), err
		}
		err := m.write(&b, format, f.pkg)
		return b.Bytes(), err
	}
	if f.strategy != "" {
		src, err := write(machineFormat(f.strategy))
		if err != nil {
			return 2, err
		}
		if err := os.WriteFile(f.strategy, src, 0o644); err != nil {
			return 2, err
		}
		fmt.Fprintf(e.stdout, "%s (%d states) written to %s\n", m.what, m.states, f.strategy)
	}
	if printed > 0 {
		format := "json"
		switch {
		case f.goSrc:
			format = "go"
		case f.dot:
			format = "dot"
		}
		src, err := write(format)
		if err != nil {
			return 2, err
		}
		if _, err := e.stdout.Write(src); err != nil {
			return 2, err
		}
	}
	return status, nil
}
