package good

//ltl:spec startStop G(started -> F stopped)
