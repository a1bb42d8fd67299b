#pragma once
// The native journal protocol through libsystemd: one entry with structured fields.
#include <systemd/sd-journal.h>
