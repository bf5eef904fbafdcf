//go:build !linux

package fds

// adviseHuge does nothing outside Linux (see hugepages_linux.go).
func adviseHuge[T any](s []T) {}
