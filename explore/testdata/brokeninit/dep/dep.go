// Package dep has an initializer the explorer cannot run.
package dep

import "os"

var pid = os.Getpid()

// Pid returns the process id read at initialization.
func Pid() int { return pid }

// Twice doubles n (independent of the initialization).
func Twice(n int) int { return 2 * n }
