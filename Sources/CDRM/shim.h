#pragma once
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/* fourcc codes are macros built from fourcc_code(); Swift cannot import them. */
static const uint32_t GRIDLOCK_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
