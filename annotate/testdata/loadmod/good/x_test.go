package good_test

import "example.com/loadmod/good"

//ltl:prop ext call good.Start
//ltl:spec external F ext && G(unknown)
var _ = good.Start
