package m

var counter int

//ltl:specfile specs.ltl
//ltl:prop lonely counter > 3
func tick() {}
