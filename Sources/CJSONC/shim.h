#ifndef ROUTES_CJSONC_SHIM_H
#define ROUTES_CJSONC_SHIM_H
#if __has_include(<json-c/json.h>)
#include <json-c/json.h>
#else
#error "routes needs json-c's headers, found through pkg-config: brew install json-c pkg-config (macOS), apt-get install libjson-c-dev pkg-config (Debian, Ubuntu). On an Apple silicon Mac, Xcode must see Homebrew's pkg-config files: see docs/codegen.md."
#endif
#endif
