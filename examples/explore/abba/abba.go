// Package abba is a lock-order (AB-BA) deadlock: two transfers between the
// same accounts lock them in opposite orders.
package abba

import "sync"

// Account is a balance protected by a mutex.
type Account struct {
	ID      int
	mu      sync.Mutex
	Balance int
}

// Transfer moves amount from a to b, locking the source first. Two
// concurrent transfers in opposite directions can each hold one lock and
// wait for the other.
func Transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.Balance -= amount
	to.Balance += amount
}

// SafeTransfer locks the account with the smaller ID first, so every
// transfer acquires locks in the same global order.
func SafeTransfer(from, to *Account, amount int) {
	first, second := from, to
	if second.ID < first.ID {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.Balance -= amount
	to.Balance += amount
}
