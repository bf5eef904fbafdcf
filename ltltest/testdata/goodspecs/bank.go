// Package goodspecs has well-formed annotations, for ltltest.Specs.
package goodspecs

//ltl:prop overdrawn a.balance < 0
//ltl:prop withdraw call (*Account).Withdraw
//ltl:spec neverOverdrawn G(!overdrawn)
//ltl:spec withdrawFirst !overdrawn U withdraw
func (a *Account) Withdraw(n int) { a.balance -= n }

// Account is a bank account.
type Account struct{ balance int }
