// Package meaning is a cache whose specs are well-formed but say nothing, or
// less than they seem to: the findings of annotate's Lint.
package meaning

//ltl:prop fill call Fill
//ltl:prop evict call Evict
//ltl:prop full size >= limit
//ltl:prop empty size == 0
//ltl:prop spare size > 2*limit // want `ltl:prop spare: not used by any spec`
//ltl:spec evictOnce G(evict -> G !evict) // want `ltl:spec evictOnce: G\(evict -> G !evict\) is equivalent to G !evict: G !evict cannot hold at a step where evict holds; to constrain the steps after evict, write G\(evict -> N G !evict\) \(N: from the next step on, if any; X instead requires a next step\)`
//ltl:spec fullForever F(full) && G(!full) // want `ltl:spec fullForever: unsatisfiable: no trace satisfies it, so every run violates it`
//ltl:spec tautology G(empty -> empty) // want `ltl:spec tautology: valid: it holds on every trace, so it checks nothing`
//ltl:spec both F(fill && evict) // want `ltl:spec both: unsatisfiable: it needs two events at one step, but events happen one at a time`
//ltl:spec fillEvict G(fill && evict -> F empty) // want `ltl:spec fillEvict: vacuous: the antecedent fill && evict of G\(fill && evict -> F empty\) needs two events at one step, but events happen one at a time, so it checks nothing`
//ltl:spec impossible G(full && !full -> F evict) && F fill // want `ltl:spec impossible: vacuous: the antecedent full && !full of G\(full && !full -> F evict\) can never hold, so it checks nothing`
//ltl:spec apart G(!fill || !evict) // want `ltl:spec apart: valid: it holds on every trace where events happen one at a time, as they do, so it checks nothing`
//ltl:spec deep F(full && X X X X X X X X X X X X X X X X !full) // want `ltl:spec deep: meaning not checked: automaton: automaton too large`
//ltl:spec evictWhenFull G(full -> F evict)
var size, limit int

// Fill adds an entry.
func Fill() {
	//ltl:event grown // want `ltl:event grown: not used by any spec`
	size++
}

// Evict removes one.
func Evict() { size-- }
