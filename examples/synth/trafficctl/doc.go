// Package trafficctl is the traffic-light controller that ltl synth
// generated from ../traffic.structuredslugs: an explicit Mealy machine whose
// Step answers one step's inputs with the lights' outputs. It shows what
// generated controllers look like and that they meet their spec
// (TestGeneratedController in the parent directory checks it with
// ltltest.Conforms). Regenerate it with go generate after changing the spec.
package trafficctl

//go:generate go run ../../../cmd/ltl synth -explicit -pkg trafficctl -type Controller -strategy controller.go ../traffic.structuredslugs
