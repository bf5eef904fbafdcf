package clean

//ltl:spec startStop G(started -> F stopped)
