package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTour(t *testing.T) {
	var b strings.Builder
	require.NoError(t, run(context.Background(), &b))
	out := b.String()
	assert.Contains(t, out, "traffic: realizable\n")
	assert.Contains(t, out, "verified\n")
	assert.Contains(t, out, "strict traffic: unrealizable\n")
	assert.Contains(t, out, "conflicting guarantees:\n  G !(greenNS && greenEW)\n  G(carNS -> greenNS)\n  G(carEW -> greenEW)\n")
	assert.Contains(t, out, "the system loses")
	assert.Contains(t, out, "hand-written Light conforms: true (complete: true)\n")
	// Every car that waited got green eventually in the scripted run.
	assert.Contains(t, out, "green NS=1")
	assert.Contains(t, out, "green NS=0 EW=1")
}
