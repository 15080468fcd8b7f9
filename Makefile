# The two commands a newcomer needs: `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/debug/routes

.PHONY: demo test build release bootstrap clean example

bootstrap:
	@bash scripts/bootstrap.sh

build: bootstrap
	$(SWIFT) build

## The build to install and to measure: optimised, with the Swift runtime linked statically
## (the process starts without loading a dozen shared libraries: a small lint takes 3.4 ms
## instead of 6, the language server answers `initialize` in about 3 ms instead of 5.5).
release: bootstrap
	$(SWIFT) build -c release --static-swift-stdlib --product routes

## Lint the example apps (the seed app and the 47-screen shop over five files) and print
## the seed app's routing tree.
demo: build
	$(BIN) lint Examples/Seed Examples/Shop
	$(BIN) tree Examples/Seed/App.routes

## Every test: Swift unit, fixture, CLI and protocol tests, then the grammar conformance and
## editor-file tests, then an independent language-server client (pytest-lsp).
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) example
	ROUTES_BIN=$(BIN) python3 -m pytest -q Tests/grammar Tests/editors
	ROUTES_BIN=$(BIN) python3 -m pytest -q Tests/lsp

clean:
	rm -rf .build

## The example package whose navigation the RoutesGenerator plugin generates on every build
## (against the test-only ComposableNavigator stand-in, so that it builds on Linux); it
## prints what a few paths build.
example:
	$(SWIFT) build --package-path Examples/SeedPackage
	Examples/SeedPackage/.build/debug/SeedApp
