#pragma once
/* The core protocol's requests are static inline functions here, which Swift calls as they
 * are; its events are received through wl_proxy_add_dispatcher (GridlockWayland's
 * WaylandProxy), as the extension protocols' are. */
#include <wayland-client.h>

/* Macros, which Swift cannot import. */
static const uint32_t GRIDLOCK_WL_MARSHAL_FLAG_DESTROY = WL_MARSHAL_FLAG_DESTROY;

/* The core interfaces' addresses: libwayland keeps the pointer a proxy was made with, so
 * Swift must pass the symbol itself, never a copy of the struct. */
static inline const struct wl_interface *gridlock_wl_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *gridlock_wl_shm_interface(void) { return &wl_shm_interface; }
static inline const struct wl_interface *gridlock_wl_output_interface(void) { return &wl_output_interface; }
static inline const struct wl_interface *gridlock_wl_seat_interface(void) { return &wl_seat_interface; }
