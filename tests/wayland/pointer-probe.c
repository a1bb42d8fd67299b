/* A fullscreen xdg-shell window of one colour that prints what its pointer does, one line an
 * event, so the harness can check that tests/wayland/drag reaches a client and where:
 *   configured W H        the compositor's size for the window (the output's, fullscreen)
 *   shown                 the first frame was presented (the window is on the output)
 *   pointer               the seat has a pointer, and the window listens to it
 *   enter X Y | motion X Y | leave
 *   button CODE pressed|released
 * Coordinates are surface-local; fullscreen, they are the output's pixels.
 *   pointer-probe RRGGBB
 * Test-only, built with the host's libwayland-client and wayland-protocols' xdg-shell
 * (tests/wayland/harness.py builds it into .build/wayland/). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct wl_seat *seat;
static struct xdg_wm_base *wm_base;
static struct wl_surface *surface;
static uint32_t colour;
static int width = 0, height = 0, shown = 0;

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vprintf(format, args);
  va_end(args);
  putchar('\n');
  fflush(stdout);
}

static struct wl_buffer *solid_buffer(int w, int h) {
  int stride = w * 4, size = stride * h;
  int fd = memfd_create("pointer-probe", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, size) < 0) { perror("pointer-probe: memfd"); exit(1); }
  uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (pixels == MAP_FAILED) { perror("pointer-probe: mmap"); exit(1); }
  for (int i = 0; i < w * h; i++) pixels[i] = 0xff000000u | colour;
  munmap(pixels, size);
  struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
  struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, w, h, stride, WL_SHM_FORMAT_XRGB8888);
  wl_shm_pool_destroy(pool);
  close(fd);
  return buffer;
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  (void)data; (void)time;
  wl_callback_destroy(callback);
  if (!shown) { shown = 1; say("shown"); }
}
static const struct wl_callback_listener frame_listener = { frame_done };

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
  (void)data;
  xdg_surface_ack_configure(xdg_surface, serial);
  int w = width > 0 ? width : 800, h = height > 0 ? height : 480;
  wl_surface_attach(surface, solid_buffer(w, h), 0, 0);
  wl_surface_damage(surface, 0, 0, w, h);
  wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
  wl_surface_commit(surface);
}
static const struct xdg_surface_listener surface_listener = { surface_configure };

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h, struct wl_array *states) {
  (void)data; (void)toplevel; (void)states;
  if (w > 0 && h > 0 && (w != width || h != height)) { width = w; height = h; say("configured %d %d", w, h); }
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) { (void)data; (void)toplevel; exit(0); }
static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial) { (void)data; xdg_wm_base_pong(base, serial); }
static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) {
  (void)data; (void)pointer; (void)serial; (void)s;
  say("enter %.0f %.0f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}
static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *s) {
  (void)data; (void)pointer; (void)serial; (void)s;
  say("leave");
}
static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
  (void)data; (void)pointer; (void)time;
  say("motion %.0f %.0f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}
static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
  (void)data; (void)pointer; (void)serial; (void)time;
  say("button %u %s", button, state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released");
}
static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
  (void)data; (void)pointer; (void)time; (void)axis; (void)value;
}
/* Version 1 of wl_pointer: no frame or axis details, one line an event is enough. */
static const struct wl_pointer_listener pointer_listener = { pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis };

static void seat_capabilities(void *data, struct wl_seat *s, uint32_t capabilities) {
  (void)data;
  static struct wl_pointer *pointer;
  if ((capabilities & WL_SEAT_CAPABILITY_POINTER) && !pointer) {
    pointer = wl_seat_get_pointer(s);
    wl_pointer_add_listener(pointer, &pointer_listener, NULL);
    say("pointer");
  }
}
static void seat_name(void *data, struct wl_seat *s, const char *name) { (void)data; (void)s; (void)name; }
static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
  (void)data; (void)version;
  if (strcmp(interface, wl_compositor_interface.name) == 0)
    compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
  else if (strcmp(interface, wl_shm_interface.name) == 0)
    shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
  else if (strcmp(interface, wl_seat_interface.name) == 0 && !seat) {
    seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    wl_seat_add_listener(seat, &seat_listener, NULL);
  } else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
    wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
    xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);
  }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

int main(int argc, char **argv) {
  if (argc != 2 || strlen(argv[1]) != 6) { fprintf(stderr, "usage: pointer-probe RRGGBB\n"); return 64; }
  colour = (uint32_t)strtoul(argv[1], NULL, 16);
  struct wl_display *display = wl_display_connect(NULL);
  if (!display) { perror("pointer-probe: cannot connect to $WAYLAND_DISPLAY"); return 1; }
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (!compositor || !shm || !seat || !wm_base) { fprintf(stderr, "pointer-probe: the compositor lacks wl_compositor, wl_shm, wl_seat or xdg_wm_base\n"); return 1; }
  surface = wl_compositor_create_surface(compositor);
  struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
  xdg_surface_add_listener(xdg_surface, &surface_listener, NULL);
  struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
  xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
  xdg_toplevel_set_title(toplevel, "pointer-probe");
  xdg_toplevel_set_fullscreen(toplevel, NULL);
  wl_surface_commit(surface);
  while (wl_display_dispatch(display) >= 0) {}
  return 0;
}
