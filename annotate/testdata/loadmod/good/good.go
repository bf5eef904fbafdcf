// Package good has annotations in its source, its in-package tests and its
// external tests.
package good

//ltl:prop started call Start
//ltl:prop stopped return Stop
func Start() {}

// Stop stops.
func Stop() {}
