# Pajama: `make run` and `make test` are all a new machine needs (see README.md).
SWIFT ?= swift
STORY ?= Stories/lantern-keeper

.PHONY: deps build run test bench clean tsan asan release install uninstall deb check-install

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
	rm -rf .build .build-static .build-tools .build-package dist

# MARK: Installing (docs/install.md)
# `make release`: the `pajama` product alone, optimised, with the Swift standard library and Foundation linked
# in (--static-swift-stdlib): it runs on a Debian machine without the Swift toolchain. Its own build folder, so
# the dynamic release build of `make bench` is not rebuilt each time one or the other is made. No $ORIGIN
# rpath (--disable-local-rpath): the installed binary loads nothing from beside itself (lintian: custom-library-search-path).
RELEASE_BUILD ?= .build-static
RELEASE_BIN = $(RELEASE_BUILD)/release/pajama
GENERATED = .build-package/generated
PREFIX ?= /usr/local
DESTDIR ?=

release: deps
	$(SWIFT) build -c release --product pajama --static-swift-stdlib --disable-local-rpath --scratch-path $(RELEASE_BUILD)
	scripts/package/check-static.sh $(RELEASE_BIN)

# Man pages and completions from the command definitions (swift-argument-parser's generate-manual and
# --generate-completion-script), remade when the binary changes.
$(GENERATED)/man/pajama.1: $(RELEASE_BIN) README.md scripts/package/generate-docs.sh scripts/package/man-sections.py scripts/package/pajama.1.exit-status
	SWIFT=$(SWIFT) scripts/package/generate-docs.sh $(RELEASE_BIN) $(GENERATED)

install: release
	@$(MAKE) --no-print-directory $(GENERATED)/man/pajama.1
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) BIN=$(RELEASE_BIN) GENERATED=$(GENERATED) scripts/package/install.sh

uninstall:
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) scripts/package/uninstall.sh

# dist/pajama_<version>_<arch>.deb (dpkg-deb; Depends from dpkg-shlibdeps; lintian must report no error).
deb: release
	@scripts/package/install-package-deps.sh
	@$(MAKE) --no-print-directory $(GENERATED)/man/pajama.1
	BIN=$(RELEASE_BIN) GENERATED=$(GENERATED) scripts/package/build-deb.sh

# Builds the .deb, installs it with dpkg and drives the installed binary without the toolchain; then the same
# for make install DESTDIR=... (scripts/package/check-install.sh). Run by .ci/run after make test.
check-install:
	scripts/package/check-install.sh

# Fuzzing (docs/security.md, "Fuzzing"): each libFuzzer target for FUZZ_SECONDS (default 60), one at a
# time under nice; FUZZ_TARGETS="story sound" picks some. Prints executions and findings; 1 on a finding.
.PHONY: fuzz
fuzz: deps
	scripts/fuzz.sh
