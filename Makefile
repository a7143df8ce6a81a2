# Pajama: `make run` and `make test` are all a new machine needs (see README.md).
SWIFT ?= swift
STORY ?= Stories/lantern-keeper

.PHONY: deps build run test bench clean tsan asan

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	$(SWIFT) run pajama read $(STORY)

# Two test processes: the end-to-end tests block their threads while they wait on tmux screens, and in
# one process with the unit tests (2 threads on 2 cores) they starved the unit tests' tasks for over
# 20 s under load, long enough for a load's no-progress timeout to fire.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '^EndToEndTests\.'
	$(SWIFT) test --skip-build --filter '^EndToEndTests\.'

# The whole suite under ThreadSanitizer or AddressSanitizer, in .build-tsan or .build-asan; reports in
# .build-<kind>/reports/, non-zero exit on any (see docs/security.md, "Sanitizers").
tsan: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh thread

asan: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh address

bench: deps
	$(SWIFT) build -c release
	.build/release/pajama-bench

clean:
	rm -rf .build

# Fuzzing (docs/security.md, "Fuzzing"): each libFuzzer target for FUZZ_SECONDS (default 60), one at a
# time under nice; FUZZ_TARGETS="story sound" picks some. Prints executions and findings; 1 on a finding.
.PHONY: fuzz
fuzz: deps
	scripts/fuzz.sh
