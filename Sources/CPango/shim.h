#pragma once
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>

// The GObject casts are macros, which Swift cannot call.
static inline PangoFcFontMap *gridlock_fc_font_map(PangoFontMap *map) { return PANGO_FC_FONT_MAP(map); }
static inline void gridlock_object_unref(void *object) { g_object_unref(object); }
