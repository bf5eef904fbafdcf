module example.com/specfilemod

go 1.26
