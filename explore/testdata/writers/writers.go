// Package writers has k goroutines writing to independent variables or to
// one shared variable (with Options.Shared the writes are events): the
// benchmark of partial-order reduction. Each goroutine signals completion
// on its own channel, so the only dependent events are the writes to the
// shared variable.
package writers

func run(k int, shared bool) {
	vars := make([]*int, k)
	x := new(int)
	for i := range vars {
		if shared {
			vars[i] = x
		} else {
			vars[i] = new(int)
		}
	}
	done := make([]chan bool, k)
	for i := range done {
		done[i] = make(chan bool)
		go func() {
			*vars[i] = i
			close(done[i])
		}()
	}
	for _, d := range done {
		<-d
	}
}

func Independent2() { run(2, false) }
func Independent3() { run(3, false) }
func Independent4() { run(4, false) }
func Shared2()      { run(2, true) }
func Shared3()      { run(3, true) }
func Shared4()      { run(4, true) }
