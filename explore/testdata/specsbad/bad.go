// Package specsbad has specs the explorer cannot check: each must be an
// unsupported finding, never silently skipped.
package specsbad

var n int

//ltl:prop started go work
//ltl:spec startsOnce G(started -> N G !started)

func work() { n++ }

// Run starts work and checks a predicate over a local.
func Run() {
	k := 1
	//ltl:prop positive k > 0
	//ltl:spec alwaysPositive G positive
	k++
	done := make(chan bool)
	go func() { work(); done <- true }()
	<-done
	_ = k
}
