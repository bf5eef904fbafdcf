// Package badspecs has annotations with problems, for ltltest.Specs.
package badspecs

//ltl:prop overdrawn a.balance < 0
//ltl:spec neverOverdrawn G(!overdrwn)
//ltl:spec broken G(overdrawn ->
func (a *Account) Withdraw(n int) { a.balance -= n }

// Account is a bank account.
type Account struct{ balance int }
