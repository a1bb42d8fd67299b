#pragma once
#include <zlib.h>

// inflateInit is a macro over inflateInit_ with the header's version and struct size,
// which Swift does not import.
static inline int gridlock_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
