// Package badtype does not type-check: ltl explore reports the position.
package badtype

func F() int { return "not an int" }
