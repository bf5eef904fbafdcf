// Package deadlock is the program of the report's browser test: the
// dining philosophers of examples/explore/philosophers, three of them,
// each taking the left fork first.
package deadlock

import "github.com/henceforth-go/henceforth/examples/explore/philosophers"

// Scenario deadlocks when every philosopher holds its left fork.
func Scenario() { philosophers.Dine(3, false) }
