/* Connects to $WAYLAND_DISPLAY with the host's libwayland-client, does a roundtrip and prints
 * each global as "INTERFACE VERSION", then each output's current mode as "mode WxH": proof
 * that a program built on this machine speaks to the compositor inside the Debian 13 root.
 * Test-only (tests/wayland/harness.py builds it into .build/wayland/). */
#include <stdio.h>
#include <string.h>
#include <wayland-client.h>

static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width, int32_t height,
                        int32_t refresh) {
  (void)data; (void)output; (void)refresh;
  if (flags & WL_OUTPUT_MODE_CURRENT) printf("mode %dx%d\n", width, height);
}
static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y, int32_t mm_width,
                            int32_t mm_height, int32_t subpixel, const char *make, const char *model,
                            int32_t transform) {
  (void)data; (void)output; (void)x; (void)y; (void)mm_width; (void)mm_height; (void)subpixel; (void)make;
  (void)model; (void)transform;
}
static void output_done(void *data, struct wl_output *output) { (void)data; (void)output; }
static void output_scale(void *data, struct wl_output *output, int32_t factor) { (void)data; (void)output; (void)factor; }
/* Version 2: geometry, mode, done and scale (name and description came with version 4). */
static const struct wl_output_listener output_listener = {
  .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale,
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
  (void)data;
  printf("%s %u\n", interface, version);
  if (strcmp(interface, wl_output_interface.name) == 0) {
    struct wl_output *output = wl_registry_bind(registry, name, &wl_output_interface, version < 2 ? version : 2);
    wl_output_add_listener(output, &output_listener, NULL);
  }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

int main(void) {
  struct wl_display *display = wl_display_connect(NULL);
  if (!display) { perror("list-globals: cannot connect to $WAYLAND_DISPLAY"); return 1; }
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  /* The first roundtrip lists the globals, the second the outputs' modes. */
  if (wl_display_roundtrip(display) < 0 || wl_display_roundtrip(display) < 0) {
    fprintf(stderr, "list-globals: the roundtrip failed\n");
    return 1;
  }
  wl_display_disconnect(display);
  return 0;
}
