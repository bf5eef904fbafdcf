package synth

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// examFiles are the thesis's ExamService listings, by aspect name.
var examFiles = map[string]string{
	"Tuition":             "tuition.altl",
	"Availability":        "availability.altl",
	"AvailabilityNotWait": "availabilitynotwait.altl",
	"FailuresLogging":     "failureslogging.altl",
	"AllowQuitting":       "allowquitting.altl",
	"ExamProtection":      "examprotection.altl",
	"ExamCounter":         "examcounter.altl",
}

// weaveExam weaves ExamService with the named aspects.
func weaveExam(t testing.TB, aspects ...string) *Weaving {
	t.Helper()
	paths := []string{filepath.Join("testdata", "aspectltl", "examservice.altl")}
	for _, a := range aspects {
		paths = append(paths, filepath.Join("testdata", "aspectltl", examFiles[a]))
	}
	spec, err := ParseAspectLTLFiles(paths...)
	require.NoError(t, err)
	w, err := spec.Weave()
	require.NoError(t, err)
	return w
}

func realize(t *testing.T, w *Weaving) *Result {
	t.Helper()
	res, err := w.Spec.Realizable(context.Background())
	require.NoError(t, err)
	return res
}

// TestAspectLTLThesisTable checks the realizability results of the
// thesis's running example (§3.2.4.2 and §3.2.5.2), and which of the
// six-aspect specifications is realizable: the one with
// AvailabilityNotWait, not the one with Availability.
func TestAspectLTLThesisTable(t *testing.T) {
	six := []string{"FailuresLogging", "AllowQuitting", "ExamProtection", "ExamCounter", "Tuition"}
	for _, tc := range []struct {
		aspects    []string
		realizable bool
	}{
		{nil, true},
		{[]string{"Tuition"}, true},
		{[]string{"Availability"}, true},
		{[]string{"Tuition", "Availability"}, false},
		{[]string{"Availability", "Tuition"}, false}, // order does not matter
		{[]string{"Tuition", "AvailabilityNotWait"}, true},
		{[]string{"AllowQuitting", "ExamProtection"}, true},
		{append(six[:5:5], "AvailabilityNotWait"), true},
		{append(six[:5:5], "Availability"), false},
	} {
		w := weaveExam(t, tc.aspects...)
		assert.Equal(t, tc.realizable, realize(t, w).Realizable, "ExamService with %v", tc.aspects)
	}
}

// TestAspectLTLWeaving checks the composition of Def. 3.6: the aspects'
// transitions are added by disjunction, their safety conjoined, and the
// response pattern becomes a helper with a liveness goal.
func TestAspectLTLWeaving(t *testing.T) {
	w := weaveExam(t, "Tuition", "AvailabilityNotWait")
	var names []string
	for _, v := range w.Spec.Inputs {
		names = append(names, v.Name)
	}
	assert.Equal(t, []string{"evalExam", "newStudent", "tuition"}, names)
	require.Len(t, w.Spec.Section(SysTrans), 3)
	trans := w.Spec.Section(SysTrans)[0]
	assert.Equal(t, ExprOr, trans.Expr.Op, "ρ_B ∨ ρ_Tuition")
	assert.Contains(t, trans.Text, "TRANS of ExamService ∨ Tuition")
	assert.Equal(t, []string{"AvailabilityNotWait_pending1"}, w.Helpers())
	live := w.Spec.Section(SysLiveness)
	require.Len(t, live, 1)
	assert.Equal(t, "!AvailabilityNotWait_pending1", live[0].Expr.String())
	assert.Equal(t, "wait", w.ValueName("state", 0))
	assert.Equal(t, "exit", w.ValueName("state", 5))
}

// TestAspectLTLPastHelpers checks the helper variables of past operators
// on a machine: FailuresLogging's logFail must equal "the previous state
// was failed and this one is exit" on every step of the controller.
func TestAspectLTLPastHelpers(t *testing.T) {
	w := weaveExam(t, "FailuresLogging", "AvailabilityNotWait")
	res := realize(t, w)
	require.True(t, res.Realizable)
	c, err := res.Controller(context.Background())
	require.NoError(t, err)
	m, err := c.Mealy(context.Background(), 0)
	require.NoError(t, err)
	const failed, exit = 4, 5
	logged := 0
	all := append(append([]Var(nil), w.Spec.Inputs...), w.Spec.Outputs...)
	for _, st := range m.States[1:] {
		cur := namedValues(all, st.Values)
		for _, e := range st.Edges {
			nxt := namedValues(all, append(append([]int(nil), e.Input...), e.Output...))
			want := cur["state"] == failed && nxt["state"] == exit
			assert.Equal(t, want, nxt["logFail"] == 1, "step %v -> %v", cur, nxt)
			if want {
				logged++
			}
		}
	}
	assert.Positive(t, logged, "the controller never logs a failure")
	assert.NoError(t, m.Verify(context.Background(), w.Spec))
}

// TestAspectLTLTrace checks the thesis's traceability example (§3.2.7.4):
// in ⟨ExamService, {Tuition, AvailabilityNotWait}⟩, wait→exit traces to
// Tuition and wait→welcome to the base and AvailabilityNotWait.
func TestAspectLTLTrace(t *testing.T) {
	w := weaveExam(t, "Tuition", "AvailabilityNotWait")
	res := realize(t, w)
	tr, err := w.Trace(context.Background(), res, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"state"}, tr.Vars)
	exit := tr.Move("wait -> exit")
	require.NotNil(t, exit, "the controller never goes from wait to exit")
	assert.Equal(t, []string{"Tuition"}, exit.DefinedBy)
	welcome := tr.Move("wait -> welcome")
	require.NotNil(t, welcome)
	assert.Equal(t, []string{"ExamService"}, welcome.DefinedBy)
	assert.Equal(t, []string{"AvailabilityNotWait"}, welcome.Serves)
	stay := tr.Move("wait -> wait")
	require.NotNil(t, stay)
	assert.Empty(t, stay.Serves, "staying in wait serves no goal")
	for _, m := range tr.Taken {
		assert.NotEmpty(t, m.DefinedBy, "%s is justified by nothing", m.Text)
		assert.Positive(t, m.Edges)
	}
	assert.Empty(t, tr.Untaken)
	var b strings.Builder
	require.NoError(t, tr.WriteText(&b))
	assert.Contains(t, b.String(), "wait -> exit: defined by Tuition; serves the liveness of AvailabilityNotWait")
	assert.Contains(t, b.String(), "wait -> welcome: defined by ExamService; serves the liveness of AvailabilityNotWait")
}

// TestAspectLTLTraceForbidden checks the other way: moves the controller
// never makes, blamed on safety or on liveness.
func TestAspectLTLTraceForbidden(t *testing.T) {
	// The extracted controller of ⟨ExamService, {AllowQuitting,
	// ExamProtection}⟩ never welcomes anyone: welcoming is allowed and
	// winning, just not chosen.
	w := weaveExam(t, "AllowQuitting", "ExamProtection")
	tr, err := w.Trace(context.Background(), realize(t, w), 0)
	require.NoError(t, err)
	welcome := tr.Move("wait -> welcome")
	require.NotNil(t, welcome)
	assert.Contains(t, tr.Untaken, *welcome)
	assert.Equal(t, []string{"ExamService"}, welcome.DefinedBy)
	assert.True(t, welcome.NotChosen)
	assert.False(t, welcome.ForLiveness)
	// The rest of the base is never reached; AllowQuitting's jump back is
	// listed with it.
	exam := tr.Move("welcome -> inExam")
	require.NotNil(t, exam)
	assert.True(t, exam.Unreached)
	assert.Equal(t, []string{"ExamService"}, exam.DefinedBy)
	jump := tr.Move("inExam -> wait")
	require.NotNil(t, jump)
	assert.True(t, jump.Unreached)
	assert.Equal(t, []string{"AllowQuitting"}, jump.DefinedBy)

	// A safety clause that removes a base move is blamed for it; a move
	// into a trap that starves a liveness goal is forbidden for liveness.
	src := `MODULE M
VARENV go : boolean;
VAR s : {a, b, c, trap};
INIT s=a;
TRANS (s=a -> next(s)=b | next(s)=c | next(s)=trap) & (s=b | s=c -> next(s)=a) & (s=trap -> next(s)=trap);
ASPECT NoC
VAR ext s : {a, c};
LTLSPEC [] (next(s) != c);
ASPECT Return
VAR ext s : {a};
LTLSPEC [] <> (s=a);
`
	spec, err := ParseAspectLTL("m.altl", strings.NewReader(src))
	require.NoError(t, err)
	w, err = spec.Weave()
	require.NoError(t, err)
	tr, err = w.Trace(context.Background(), realize(t, w), 0)
	require.NoError(t, err)
	ac := tr.Move("a -> c")
	require.NotNil(t, ac)
	assert.Equal(t, []string{"M"}, ac.DefinedBy)
	assert.Equal(t, []string{"NoC"}, ac.ForbiddenBy)
	assert.False(t, ac.ForLiveness)
	trap := tr.Move("a -> trap")
	require.NotNil(t, trap)
	assert.Empty(t, trap.ForbiddenBy)
	assert.True(t, trap.ForLiveness)
	assert.Equal(t, []string{"M"}, tr.Move("a -> b").DefinedBy)
	assert.Equal(t, []string{"Return"}, tr.Move("b -> a").Serves)
	var b strings.Builder
	require.NoError(t, tr.WriteText(&b))
	assert.Contains(t, b.String(), "a -> trap: defined by M; forbidden by the strategy to keep liveness")
	assert.Contains(t, b.String(), "a -> c: defined by M; forbidden by the safety of NoC")
}

// TestAspectLTLLookAhead checks the thesis's look-ahead example
// (§3.2.5.2): in ⟨ExamService, {AllowQuitting, ExamProtection}⟩ the
// states in the exam with quit set (and ExamProtection's obligation
// pending) are winning, and the move to wait that AllowQuitting adds from
// them is allowed by every transition and safety clause but, unless a new
// student arrives at that very step, leads only to states the
// environment wins: it keeps the student away, and the system waits with
// ExamProtection's obligation pending forever. (With a new student the
// jump is safe: the system welcomes the student, and that exam's exit
// meets the obligation — the thesis does not make this exception.)
func TestAspectLTLLookAhead(t *testing.T) {
	w := weaveExam(t, "AllowQuitting", "ExamProtection")
	res := realize(t, w)
	require.True(t, res.Realizable)
	g := res.g
	state, quit := g.sp.Lookup("state"), g.sp.Lookup("quit")
	const wait, inExam = 0, 2
	student := g.sp.Lookup("newStudent")
	at := res.win.And(state.Eq(inExam, false)).And(quit.True(false)).
		And(g.sp.Lookup("AllowQuitting_pending1").True(false)).
		And(g.sp.Lookup("ExamProtection_pending1").True(false)).
		And(g.sp.Lookup("ExamProtection_past1").True(false))
	require.False(t, at.IsFalse(), "no winning state in the exam with quit set")
	steps := at.And(g.rhoS).And(g.rhoE)
	jump := steps.And(state.Eq(wait, true)).And(student.True(true).Not())
	require.False(t, jump.IsFalse(), "the woven game has no move from the exam to wait")
	assert.True(t, jump.And(res.win.Prime()).IsFalse(), "moving from the exam to wait can still win")
	stay := steps.And(state.Eq(wait, true).Not()).And(student.True(true).Not())
	assert.False(t, stay.And(res.win.Prime()).IsFalse(), "no winning way to continue the exam")
	withStudent := steps.And(state.Eq(wait, true)).And(student.True(true))
	assert.False(t, withStudent.And(res.win.Prime()).IsFalse(), "jumping to wait as a student arrives loses")
}

// TestAspectLTLConflicts checks the conflict report of the thesis's
// unrealizable example: exactly Tuition and Availability are blamed, also
// among all six aspects, and the environment's play shows it.
func TestAspectLTLConflicts(t *testing.T) {
	w := weaveExam(t, "Tuition", "Availability")
	c, err := w.Conflicts(context.Background())
	require.NoError(t, err)
	assert.True(t, c.Exhaustive)
	assert.Equal(t, [][]string{{"Tuition", "Availability"}}, c.Cores)
	require.NoError(t, c.Counterstrategy.Verify(context.Background(), c.Core.Spec))
	require.NotEmpty(t, c.Play)
	assert.GreaterOrEqual(t, c.Loop, 0, "the play does not loop")
	blamed := map[string]bool{}
	for _, s := range c.Play {
		for _, b := range s.Blame {
			blamed[b] = true
		}
	}
	assert.Equal(t, map[string]bool{"Tuition": true, "Availability": true}, blamed)
	assert.Contains(t, c.Play[0].Inputs, "newStudent=1", "the environment starts by sending a student")
	assert.Contains(t, c.Play[0].Inputs, "tuition=0", "who has not paid")
	var b strings.Builder
	require.NoError(t, c.WriteText(&b))
	assert.Contains(t, b.String(), "{Tuition, Availability}")
	assert.Contains(t, b.String(), "the safety of Tuition rules out moves")
	assert.Contains(t, b.String(), "keeps Availability's goal from being met")

	if testing.Short() {
		return
	}
	w = weaveExam(t, "Tuition", "Availability", "FailuresLogging", "AllowQuitting", "ExamProtection", "ExamCounter")
	c, err = w.Conflicts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"Tuition", "Availability"}}, c.Cores)

	_, err = weaveExam(t, "Tuition").Conflicts(context.Background())
	assert.ErrorIs(t, err, ErrRealizable)
}

// TestAspectLTLGo checks the generated Go source of a woven controller:
// it carries the enumeration constants.
func TestAspectLTLGo(t *testing.T) {
	w := weaveExam(t, "Tuition", "AvailabilityNotWait")
	res := realize(t, w)
	c, err := res.Controller(context.Background())
	require.NoError(t, err)
	m, err := c.Mealy(context.Background(), 0)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, w.WriteGo(&b, m.Minimize(), "exam", "Controller"))
	src := b.String()
	assert.Regexp(t, `ControllerStateWait += 0`, src)
	assert.Regexp(t, `ControllerStateExit += 5`, src)
	assert.Regexp(t, `ControllerEvalExamFail += 1`, src)
	assert.Contains(t, src, "func (c *Controller) Step(in ControllerInputs) (out ControllerOutputs, ok bool)")
}

// TestAspectLTLTraceLargeBase checks that a base with too many states for
// the untaken moves says so instead of listing none.
func TestAspectLTLTraceLargeBase(t *testing.T) {
	spec, err := ParseAspectLTL("big.altl", strings.NewReader("MODULE Big\nVAR a : 0..99; b : 0..99;\nINIT a=0 & b=0;\nTRANS next(a)=a & next(b)=b;\n"))
	require.NoError(t, err)
	w, err := spec.Weave()
	require.NoError(t, err)
	tr, err := w.Trace(context.Background(), realize(t, w), 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, tr.Vars)
	require.NotNil(t, tr.Move("a=0, b=0 -> a=0, b=0"))
	assert.Contains(t, tr.UntakenSkipped, "more than 4096 valuations")
	var b strings.Builder
	require.NoError(t, tr.WriteText(&b))
	assert.Contains(t, b.String(), "not computed: the base's system variables have more than 4096 valuations")
}

// TestAspectLTLAssumptions checks LTLSPECENV: assuming that students who
// have paid keep coming makes Tuition and Availability compatible.
func TestAspectLTLAssumptions(t *testing.T) {
	base := weaveExam(t).Base
	spec, err := ParseAspectLTL("paid.altl", strings.NewReader(`ASPECT PaidTuition
VARENV new tuition : boolean;
       ext newStudent : boolean;
VAR    ext state : {wait, welcome, exit};
       new showTuition : boolean;
TRANS  ( state=wait & next(state)=exit & !tuition & next(showTuition) );
LTLSPEC [] ( !(state=wait & !tuition & next(state)=welcome) );
LTLSPECENV [] <> (newStudent & tuition);
`))
	require.NoError(t, err)
	avail := weaveExam(t, "Availability").Aspects[0]
	w, err := Weave(base, spec.Aspects[0], avail)
	require.NoError(t, err)
	require.Len(t, w.Spec.Section(EnvLiveness), 1)
	assert.True(t, realize(t, w).Realizable)
}
