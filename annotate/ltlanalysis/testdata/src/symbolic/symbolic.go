package symbolic

//ltl:symbolic // want `ltl:symbolic: attached to nothing: symbolic belongs in the doc comment of a function \(for its parameters\) or of a package-level var`
type T int

//ltl:symbolic nosuch x // want `ltl:symbolic: nosuch is not a variable of this declaration`
var x, y int

//ltl:symbolic // want `ltl:symbolic: function noParams has no parameters to make symbolic`
func noParams() {
	//ltl:symbolic // want `ltl:symbolic: attached to nothing`
	var z int
	_ = z
}

//ltl:symbolic b b c // want `ltl:symbolic: b is listed twice` `ltl:symbolic: c is not a parameter of f`
func f(a, b int) {}

//ltl:symbolic
var (
	v1 int
	//ltl:symbolic // want `ltl:symbolic: v2 is already symbolic by the directive at symbolic.go:19:1`
	v2 int
)
