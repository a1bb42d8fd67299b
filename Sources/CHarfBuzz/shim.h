#pragma once
#include <hb.h>
#include <hb-ot.h>
#include <fribidi/fribidi.h>
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>

// Macros built from other macros, which Swift does not import.
static const FriBidiParType gridlock_fribidi_par_on = FRIBIDI_PAR_ON;
