// Package trafficcircuit is the traffic-light controller that ltl synth
// generated from ../traffic.structuredslugs in its default, symbolic form:
// a circuit (a decision graph over the controller's latches and the step's
// inputs) model-checked against the spec before it was written, with the
// same Step API as the explicit machine of package trafficctl.
// TestGeneratedController in the parent directory checks it with
// ltltest.Conforms. Regenerate it with go generate after changing the spec.
package trafficcircuit

//go:generate go run ../../../cmd/ltl synth -pkg trafficcircuit -type Controller -strategy controller.go ../traffic.structuredslugs
