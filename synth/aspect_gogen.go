package synth

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
)

// WriteGo writes Go source for m, a controller of w.Spec, as Mealy.WriteGo
// does, followed by a constant for each value of each enumeration, named
// after the type, the variable and the value (ControllerStateWait), since
// the generated structs carry enumerations as ints:
//
//	out, ok := c.Step(ControllerInputs{NewStudent: true, Tuition: true})
//	if out.State == ControllerStateWelcome { … }
func (w *Weaving) WriteGo(out io.Writer, m *Mealy, pkg, typeName string) error {
	var b bytes.Buffer
	if err := m.WriteGo(&b, pkg, typeName); err != nil {
		return err
	}
	used := map[string]bool{}
	for _, vs := range [][]Var{w.Spec.Inputs, w.Spec.Outputs} {
		for _, v := range vs {
			wv := w.vars[v.Name]
			if wv == nil || wv.dom.Values == nil {
				continue
			}
			field := fieldName(v.Name, map[string]bool{})
			fmt.Fprintf(&b, "\n// Values of %s.%s (%s).\nconst (\n", typeName, field, wv.dom)
			for i, val := range wv.dom.Values {
				fmt.Fprintf(&b, "\t%s = %d\n", fieldName(typeName+"_"+v.Name+"_"+val, used), i)
			}
			b.WriteString(")\n")
		}
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return fmt.Errorf("synth: generated Go does not format: %w", err)
	}
	_, err = out.Write(src)
	return err
}
