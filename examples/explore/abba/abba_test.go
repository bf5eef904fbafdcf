package abba

import (
	"sync"
	"testing"
)

func run(t *testing.T, transfer func(from, to *Account, amount int)) {
	a := &Account{ID: 1, Balance: 100}
	b := &Account{ID: 2, Balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); transfer(a, b, 10) }()
	go func() { defer wg.Done(); transfer(b, a, 20) }()
	wg.Wait()
	if a.Balance+b.Balance != 200 {
		t.Errorf("money was created or destroyed: %d", a.Balance+b.Balance)
	}
}

// Scenario deadlocks in the schedules where each transfer takes its first
// lock before the other takes its second.
func Scenario(t *testing.T) { run(t, Transfer) }

func TestFixed(t *testing.T) { run(t, SafeTransfer) }
