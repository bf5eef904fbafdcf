# henceforth — quick start: `make demo` and `make test`. Both install what they
# need (Go modules; Debian's libz3-dev for the Z3 bindings; Debian's chromium
# for the browser tests of the HTML reports) and are idempotent.

GO      ?= go
GOFLAGS ?=
export GOFLAGS

.PHONY: demo test deps z3 chromium vet bench install clean racediff realsuites

## deps: Go modules and system libraries the build needs.
deps: z3
	@$(GO) mod download

## z3: Debian's libz3-dev (headers and library for github.com/aclements/go-z3).
z3:
	@sh scripts/ensure-deb.sh libz3-dev /usr/include/z3.h

## demo: check bundled properties on a bundled trace and show a violation with its explanation.
demo: deps
	@sh scripts/demo.sh

## chromium: Debian's chromium (headless), which the browser tests of packages
## report and cmd/ltl drive; they skip, saying so, only where it cannot be installed.
chromium:
	@sh scripts/ensure-deb.sh chromium /usr/bin/chromium || echo "warning: no chromium: the browser tests of packages report and cmd/ltl will be skipped" >&2

## test: the whole suite (formatting, vet, tests with the race detector).
## The explorer interprets the programs under test on one goroutine unless
## it runs several workers, so its tests run with the race detector where
## its own goroutines share state (parallel workers, shards, machine reuse)
## and without it otherwise: under -race the whole package takes over 15
## minutes on two cores. Package ltl imports only the standard library and
## neither it nor its tests start a goroutine: the race detector, which
## reports races between goroutines, has nothing to find there (it made the
## package's tests take 4.5 times the CPU time), so ltl runs without it. That
## run goes alongside the other packages' run (go test runs at most
## GOMAXPROCS packages at a time, and the long packages run their tests one
## after another, which can leave a core idle at the end); the explorer's race
## run follows it in the same background job, which ends before the other
## packages' race run does. go test starts the packages in the order it is
## given them, as many at a time as there are cores: the longest packages
## (LONG) go first, so that the short ones fill the cores at the end instead
## of a long one running alone.
NORACE = explore|ltl
EXPLORE_RACE = Parallel|Worker|Shard|Reuse|Pool|Concurrent
LONG = cmd/ltl ltltest synth split split/gosplit
test: deps chromium
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	{ $(GO) test -short -timeout 20m ./explore ./ltl && \
	  $(GO) test -race -short -timeout 15m -run '$(EXPLORE_RACE)' ./explore; } & norace=$$!; \
	  mod=$$($(GO) list -m); long=$$(for p in $(LONG); do echo "$$mod/$$p"; done); \
	  $(GO) test -race -short -timeout 15m $$long $$($(GO) list ./... | grep -Ev "^$$mod/"'($(NORACE))$$' | grep -vxF "$$long"); status=$$?; \
	  wait $$norace || status=1; exit $$status

## bench: every benchmark once (long; figures go to BENCHMARKS.md by hand). The
## automaton benchmarks compare with MONA (Debian's mona).
bench: deps chromium
	@sh scripts/ensure-deb.sh mona /usr/bin/mona
	$(GO) test -run '^$$' -bench . -benchmem ./...

## racediff: the long differential check of race detection: every explore test
## program natively under go test -race, many runs; each race it reports must
## be among the explorer's (the short version is part of test).
racediff: deps
	$(GO) test -count=1 -timeout 60m -run '^TestRaceDifferential$$' ./explore -racediff.long -v

## realsuites: ltl explore on the unmodified test suites of real modules (fetched
## through the Go module proxy at pinned versions) and of standard library packages,
## next to go test -race -count=3 in the same run; prints a Markdown table (long).
realsuites: deps
	$(GO) run ./scripts/realsuites -details realsuites-details.txt

## install: the ltl CLI and the ltlvet analyzer into $(go env GOPATH)/bin.
install: deps
	$(GO) install ./cmd/...
