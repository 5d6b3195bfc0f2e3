# hookinstall: the two commands a fresh machine needs are `make demo` and `make test`
# (the fast loop); `make check` is the full pass that .ci/run runs.
GO       ?= go
# Version, commit and commit date for -ldflags; without git (a source
# tarball) they stay empty and the binary reads its build info instead.
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE     ?= $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS  := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
# goreleaser v2 for make dist, built through the Go module proxy. 2.15.1 is
# the newest release that builds here: 2.18 needs Go 1.27, and 2.16 and 2.17
# need go.digitalxero.dev/go-msix, which the proxy does not serve.
GORELEASER ?= $(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1
BIN      := bin/hookinstall
FUZZTIME ?= 20s

.PHONY: all build install dist test check bench fuzz lint demo e2e e2e-oldest e2e-selftest soak update clean

all: build

# Built as the release is (.goreleaser.yaml: CGO_ENABLED=0, a static binary
# with no libc), so make bench measures the program users get: a binary
# linked with libc maps it into every run (about 1.6 MB more peak RSS).
build:
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/hookinstall

install:
	CGO_ENABLED=0 $(GO) install -ldflags '$(LDFLAGS)' ./cmd/hookinstall

# Release archives, offline, as a snapshot: dist/ gets one tar.gz per
# linux/darwin x amd64/arm64 (binary, completions, man pages, LICENSE,
# README), a zip per windows x amd64/arm64, checksums.txt and the Homebrew formula (dist/homebrew/);
# .ci/check-dist then checks them. About 20 s with warm caches; from cold
# caches about 7 min of CPU (goreleaser's own build is 6 of them).
dist:
	HOOKINSTALL_COMMIT=$(COMMIT) HOOKINSTALL_DATE=$(DATE) \
	HOOKINSTALL_SHORT_COMMIT=$$(git rev-parse --short=12 HEAD) SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct) \
	$(GORELEASER) release --snapshot --clean
	rm -rf build/docs
	sh .ci/check-dist dist

# The loop a contributor runs after every change: vet, then every package
# once (about 2 minutes on 2 cores).
test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# What CI runs (.ci/run): lint, then the whole suite with the race
# detector, then again under umask 002 (group-writable defaults must not
# leak into what we create).
check: lint
	$(GO) test -race -count=1 -timeout 30m ./...
	sh -c 'umask 002 && $(GO) test -count=1 ./...'

# Rewrite the goldens after an intended change (review the diff): those
# inside testdata/script (the scripts that list every agent among them),
# testdata/renders (the file of every agent that owns its file) and
# scripts/testdata (one hook script per payload rule), and the README's agents
# table (from the registry). The one command a
# newcomer runs after adding an agent (CONTRIBUTING.md "To add an agent").
update:
	$(GO) test -count=1 ./cmd/hookinstall -run TestScript -update
	HOOKINSTALL_UPDATE_RENDERS=1 $(GO) test -count=1 . -run '^TestOwnFileRenders$$'
	UPDATE_GOLDEN=1 $(GO) test -count=1 ./scripts -run '^TestGolden$$'
	HOOKINSTALL_UPDATE_DOCS=1 $(GO) test -count=1 . -run '^TestGeneratedTables$$'

# gofmt, go.mod tidy, vet (with and without the e2e tag), a darwin build and
# vet of every package, the windows builds (amd64, arm64) and vet, and
# staticcheck (pinned; go install fetches it through the module proxy into
# bin/ on first use).
STATICCHECK_VERSION := v0.8.2
STATICCHECK := bin/staticcheck-$(STATICCHECK_VERSION)

lint: $(STATICCHECK)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) mod tidy -diff
	$(GO) vet ./...
	$(GO) vet -tags e2e ./...
	GOOS=darwin $(GO) build ./...
	GOOS=darwin $(GO) vet ./...
	GOOS=windows $(GO) build -o /dev/null ./cmd/hookinstall
	GOOS=windows GOARCH=arm64 $(GO) build -o /dev/null ./cmd/hookinstall
	GOOS=windows $(GO) vet ./...
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags e2e ./...
	GOOS=darwin $(STATICCHECK) ./...

$(STATICCHECK):
	GOBIN=$(CURDIR)/bin/staticcheck.tmp $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/staticcheck.tmp/staticcheck $@ && rmdir bin/staticcheck.tmp

# Every Fuzz target the packages list, for FUZZTIME each: the shared-file
# agents' round trip (FuzzSharedAddRemove: every agent of the registry
# that shares its file with the user, with its shape's round trip), seeded
# from testdata/corpus (and ../shared/corpus when it is there), droid's
# hooks.json, the splicer's and the decoder's; then FuzzSharedAddRemove
# again for each of those agents alone (HOOKINSTALL_FUZZ_AGENT), as
# TestFuzzTargetsCoverEveryAgent lists them. (make test runs every
# target's seed corpus.)
fuzz:
	for pkg in ./adapters ./adapters/jsonedit .; do \
		for target in $$($(GO) test $$pkg -list '^Fuzz' | grep '^Fuzz'); do \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done
	agents=$$($(GO) test -count=1 ./adapters -run '^TestFuzzTargetsCoverEveryAgent$$' -v | sed -n 's/^.*fuzz agent: //p'); \
	[ -n "$$agents" ] || exit 1; \
	for agent in $$agents; do \
		HOOKINSTALL_FUZZ_AGENT=$$agent $(GO) test ./adapters -run '^$$' -fuzz '^FuzzSharedAddRemove$$' -fuzztime $(FUZZTIME) || exit 1; \
	done

# Long runs of the load and SIGKILL tests (not part of make test).
soak:
	$(GO) test -count=1 ./cmd/hookinstall -run '^(TestLoadWithRewriter|TestSIGKILL)$$' -load.duration=60s -kill.rounds=1000 -v

# Go benchmarks, then hooks, writer and doctor side by side against the floor
# and the peers (interleaved runs, median/min/max, ratios); rewrites the
# generated table in docs/performance.md.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./internal/bench/cmd/hookbench -bin $(BIN) -out docs/performance.md

# A scratch HOME seeded with a realistic settings.json: add, status, remove,
# with the diffs shown. Touches nothing outside the scratch folder.
demo: build
	sh testdata/demo/run.sh $(BIN)

# Proof against the real agents: pinned Claude Code, Codex, opencode, Gemini
# CLI, Copilot CLI, Qwen Code, Pi, Kilo CLI, Kimi Code, oh-my-pi and Letta Code from the npm registry
# (installed in parallel, cached outside the repo), a fake model on 127.0.0.1,
# each agent driven through one turn (with a permission prompt where it has
# one) in tmux.
e2e:
	$(GO) test -tags e2e -count=1 -timeout 30m -v ./internal/e2e/...

# The same proof at the other end of each agent's measured range
# (docs/agents.md "Versions"): every agent at the oldest version it runs our
# hooks with, and each version add refuses or reduces (claude 2.1.140, kimi
# 0.10.0, qwen 0.15.10) still starting and running the user's own hooks.
e2e-oldest:
	HOOKINSTALL_E2E_OLDEST=1 $(GO) test -tags e2e -count=1 -timeout 30m -v -run '^TestOldest$$' ./internal/e2e/...

# Breaks one hook per agent and requires make e2e to fail naming it.
e2e-selftest:
	sh internal/e2e/selftest.sh

clean:
	rm -rf bin dist build
