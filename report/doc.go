// Package report writes findings and verdicts as one self-contained HTML
// page: a counterexample to look at instead of a table to read.
//
// A Page holds exploration findings (package explore) and LTL verdicts on
// traces (packages monitor and automaton). For a finding the page draws the
// interleaving as a timeline with one lane per goroutine (named by the
// function it runs), a mark per step labelled by its operation (go, lock,
// unlock, send, receive, close, wait, event…), arrows for hand-offs between
// lanes (a goroutine start, a rendezvous, a buffered message, a close
// letting receives through, a lock released by one goroutine and taken by
// another, a Cond signal or a WaitGroup's last Done waking a waiter), and the
// goroutines still blocked at the end; selecting a step shows its source
// line, and the page lists every goroutine's stack, the replay command
// (with a copy button), and the symbolic inputs and path condition where
// there are some. For a verdict it draws the trace as a waveform (one row
// per atom), the value of the formula and of each of its subformulas at
// every position (the dynamic-programming table of the monitors), the
// online verdict after every prefix with the first position where it
// became final, and the explanation, each reason linked to its position.
// A violated //ltl:spec found by the explorer has both: selecting one of
// its positions selects the step of the interleaving that position
// followed, and selecting a step selects the spec's last position at or
// before it.
//
// The page needs no network: its CSS and script are inlined and the data
// is embedded as JSON, so it opens from a CI artifact store offline. Its
// size is linear in the trace (the source lines it quotes are read once
// per line), and it draws only the visible part of a timeline, so traces
// of 10 000 events and 64 goroutines stay usable: zoom, and collapse
// lanes by clicking their names.
//
// Build a Page with FromExplore, FromWitness and FromCheck (or fill one
// in), then write it with Page.WriteHTML or WriteFile. Nothing here
// imports package testing; ltltest and cmd/ltl call it.
//
// # Limits
//
//   - Hand-offs are inferred from the interleaving: a rendezvous from the
//     partner the explorer names, a buffered message from the order of
//     sends and receives on its channel, a close to every later receive
//     of another goroutine on the channel once its buffer is empty (a
//     cancelled context's select among them), a lock hand-off from an
//     unlock to the next lock of the mutex by another goroutine, a Cond
//     hand-off from a signal to the next goroutine woken in Wait (a
//     broadcast to each), a WaitGroup's from the Done that wakes waiters
//     to each Wait step on a waiter's ticket (an object the trace had not
//     named before). A receive that frees a full buffer for a blocked
//     sender is not linked to that send, nor a receive from a channel
//     closed before the interleaving began (a context cancelled before
//     anyone asked for its Done channel shares one closed at init).
//   - The table of subformula values has at most 64 rows, and none for a
//     formula over more than 64 atoms (a monitor's limit); the online
//     verdicts need LTLf and a DFA of at most 16384 states.
//   - Source lines (two around each quoted line) are read when the page is
//     written; a file that cannot be read is shown as file:line only.
//   - A scenario search that found nothing has no interleaving to draw: its
//     page holds the search's outcome only.
package report
