# Pajama: `make run` and `make test` are all a new machine needs (see README.md).
SWIFT ?= swift
STORY ?= Stories/lantern-keeper

.PHONY: deps build run test bench clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: build
	$(SWIFT) run pajama read $(STORY)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: deps
	$(SWIFT) build -c release
	.build/release/pajama-bench

clean:
	rm -rf .build
