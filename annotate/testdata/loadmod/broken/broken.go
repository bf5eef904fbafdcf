package broken

//ltl:spec s G(x)
var x bool = 1
