// Package smv is the text front end of package split: it reads programs
// written in a subset of the SMV language (the input language of the
// SPLIT tool of the JTLV thesis, extended with guarded commands) and
// properties for any split.Program.
//
//	p, err := smv.ParseFile("muxsem.smv", 64) // the parameter N = 64
//	res, err := split.Check(ctx, p, p.Properties()[0], split.Options{})
//	prop, err := smv.ParseProperty(p, "LTLSPEC G (P[1].loc = 1 -> F P[1].loc = 2)")
//
// Parse and ParseFile elaborate a text into a split.Program: MODULE main
// declares the shared variables and the processes (one process, or an
// array: P : array 1..N of process m(args)); every other module is a
// process template whose variables are local. The ASSIGN next(…)
// assignments of a template form one command; each entry of its COMMANDS
// section is a guarded command (one per index of its binder). INVARSPEC
// and LTLSPEC sections become the program's properties, in order, and
// ParseProperty reads one more in the same syntax. The grammar and the
// semantics are in the comment of syntax.go.
//
// Errors are *split.Error values positioned at file:line:col, with the
// kinds of package split (split.ErrSyntax, ErrType, ErrUnsupported,
// ErrProgram). A text may create at most 2^20 variables, processes and
// quantifier instances, and nest expressions at most 500 deep, so a
// hostile input cannot exhaust memory.
//
// # Limits
//
//   - SMV's TRANS, INVAR and other sections, module instances that are not
//     processes, and invariant assignments (v := e outside init/next) are
//     rejected with split.ErrUnsupported.
//   - Fairness and commands belong to process templates, specifications
//     and processes to MODULE main; next(…) of a shared variable in MODULE
//     main is rejected.
//   - Arrays of processes, and arrays of arrays, need constant indices;
//     arrays of variables may be indexed by any integer expression (the
//     access becomes a conditional over the elements).
//   - Quantifiers (forall, exists) and binders are expanded when the text
//     is read: their bounds are constants.
//   - Variables range over at most 2^20 values.
package smv
