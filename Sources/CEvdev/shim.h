#pragma once
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <time.h>

/* struct input_event keeps its time as `struct timeval time` on 64-bit and 32-bit time_t
 * builds, but as `__sec`/`__usec` where a 32-bit build uses a 64-bit time_t. The kernel's
 * input_event_sec/input_event_usec macros hide the difference; Swift cannot see macros. */
static inline long long gridlock_input_event_nanoseconds(const struct input_event *ev) {
    return (long long)ev->input_event_sec * 1000000000LL + (long long)ev->input_event_usec * 1000LL;
}
