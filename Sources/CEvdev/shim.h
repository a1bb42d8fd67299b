#pragma once
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>

/* ioctl request numbers are function-like macros the Swift importer cannot see. */
static const unsigned long GRIDLOCK_EVIOCGRAB = EVIOCGRAB;
static const unsigned long GRIDLOCK_EVIOCSCLOCKID = EVIOCSCLOCKID;
