// Package annotated is a bank account whose properties are written next to
// the code, as //ltl: directives: which steps are events (calls of the
// mutex's Lock and Unlock, the debit statement), which state predicates
// matter (an overdrawn balance), and the specs over them. Its test loads the
// annotations with package annotate and checks that they bind.
//
// Check the directives with go vet:
//
//	go install github.com/henceforth-go/henceforth/cmd/ltlvet
//	go vet -vettool=$(which ltlvet) ./examples/annotated
package annotated

import (
	"errors"
	"sync"
)

// Events: every Lock of a mutex is followed by an Unlock, and a debit happens
// only while the lock is held (since the last lock, no unlock).
//
//ltl:prop lock call (*sync.Mutex).Lock
//ltl:prop unlock call (*sync.Mutex).Unlock
//ltl:spec lockPairs G(lock -> F unlock)
//ltl:spec debitLocked G(debit -> (!unlock S lock))

// More specs, about deposits, live in a spec file.
//
//ltl:specfile account.ltl

// ErrInsufficient is returned by Withdraw when the balance does not cover
// the amount.
var ErrInsufficient = errors.New("insufficient funds")

// An Account is a balance guarded by a mutex. The zero Account is empty and
// ready to use.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Withdraw takes n from the balance, or fails with ErrInsufficient and leaves
// the balance alone. Exploration treats n as unknown (symbolic), so every
// amount is tried, including negative ones — which is why it rejects them.
//
//ltl:prop overdrawn a.balance < 0
//ltl:spec neverOverdrawn G(!overdrawn)
//ltl:symbolic
func (a *Account) Withdraw(n int) error {
	if n < 0 {
		return errors.New("negative amount")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if n > a.balance {
		return ErrInsufficient
	}
	//ltl:event debit
	a.balance -= n
	return nil
}

// Deposit adds n to the balance; a negative n is an error.
func (a *Account) Deposit(n int) error {
	if n < 0 {
		return errors.New("negative amount")
	}
	a.mu.Lock()
	a.balance += n //ltl:event credit
	a.mu.Unlock()
	return nil
}

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}
