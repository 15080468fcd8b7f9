# The two commands a newcomer needs: `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/debug/routes
# The Python of the test suites: a virtual environment made by scripts/bootstrap.sh, so that
# nothing is installed into the system Python (which refuses it on Debian 12, Ubuntu 24.04).
PYTHON := .venv/bin/python

.PHONY: demo test build release bootstrap bootstrap-build clean example

## What building needs besides Swift: json-c (installed only when missing).
bootstrap-build:
	@bash scripts/bootstrap.sh build

## What testing needs too: Graphviz and the Python test packages (in .venv/).
bootstrap:
	@bash scripts/bootstrap.sh test

build: bootstrap-build
	$(SWIFT) build

## The build to install and to measure: optimised, with the Swift runtime linked statically
## (the process starts without loading a dozen shared libraries: a small lint takes 3.4 ms
## instead of 6, the language server answers `initialize` in about 3 ms instead of 5.5), and
## on Linux as a position-dependent executable (`-no-pie`): the loader then has none of the
## executable's 45,000 pointers to relocate, nor the pages that hold them to copy (a lint of
## a one-line file 4.5 -> 3.7 ms, of a 10k-line app 13.5 -> 12.3 ms; 1.2 MB less memory).
RELEASE_FLAGS := --static-swift-stdlib
ifeq ($(shell uname -s),Linux)
RELEASE_FLAGS += -Xswiftc -Xclang-linker -Xswiftc -no-pie
endif
release: bootstrap-build
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product routes

## Lint the example apps (the seed app, the 47-screen shop over five files, and two apps
## sharing a library with their routes.json) and print
## the seed app's routing tree. Needs Swift and json-c only.
demo: build
	$(BIN) lint Examples/Seed Examples/Shop Examples/TwoApps
	$(BIN) tree Examples/Seed/App.routes

## Every test: Swift unit, fixture, guide, CLI and protocol tests, then the grammar
## conformance and editor-file tests, then an independent language-server client (pytest-lsp).
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) example
	ROUTES_BIN=$(BIN) $(PYTHON) -m pytest -q Tests/grammar Tests/editors Tests/docs
	ROUTES_BIN=$(BIN) $(PYTHON) -m pytest -q Tests/lsp

## The build products; the Python test packages stay (rm -rf .venv to remove them too).
clean:
	rm -rf .build

## The example package whose navigation the RoutesGenerator plugin generates on every build
## (against the test-only stand-ins of ComposableNavigator and SwiftUI, so that it builds on
## Linux); SeedDemo prints what a few paths build.
example:
	$(SWIFT) build --package-path Examples/SeedPackage
	Examples/SeedPackage/.build/debug/SeedDemo
	$(SWIFT) build --package-path Examples/ReaderPackage
	Examples/ReaderPackage/.build/debug/ReaderDemo
