package specfile

var counter int

//ltl:specfile specs.ltl
//ltl:specfile "specs.ltl" // want `ltl:specfile: "specs.ltl" is already included by the directive at specfile.go:5:1`
//ltl:specfile missing.ltl // want `ltl:specfile: cannot read spec file missing.ltl: no such file or directory`
//ltl:specfile "bad // want `ltl:specfile: invalid quoted path "bad`
func tick() {}
