module example.com/loadmod

go 1.26
