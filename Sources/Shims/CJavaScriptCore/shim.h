// JavaScriptCore's C API (libjavascriptcoregtk-4.1), the engine of SugarCube stories (docs/sugarcube.md).
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

// From JSContextRefPrivate.h, which Debian does not install; libjavascriptcoregtk-4.1 exports both
// functions. A script that runs longer than `limit` seconds is stopped when `callback` returns true.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);
