// Package bank has annotation problems that ltlvet must report.
package bank

import "sync"

//ltl:prop lock call (*sync.Mutex).Lock
//ltl:prop unlock call (*sync.Mutex).Unlock
//ltl:spec lockPairs G(lock -> F unlok)
//ltl:spec once [](withdraw -> [] !withdraw)
//ltl:prop withdraw call (*Account).Withdraw
//ltl:specfile bank.ltl
type Account struct {
	mu      sync.Mutex
	balance int
}

// Withdraw takes n.
//
//ltl:prop overdrawn a.balance - n
func (a *Account) Withdraw(n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
}
