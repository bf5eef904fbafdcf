// Package tickers holds tests whose timers wake nobody, or somebody.
package tickers

import (
	"testing"
	"time"
)

// TickerHang blocks forever while a ticker runs: its ticks wake nobody.
func TickerHang(t *testing.T) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	<-make(chan int)
}

// TickerCounted waits for three ticks: the ticker does wake it.
func TickerCounted(t *testing.T) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for range 3 {
		<-tick.C
	}
}
