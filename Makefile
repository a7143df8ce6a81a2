# Pajama: `make run` and `make test` are all a new machine needs (see README.md).
SWIFT ?= swift
STORY ?= Stories/lantern-keeper
# Flags of the debug build (build, run, test, check-install-ci). CI gives `-debug-info-format none`: no DWARF
# to emit and link in a build nobody debugs (.ci/run); empty here, so a developer's build keeps its debug info.
DEBUG_FLAGS ?=

.PHONY: deps build run test bench clean tsan asan release install uninstall deb check-install check-install-ci

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(DEBUG_FLAGS)

run: build
	$(SWIFT) run $(DEBUG_FLAGS) pajama read $(STORY)

# Five test processes in two lanes that run side by side (make -j2, each lane's output printed whole when it
# ends). Five processes: the end-to-end tests block their threads while they wait on tmux screens, and the
# sound tests while their private PulseAudio servers start (usleep, a synchronous pactl); in one process with
# the other unit tests (Swift's cooperative pool: 2 threads on 2 cores) they starved those tests' tasks for
# tens of seconds under load, long enough for a load's no-progress timeout to fire. The host's download
# tests measure the process's resident memory, so they run in a process of their own: beside the other
# suites (the SugarCube corpus in JavaScriptCore, the ChoiceScript corpus) the growth they see is not theirs;
# so do the hello-before-cap tests, whose host's timers and socket counts ran late behind those suites' work
# on the two threads of Swift's pool (once 10 s late under load). The SugarCube and ChoiceScript corpora,
# seconds of CPU on those two threads, run in a process of their own too: beside them a loopback HTTP test's
# server answered after the client had given up (HTTPErrorTests, once under load).
# Two lanes: the processes that compute (the unit tests, then the corpora) in one, the ones that mostly wait
# (on sound servers and terminals: 5 s of CPU in 50 s) in the other, so the two cores are used while those
# wait: 54 s instead of 85 s here. The test bundle is run directly (as `swift test` runs it): two `swift test`
# in one .build wait for each other's lock.
TESTS = .build/debug/PajamaPackageTests.xctest --testing-library swift-testing
.PHONY: test-computing test-waiting

test: deps
	$(SWIFT) build $(DEBUG_FLAGS) --build-tests
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-computing test-waiting

test-computing:
	$(TESTS) --skip '^EndToEndTests\.' --skip '^PajamaAudioTests\.' --skip '^PajamaCoReadingTests\.(HostDownloadTests|HelloBeforeCapTests)' \
		--skip '^(PajamaSugarCubeTests\.SugarCubeCorpusTests|PajamaChoiceScriptTests\.ChoiceScriptCorpusTests)'
	$(TESTS) --filter '^PajamaCoReadingTests\.(HostDownloadTests|HelloBeforeCapTests)'
	$(TESTS) --filter '^(PajamaSugarCubeTests\.SugarCubeCorpusTests|PajamaChoiceScriptTests\.ChoiceScriptCorpusTests)'

test-waiting:
	$(TESTS) --filter '^PajamaAudioTests\.'
	$(TESTS) --filter '^EndToEndTests\.'

# The whole suite under ThreadSanitizer or AddressSanitizer, in .build-tsan or .build-asan; reports in
# .build-<kind>/reports/, non-zero exit on any (see docs/security.md, "Sanitizers").
tsan: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh thread

asan: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh address

bench: deps
	$(SWIFT) build -c release
	.build/release/pajama-bench --table docs/performance-table.md

clean:
	rm -rf .build .build-static .build-package dist

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
	$(SWIFT) build $(RELEASE_FLAGS) --product pajama
	scripts/package/check-static.sh $(RELEASE_BIN)

# Man pages and completions from the command definitions (swift-argument-parser's generate-manual and
# --generate-completion-script), remade when the binary changes. The tool is built in the binary's own build
# folder with its flags: the argument-parser modules are already compiled there, so it is a few files.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath --scratch-path $(RELEASE_BUILD)
$(GENERATED)/man/pajama.1: $(RELEASE_BIN) README.md scripts/package/generate-docs.sh scripts/package/man-sections.py scripts/package/pajama.1.exit-status
	$(SWIFT) build $(RELEASE_FLAGS) --product generate-manual
	TOOL=$(RELEASE_BUILD)/release/generate-manual scripts/package/generate-docs.sh $(RELEASE_BIN) $(GENERATED)

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

# CI's run of the same checks (.ci/run, after make test), within CI's time: the package is made from the debug
# build make test left, relinked with the Swift runtime and Foundation inside (--static-swift-stdlib: a link,
# seconds, where a release build from scratch takes about ten minutes), without lintian (make deb runs it).
# A debug link keeps code that a release link's dead-stripping drops, and that code needs Foundation's own
# static libraries named to the linker. What ships is make deb's release build; this checks the packaging,
# discovery, man pages, completions, dpkg -i / -r and make install / uninstall around a binary with no
# toolchain library.
CI_BIN = .build/debug/pajama
CI_PACKAGE = .build-package/ci
STATIC_FOUNDATION = $(foreach lib,--start-group Foundation FoundationInternationalization FoundationEssentials CoreFoundation \
	_FoundationICU _FoundationCShims _FoundationCollections swiftSynchronization --end-group,-Xlinker $(if $(filter --%,$(lib)),$(lib),-l$(lib)))

check-install-ci: deps
	@scripts/package/install-package-deps.sh
	$(SWIFT) build $(DEBUG_FLAGS) --product pajama --static-swift-stdlib --disable-local-rpath $(STATIC_FOUNDATION)
	scripts/package/check-static.sh $(CI_BIN)
	$(SWIFT) build $(DEBUG_FLAGS) --product generate-manual
	TOOL=.build/debug/generate-manual scripts/package/generate-docs.sh $(CI_BIN) $(CI_PACKAGE)/generated
	BIN=$(CI_BIN) GENERATED=$(CI_PACKAGE)/generated OUT=$(CI_PACKAGE)/dist LINTIAN=no COMPRESSION=gzip scripts/package/build-deb.sh >/dev/null
	DEB=$$(ls $(CI_PACKAGE)/dist/pajama_*.deb) BIN=$(CI_BIN) GENERATED=$(CI_PACKAGE)/generated scripts/package/check-install.sh

# Fuzzing (docs/security.md, "Fuzzing"): each libFuzzer target for FUZZ_SECONDS (default 60), one at a
# time under nice; FUZZ_TARGETS="story sound" picks some. Prints executions and findings; 1 on a finding.
.PHONY: fuzz
fuzz: deps
	scripts/fuzz.sh
