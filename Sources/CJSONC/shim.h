#ifndef ROUTES_CJSONC_SHIM_H
#define ROUTES_CJSONC_SHIM_H
#include <json-c/json.h>
#endif
