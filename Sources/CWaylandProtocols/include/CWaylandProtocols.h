#pragma once
/* The interface tables that `wayland-scanner private-code` generates from the protocols' XML
 * (Plugins/WaylandScanner) into this target's sources. Only these symbols are declared:
 * the scanner's client headers are not used, because SwiftPM does not put a build-tool
 * plugin's generated headers on the include path. Requests are sent with
 * wl_proxy_marshal_array_flags and events read with a dispatcher, so nothing else is needed. */
#include <wayland-util.h>

/* staging/ext-session-lock/ext-session-lock-v1.xml */
extern const struct wl_interface ext_session_lock_manager_v1_interface;
extern const struct wl_interface ext_session_lock_v1_interface;
extern const struct wl_interface ext_session_lock_surface_v1_interface;

/* staging/ext-idle-notify/ext-idle-notify-v1.xml */
extern const struct wl_interface ext_idle_notifier_v1_interface;
extern const struct wl_interface ext_idle_notification_v1_interface;

/* stable/viewporter/viewporter.xml */
extern const struct wl_interface wp_viewporter_interface;
extern const struct wl_interface wp_viewport_interface;

/* stable/presentation-time/presentation-time.xml */
extern const struct wl_interface wp_presentation_interface;
extern const struct wl_interface wp_presentation_feedback_interface;

/* Their addresses, for Swift: libwayland keeps the pointer a proxy was made with, so Swift
 * must pass the symbol itself, never a copy of the struct. */
static inline const struct wl_interface *gridlock_ext_session_lock_manager_v1_interface(void) { return &ext_session_lock_manager_v1_interface; }
static inline const struct wl_interface *gridlock_ext_session_lock_v1_interface(void) { return &ext_session_lock_v1_interface; }
static inline const struct wl_interface *gridlock_ext_session_lock_surface_v1_interface(void) { return &ext_session_lock_surface_v1_interface; }
static inline const struct wl_interface *gridlock_ext_idle_notifier_v1_interface(void) { return &ext_idle_notifier_v1_interface; }
static inline const struct wl_interface *gridlock_ext_idle_notification_v1_interface(void) { return &ext_idle_notification_v1_interface; }
static inline const struct wl_interface *gridlock_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
