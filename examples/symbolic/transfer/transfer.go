// Package transfer has a bug that needs a specific input and a specific
// schedule together: two concurrent withdrawals check the balance and
// debit it in separate critical sections, so both can pass the check
// before either debits — which overdraws the account only if the amount
// is more than half the balance.
package transfer

import "sync"

// Account is a balance protected by a mutex.
type Account struct {
	mu      sync.Mutex
	balance int
}

// withdraw checks and debits in two critical sections (the bug).
func (a *Account) withdraw(amount int) bool {
	a.mu.Lock()
	ok := a.balance >= amount
	a.mu.Unlock()
	if !ok {
		return false
	}
	a.mu.Lock()
	a.balance -= amount
	a.mu.Unlock()
	return true
}

// Withdraw2 runs two withdrawals of amount from a balance of 100 at once
// and panics if the account is overdrawn.
//
//ltl:symbolic
func Withdraw2(amount int) int {
	if amount <= 0 || amount > 100 {
		return 0
	}
	a := &Account{balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			a.withdraw(amount)
		}()
	}
	wg.Wait()
	if a.balance < 0 {
		panic("account overdrawn")
	}
	return a.balance
}
