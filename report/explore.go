package report

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
)

// Finding is one exploration finding as the page shows it.
type Finding struct {
	Kind    string `json:"kind"`
	Test    string `json:"test"`
	Message string `json:"message"`
	Pos     string `json:"pos"`
	// Explanation is free text from the explorer or a monitor.
	Explanation string `json:"explanation,omitempty"`
	Steps       int    `json:"steps"`
	Execution   int    `json:"execution"`
	Seen        int    `json:"seen,omitempty"`
	// Replay is the finding's replay token; ReplayCommand the command
	// that runs its execution again (the page has a button to copy it).
	Replay        string `json:"replay,omitempty"`
	ReplayCommand string `json:"replayCommand,omitempty"`
	// Lanes are the goroutines, by id; Trace the interleaving, and
	// Arrows the hand-offs between its steps.
	Lanes  []Lane  `json:"lanes"`
	Trace  []Step  `json:"trace"`
	Arrows []Arrow `json:"arrows,omitempty"`
	// Inputs and PathCondition: a symbolic exploration's inputs that
	// reach the finding; Concretized: where the path fixed a symbolic
	// value.
	Inputs        []Input  `json:"inputs,omitempty"`
	PathCondition string   `json:"pathCondition,omitempty"`
	Concretized   []string `json:"concretized,omitempty"`
	Output        string   `json:"output,omitempty"`
	// Spec is, for a violated //ltl:spec, its trace and verdict.
	Spec *Verdict `json:"spec,omitempty"`
}

// Lane is one goroutine of a finding.
type Lane struct {
	Goroutine int `json:"g"`
	// Name is the function the goroutine was started with.
	Name string `json:"name"`
	// State is the goroutine's state at the end ("finished", or the
	// operation it is at); Blocked says it is blocked for good there (in
	// a deadlock or a leak: other findings stop goroutines wherever they
	// are).
	State   string  `json:"state,omitempty"`
	Blocked bool    `json:"blocked,omitempty"`
	Stack   []Frame `json:"stack,omitempty"`
}

// Frame is one frame of a stack.
type Frame struct {
	Func string `json:"func"`
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Step is one row of an interleaving: a scheduling step (N > 0) or an
// information row (N == 0: a goroutine start, a clock advance…).
type Step struct {
	N         int    `json:"n,omitempty"`
	Goroutine int    `json:"g"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Op        string `json:"op"`
	// Kind classifies Op: go, start, exit, lock, unlock, send, receive,
	// select, close, wait, sync, event, time or other.
	Kind   string `json:"kind"`
	Object string `json:"obj,omitempty"`
}

// Arrow is a hand-off from step From on goroutine FromG's lane to step To
// on goroutine ToG's lane (indices in Trace; From == To for a rendezvous,
// where both goroutines move in one step). Kind is "go", "chan" (a
// message), "close" (a close letting a receive through) or "sync".
type Arrow struct {
	From  int    `json:"from"`
	To    int    `json:"to"`
	FromG int    `json:"fromG"`
	ToG   int    `json:"toG"`
	Kind  string `json:"kind"`
}

// Input is the value of a symbolic input.
type Input struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// FromExplore is the page of an exploration's findings. replay, when not
// nil, gives the command that replays a finding (ltl explore and go test
// spell it differently); without it the page shows the token alone.
func FromExplore(r *explore.Report, replay func(*explore.Finding) string) *Page {
	p := &Page{Title: r.Entry + ": " + r.Verdict()}
	state := "complete"
	if !r.Complete {
		state = "incomplete: " + r.Bound + " bound reached"
	}
	p.Summary = append(p.Summary, fmt.Sprintf("entry: %s", r.Entry),
		fmt.Sprintf("explored: %d executions with %s, %s", r.Executions, r.Ran(), state))
	if r.Suggestion != "" {
		p.Summary = append(p.Summary, "suggestion: "+r.Suggestion)
	}
	for _, w := range r.Warnings {
		p.Summary = append(p.Summary, "warning: "+w)
	}
	var src sources
	for _, f := range r.Findings {
		p.Findings = append(p.Findings, newFinding(f, replay, &src))
	}
	src.into(p)
	return p
}

// FromWitness is the page of a scenario search's witness: its
// interleaving, with the search formula's atoms along its states.
func FromWitness(w *explore.Witness) *Page {
	p := &Page{Title: w.Entry + ": witness of " + w.Formula}
	p.Summary = []string{"entry: " + w.Entry, "formula: " + w.Formula,
		fmt.Sprintf("witness: %d steps after %d", w.Steps, w.Start)}
	var src sources
	f := &Finding{Kind: "witness", Test: w.Entry, Message: "an interleaving satisfies " + w.Formula, Steps: w.Start + w.Steps, Replay: w.Replay}
	f.Trace, f.Lanes = steps(w.Trace, &src), lanes(w.Trace, nil, false)
	for _, l := range f.Lanes {
		if name := w.Goroutines[l.Goroutine]; name != "" && l.Name == "" {
			l.Name = name
		}
	}
	f.Arrows = arrows(f.Trace)
	p.Findings = []*Finding{f}
	src.into(p)
	return p
}

func newFinding(f *explore.Finding, replay func(*explore.Finding) string, src *sources) *Finding {
	out := &Finding{
		Kind: string(f.Kind), Test: f.Test, Message: f.Message, Explanation: f.Explanation,
		Steps: f.Steps, Execution: f.Execution, Seen: f.Seen, Replay: f.Replay,
		PathCondition: f.PathCondition, Concretized: f.Concretized, Output: f.Output,
	}
	if f.Pos.IsValid() {
		out.Pos = f.Pos.String()
		src.add(f.Pos.Filename, f.Pos.Line)
	}
	if replay != nil && f.Replay != "" {
		out.ReplayCommand = replay(f)
	}
	for _, in := range f.Inputs {
		out.Inputs = append(out.Inputs, Input{Name: in.Name, Type: in.Type, Value: fmt.Sprint(in.Value)})
	}
	out.Trace = steps(f.Trace, src)
	out.Lanes = lanes(f.Trace, f.Goroutines, f.Kind == explore.KindDeadlock || f.Kind == explore.KindLeak)
	for i := range out.Lanes {
		for _, fr := range out.Lanes[i].Stack {
			src.add(fr.File, fr.Line)
		}
	}
	out.Arrows = arrows(out.Trace)
	if f.Spec != nil {
		out.Spec = specVerdict(f.Spec)
		out.Spec.Steps = specSteps(f.Spec, out.Trace)
	}
	return out
}

// specSteps maps each event of a spec's trace to the index in trace of
// the scheduling step it followed (-1 for the events before the first).
func specSteps(s *explore.SpecTrace, trace []Step) []int {
	index := map[int]int{} // step number → index in trace
	for i, st := range trace {
		if st.N > 0 {
			index[st.N] = i
		}
	}
	out := make([]int, len(s.Events))
	for k, e := range s.Events {
		i, ok := index[e.Step]
		if !ok {
			i = -1
		}
		out[k] = i
	}
	return out
}

// steps converts an interleaving, quoting the source of each step.
func steps(trace []explore.Step, src *sources) []Step {
	out := make([]Step, len(trace))
	for i, s := range trace {
		out[i] = Step{N: s.N, Goroutine: s.Goroutine, Op: s.Op, Kind: opKind(s.Op), Object: s.Object}
		if s.Pos.IsValid() {
			out[i].File, out[i].Line = s.Pos.Filename, s.Pos.Line
			src.add(s.Pos.Filename, s.Pos.Line)
		}
	}
	return out
}

var (
	goNote    = regexp.MustCompile(`^go (.+) \(goroutine (\d+)\)$`)
	startNote = regexp.MustCompile(`^start (.+)$`)
)

// lanes lists the goroutines of a finding by id: those of the
// interleaving and of the stacks, each named by the function it was
// started with (the go statement's, or the outermost frame of its stack).
// stuck says the goroutines that have not finished are blocked for good.
func lanes(trace []explore.Step, stacks []explore.GoroutineStack, stuck bool) []Lane {
	byID := map[int]*Lane{}
	lane := func(g int) *Lane {
		l := byID[g]
		if l == nil {
			l = &Lane{Goroutine: g}
			byID[g] = l
		}
		return l
	}
	for _, s := range trace {
		if s.Goroutine <= 0 {
			continue
		}
		lane(s.Goroutine)
		if m := goNote.FindStringSubmatch(s.Op); m != nil {
			if g, err := strconv.Atoi(m[2]); err == nil {
				lane(g).Name = m[1]
			}
		} else if m := startNote.FindStringSubmatch(s.Op); m != nil && s.N == 0 {
			if l := lane(s.Goroutine); l.Name == "" {
				l.Name = m[1]
			}
		}
	}
	for _, st := range stacks {
		l := lane(st.ID)
		l.State = st.State
		l.Blocked = stuck && blocked(st.State)
		for _, fr := range st.Frames {
			f := Frame{Func: fr.Func}
			if fr.Pos.IsValid() {
				f.File, f.Line = fr.Pos.Filename, fr.Pos.Line
			}
			l.Stack = append(l.Stack, f)
		}
		if l.Name == "" && len(st.Frames) > 0 {
			l.Name = shortFunc(st.Frames[len(st.Frames)-1].Func)
		}
	}
	out := make([]Lane, 0, len(byID))
	for _, l := range byID {
		if l.Name == "" {
			l.Name = fmt.Sprintf("goroutine %d", l.Goroutine)
		}
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Goroutine < out[j].Goroutine })
	return out
}

// blocked reports whether a goroutine's final state is a wait.
func blocked(state string) bool {
	switch state {
	case "", "running", "finished", "runnable":
		return false
	}
	return true
}

// shortFunc drops the import path of a function name:
// "example.com/p.(*T).M" → "p.(*T).M".
func shortFunc(name string) string {
	slash := strings.LastIndex(name, "/")
	if paren := strings.Index(name, "("); paren >= 0 && paren < slash {
		slash = strings.LastIndex(name[:paren], "/")
	}
	return name[slash+1:]
}

// opKind classifies an operation of the interleaving by its description.
func opKind(op string) string {
	switch {
	case strings.HasPrefix(op, "go ") && goNote.MatchString(op):
		return "go"
	case strings.HasPrefix(op, "start "):
		return "start"
	case op == "goroutine exits":
		return "exit"
	case strings.HasPrefix(op, "send on "), strings.HasPrefix(op, "select case ") && strings.Contains(op, ": send on "):
		return "send"
	case strings.HasPrefix(op, "receive from "), strings.HasPrefix(op, "select case ") && strings.Contains(op, ": receive from "):
		return "receive"
	case strings.HasPrefix(op, "select"):
		return "select"
	case strings.HasPrefix(op, "close "):
		return "close"
	case strings.HasSuffix(op, "Unlock"), strings.HasSuffix(op, "RUnlock"):
		return "unlock"
	case strings.Contains(op, "Lock"):
		return "lock"
	case strings.Contains(op, ".Wait"), strings.HasPrefix(op, "woken in "), strings.HasPrefix(op, "wake from "), strings.HasPrefix(op, "waiting"):
		return "wait"
	case strings.HasPrefix(op, "sync."), strings.HasPrefix(op, "sync/atomic."), strings.HasPrefix(op, "atomic."):
		return "sync"
	case strings.HasPrefix(op, "event "), strings.HasPrefix(op, "ltl:"), strings.Contains(op, "//ltl:event"):
		return "event"
	case strings.HasPrefix(op, "time."), strings.Contains(op, "clock advances"), strings.Contains(op, "fires at"), strings.Contains(op, "timers due"):
		return "time"
	}
	return "other"
}

// releases reports whether a step lets another goroutine proceed on its
// object: an unlock or a Cond signal. (A WaitGroup's wake is matched by
// wakesWaiters and wokenWait.)
func releases(s Step) bool {
	return s.Kind == "unlock" || strings.HasSuffix(s.Op, "(*Cond).Signal") || strings.HasSuffix(s.Op, "(*Cond).Broadcast")
}

// acquires reports whether a step is one a release lets proceed: a lock,
// or a goroutine woken in Cond.Wait. The step that enters Cond.Wait is not
// one: a signal before it is lost.
func acquires(s Step) bool {
	return s.Kind == "lock" || strings.HasPrefix(s.Op, "woken in ")
}

// wakesWaiters reports whether a step brings a WaitGroup's counter to
// zero while goroutines wait in its Wait.
func wakesWaiters(s Step) bool { return strings.HasSuffix(s.Op, "(wakes waiters)") }

var partner = regexp.MustCompile(`\(with goroutine (\d+)\)$`)

// arrows finds the hand-offs between lanes: a go statement to the new
// goroutine's first step; a rendezvous (a step "with goroutine N") to N's
// lane; a buffered send to the receive that takes its message (FIFO per
// channel); a close to every receive of another goroutine that it lets
// through (the channel's buffer empty), a context's cancel waking a select
// among them; an unlock to the next lock of the same mutex by another
// goroutine; a Cond signal to the goroutine it wakes (a broadcast to each);
// a WaitGroup's last Done to the goroutines it wakes from Wait.
func arrows(trace []Step) []Arrow {
	var out []Arrow
	add := func(from, to int, kind string) {
		out = append(out, Arrow{From: from, To: to, FromG: trace[from].Goroutine, ToG: trace[to].Goroutine, Kind: kind})
	}
	started := map[int]int{} // goroutine → index of its go statement, until its first step
	queued := map[string][]int{}
	closed := map[string]int{}   // channel → index of its close
	released := map[string]int{} // object → index of its last release
	seen := map[string]bool{}    // objects of the steps so far
	wgWake := -1                 // index of the last WaitGroup wake
	for i, s := range trace {
		if from, ok := started[s.Goroutine]; ok {
			add(from, i, "go")
			delete(started, s.Goroutine)
		}
		if m := goNote.FindStringSubmatch(s.Op); m != nil && s.Kind == "go" {
			if g, err := strconv.Atoi(m[2]); err == nil {
				started[g] = i
			}
			continue
		}
		fresh := s.Object != "" && !seen[s.Object]
		seen[s.Object] = true
		switch {
		case s.Object == "":
		case s.Kind == "send" || s.Kind == "receive":
			if m := partner.FindStringSubmatch(s.Op); m != nil {
				// A rendezvous: both goroutines move in this step; the
				// arrow goes to the partner's lane at the same step.
				g, _ := strconv.Atoi(m[1])
				a := Arrow{From: i, To: i, FromG: s.Goroutine, ToG: g, Kind: "chan"}
				if s.Kind == "receive" {
					a.FromG, a.ToG = g, s.Goroutine
				}
				out = append(out, a)
				continue
			}
			q := queued[s.Object]
			switch c, isClosed := closed[s.Object]; {
			case s.Kind == "send":
				queued[s.Object] = append(q, i)
			case len(q) > 0:
				if trace[q[0]].Goroutine != s.Goroutine {
					add(q[0], i, "chan")
				}
				queued[s.Object] = q[1:]
			case isClosed && trace[c].Goroutine != s.Goroutine:
				add(c, i, "close")
			}
		case s.Kind == "close":
			closed[s.Object] = i
		case wakesWaiters(s):
			wgWake = i
		case strings.HasSuffix(s.Op, "(*WaitGroup).Wait"):
			// A woken waiter's step is on a ticket object of its own,
			// first seen there; a Wait that found the counter at zero is
			// on the WaitGroup itself.
			if fresh && wgWake >= 0 && trace[wgWake].Goroutine != s.Goroutine {
				add(wgWake, i, "sync")
			}
		case releases(s):
			released[s.Object] = i
		case acquires(s):
			if from, ok := released[s.Object]; ok && trace[from].Goroutine != s.Goroutine {
				add(from, i, "sync")
				if !strings.HasSuffix(trace[from].Op, "Broadcast") {
					delete(released, s.Object)
				}
			}
		}
	}
	return out
}
