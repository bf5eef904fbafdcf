//go:build !race

package fds

// raceDetector reports whether the tests run with -race (see race_on_test.go).
const raceDetector = false
