// Package specs holds programs whose //ltl:spec annotations the explorer
// checks (spec_test.go).
package specs

import "sync"

// Account is a bank account; Withdraw does not check the balance
// atomically with the update.
type Account struct {
	mu      sync.Mutex
	balance int
}

var acct = &Account{balance: 10}

//ltl:prop overdrawn acct.balance < 0
//ltl:spec neverOverdrawn G(!overdrawn)

// Withdraw takes n if the balance allows it; the check and the update are
// in two critical sections.
func (a *Account) Withdraw(n int) {
	a.mu.Lock()
	ok := a.balance >= n
	a.mu.Unlock()
	if ok {
		a.mu.Lock()
		a.balance -= n
		a.mu.Unlock()
	}
}

// SafeWithdraw checks and updates in one critical section.
func (a *Account) SafeWithdraw(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance >= n {
		a.balance -= n
	}
}

// Overdraw races two withdrawals of 7 from 10.
func Overdraw() {
	acct = &Account{balance: 10}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); acct.Withdraw(7) }()
	}
	wg.Wait()
}

// NoOverdraw is Overdraw with SafeWithdraw.
func NoOverdraw() {
	acct = &Account{balance: 10}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); acct.SafeWithdraw(7) }()
	}
	wg.Wait()
}

var ready bool

//ltl:prop consumed return consume
//ltl:spec publishFirst !consumed W published

// publish sets ready; the statement is the event published.
func publish() {
	//ltl:event published
	ready = true
}

// consume reads ready.
func consume() bool { return ready }

// PublishRace consumes without waiting for the publisher.
func PublishRace() {
	ready = false
	done := make(chan bool)
	go func() { publish(); done <- true }()
	consume()
	<-done
}

// PublishOrdered waits for the publisher first.
func PublishOrdered() {
	ready = false
	done := make(chan bool)
	go func() { publish(); done <- true }()
	<-done
	consume()
}

// Finished counts finished workers; the spec says it reaches 2.
var (
	finished int
	finishMu sync.Mutex
)

//ltl:prop allDone finished == 2
//ltl:spec eventuallyDone F allDone

// Workers runs two workers that each count themselves finished, or, if
// stop is set, only one.
func Workers() {
	finished = 0
	done := make(chan bool)
	for range 2 {
		go func() {
			finishMu.Lock()
			finished++
			finishMu.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
}

// OneWorker finishes only one worker: eventuallyDone fails at the end of
// every path.
func OneWorker() {
	finished = 0
	done := make(chan bool)
	go func() { finished++; done <- true }()
	<-done
}

var muA, muB sync.Mutex

// ABBA takes two locks in opposite orders in two goroutines: it can
// deadlock.
func ABBA() {
	done := make(chan bool)
	go func() {
		muA.Lock()
		muB.Lock()
		muB.Unlock()
		muA.Unlock()
		done <- true
	}()
	muB.Lock()
	muA.Lock()
	muA.Unlock()
	muB.Unlock()
	<-done
}

// AB takes the locks in the same order: it always terminates.
func AB() {
	done := make(chan bool)
	go func() {
		muA.Lock()
		muB.Lock()
		muB.Unlock()
		muA.Unlock()
		done <- true
	}()
	muA.Lock()
	muB.Lock()
	muB.Unlock()
	muA.Unlock()
	<-done
}
