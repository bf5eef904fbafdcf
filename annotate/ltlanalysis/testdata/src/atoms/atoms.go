package atoms

var (
	flag  bool
	count int
	p18   bool
)

//ltl:prop unlock call f
//ltl:prop p18 count > 1
//ltl:prop broken count + // want `ltl:prop broken: syntax error`
//ltl:spec s1 G(unlok) // want `ltl:spec s1: unknown proposition "unlok" \(did you mean "unlock"\?\)`
//ltl:spec s2 G(zzz) // want `ltl:spec s2: unknown proposition "zzz"$`
//ltl:spec s3 G(p18) // want `ltl:spec s3: ambiguous atom "p18": it is both the prop declared at atoms.go:10:1 and the Go expression p18 \(bool\) in scope; rename the prop`
//ltl:spec s4 G(s1) // want `ltl:spec s4: "s1" is a spec, not a prop: a spec cannot be an atom of another spec`
//ltl:spec s5 G(count) // want `ltl:spec s5: count has type int, not bool`
//ltl:spec s6 G("unlock") // want `ltl:spec s6: undefined: unlock \(quoted atoms are Go expressions; write unlock without quotes for the prop declared at atoms.go:9:1\)`
//ltl:spec s7 G(broken)
//ltl:spec s8 G(flag && "count > 2" && unlock)
func f() {}
