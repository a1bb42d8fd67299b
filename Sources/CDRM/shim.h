#pragma once
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/* fourcc codes are macros built from fourcc_code(); Swift cannot import them. */
static const uint32_t GRIDLOCK_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;

#include <string.h>
#include <sys/ioctl.h>

/* ioctl numbers are _IOWR() macros, which Swift cannot import. */
static const unsigned long GRIDLOCK_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
static const unsigned long GRIDLOCK_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
static const unsigned long GRIDLOCK_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;

/* What a completed page flip reports. The DRMDevice owns one and passes its address as
 * the flip's user data, so the handler needs no global state. */
struct gridlock_flip_record {
    uint32_t completed;
    uint32_t sequence;
    uint64_t microseconds;
};

static inline void gridlock_page_flip_handler(int fd, unsigned int sequence, unsigned int tv_sec,
                                              unsigned int tv_usec, void *user_data) {
    (void)fd;
    struct gridlock_flip_record *record = (struct gridlock_flip_record *)user_data;
    if (record == NULL) return;
    record->completed += 1;
    record->sequence = sequence;
    record->microseconds = (uint64_t)tv_sec * 1000000u + tv_usec;
}

/* drmHandleEvent wants a context of C function pointers; building it here keeps Swift from
 * needing @convention(c) closures. Reads what is queued on the (non-blocking) fd and calls
 * the handler per flip event; returns -1 with errno (EAGAIN when nothing was queued). */
static inline int gridlock_drm_handle_events(int fd) {
    drmEventContext context;
    memset(&context, 0, sizeof context);
    context.version = 2; /* the first version with page_flip_handler; libdrm reads no later fields */
    context.page_flip_handler = gridlock_page_flip_handler;
    return drmHandleEvent(fd, &context);
}
