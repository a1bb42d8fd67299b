// Only the header matters: the function is in the toolchain's libFuzzer runtime, which
// -sanitize=fuzzer links. SwiftPM needs one source file to make this a target.
#include "CLibFuzzer.h"
