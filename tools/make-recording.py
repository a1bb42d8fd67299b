#!/usr/bin/env python3
"""Write realistic evemu recordings of a finger drawing lock patterns, for gridlock's tests.

Usage:
  tools/make-recording.py devices                      list the device descriptions
  tools/make-recording.py describe DEVICE              description only (N/I/P/B/A lines)
  tools/make-recording.py draw DEVICE PATTERN [PATTERN ...]
        [--rate HZ] [--gap SECONDS] [--gaps S,S,...] [--seed N]
        [--second-finger] [--comment TEXT]           a recording, to stdout
  tools/make-recording.py fixtures DIR                 regenerate every committed fixture in DIR
                                                       (Tests/Fixtures)
  tools/make-recording.py check FILE [FILE ...]        read FILEs with libevemu (the library
                                                       evemu-play uses, via ctypes) and compare
                                                       with what this script reads

PATTERN is 1-based and row-major like the core's text form: 1-2-3-6-9.
The grid is laid out as gridlock's core does it: a square of side 0.8 * min(w, h)
centred on the screen, 3x3 cells, nodes at the cell centres. Screen pixels become
device units the way CoordinateMapper maps back (each unit a cell, its centre
counted), with rotation none and no calibration.

Output follows evemu-record 2.x (file format 1.3): `E: <sec>.<usec> <type> <code>
<value>` lines with readable comments, first event at 0.000001 like evemu-record.
Frames come at --rate (default 100 Hz) with a little timing and position jitter;
devices whose kernel driver sends MSC_TIMESTAMP (hid-multitouch) get it too.
Python 3 standard library only.
"""

import argparse
import ctypes
import ctypes.util
import math
import os
import random
import re
import sys

# linux/input-event-codes.h
EV_SYN, EV_KEY, EV_REL, EV_ABS, EV_MSC = 0x00, 0x01, 0x02, 0x03, 0x04
SYN_REPORT, SYN_MT_REPORT = 0, 2
BTN_LEFT, BTN_RIGHT, BTN_MIDDLE = 0x110, 0x111, 0x112
BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOOL_FINGER = 0x140, 0x141, 0x145
BTN_TOOL_QUINTTAP, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2 = 0x148, 0x14A, 0x14B, 0x14C
BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP = 0x14D, 0x14E, 0x14F
REL_X, REL_Y, REL_WHEEL = 0x00, 0x01, 0x08
ABS_X, ABS_Y, ABS_PRESSURE, ABS_DISTANCE = 0x00, 0x01, 0x18, 0x19
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_WIDTH_MAJOR = 0x2F, 0x30, 0x32
ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x35, 0x36, 0x39, 0x3A
MSC_SCAN, MSC_TIMESTAMP = 0x04, 0x05
INPUT_PROP_POINTER, INPUT_PROP_DIRECT, INPUT_PROP_BUTTONPAD = 0x00, 0x01, 0x02

NAMES = {
    EV_SYN: ("EV_SYN", {0: "SYN_REPORT", 2: "SYN_MT_REPORT", 3: "SYN_DROPPED"}),
    EV_KEY: ("EV_KEY", {BTN_TOUCH: "BTN_TOUCH", BTN_LEFT: "BTN_LEFT"}),
    EV_REL: ("EV_REL", {REL_X: "REL_X", REL_Y: "REL_Y"}),
    EV_ABS: ("EV_ABS", {ABS_X: "ABS_X", ABS_Y: "ABS_Y", ABS_MT_SLOT: "ABS_MT_SLOT",
                        ABS_MT_TOUCH_MAJOR: "ABS_MT_TOUCH_MAJOR", ABS_MT_WIDTH_MAJOR: "ABS_MT_WIDTH_MAJOR",
                        ABS_MT_POSITION_X: "ABS_MT_POSITION_X", ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
                        ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID", ABS_MT_PRESSURE: "ABS_MT_PRESSURE"}),
    EV_MSC: ("EV_MSC", {MSC_TIMESTAMP: "MSC_TIMESTAMP", MSC_SCAN: "MSC_SCAN"}),
}

# How many bitmask bytes evemu-record writes per event type (libevdev's *_MAX + 1 bits).
TYPE_BYTES = {0x00: 8, 0x01: 96, 0x02: 8, 0x03: 8, 0x04: 8, 0x05: 8, 0x11: 8, 0x12: 8, 0x14: 8, 0x15: 16}


def absinfo(minimum, maximum, fuzz=0, flat=0, resolution=0):
    return (minimum, maximum, fuzz, flat, resolution)


# Each device: what `evemu-describe` would print for it, plus the screen it sits on
# and how its driver reports touches ("b", "a", "single"; quirks as flags).
DEVICES = {
    "ilitek-multitouch": dict(
        summary="ILITEK USB touch controller on hid-multitouch, protocol B, 0..4095, MSC_TIMESTAMP",
        name="ILITEK ILITEK-TP", id=(0x0003, 0x222A, 0x0001, 0x0110), props=[INPUT_PROP_DIRECT],
        codes={EV_KEY: [BTN_TOUCH], EV_ABS: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                                             ABS_MT_TRACKING_ID], EV_MSC: [MSC_TIMESTAMP]},
        abs={ABS_X: absinfo(0, 4095, 0, 0, 26), ABS_Y: absinfo(0, 4095, 0, 0, 43),
             ABS_MT_SLOT: absinfo(0, 9), ABS_MT_POSITION_X: absinfo(0, 4095, 0, 0, 26),
             ABS_MT_POSITION_Y: absinfo(0, 4095, 0, 0, 43), ABS_MT_TRACKING_ID: absinfo(0, 65535)},
        screen=(1280, 800), protocol="b", timestamps=True),
    "ft5406-multitouch": dict(
        summary="Raspberry Pi 7\" display's FT5406 (firmware-polled), protocol B, 800x480",
        name="FT5406 memory based driver", id=(0x0019, 0x0000, 0x0000, 0x0000), props=[INPUT_PROP_DIRECT],
        codes={EV_KEY: [BTN_TOUCH], EV_ABS: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                                             ABS_MT_TRACKING_ID]},
        abs={ABS_X: absinfo(0, 799), ABS_Y: absinfo(0, 479), ABS_MT_SLOT: absinfo(0, 9),
             ABS_MT_POSITION_X: absinfo(0, 799), ABS_MT_POSITION_Y: absinfo(0, 479),
             ABS_MT_TRACKING_ID: absinfo(0, 65535)},
        screen=(800, 480), protocol="b"),
    "goodix-multitouch": dict(
        summary="Goodix GT911 on a vendor driver: lifts with BTN_TOUCH 0 and no TRACKING_ID -1, "
                "then reuses tracking ID 0, which the kernel drops as unchanged",
        name="Goodix Capacitive TouchScreen", id=(0x0018, 0x0416, 0x038F, 0x1060), props=[INPUT_PROP_DIRECT],
        codes={EV_KEY: [BTN_TOUCH], EV_ABS: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_WIDTH_MAJOR,
                                             ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID]},
        abs={ABS_X: absinfo(0, 799), ABS_Y: absinfo(0, 479), ABS_MT_SLOT: absinfo(0, 9),
             ABS_MT_TOUCH_MAJOR: absinfo(0, 255), ABS_MT_WIDTH_MAJOR: absinfo(0, 255),
             ABS_MT_POSITION_X: absinfo(0, 799), ABS_MT_POSITION_Y: absinfo(0, 479),
             ABS_MT_TRACKING_ID: absinfo(0, 65535)},
        screen=(800, 480), protocol="b", goodix=True),
    "egalax-single-touch": dict(
        summary="eGalax resistive USB controller on usbtouchscreen: ABS_X/ABS_Y + BTN_TOUCH, "
                "no INPUT_PROP_DIRECT, 0..2047",
        name="eGalax Inc. USB TouchController", id=(0x0003, 0x0EEF, 0x0001, 0x0100), props=[],
        codes={EV_KEY: [BTN_TOUCH], EV_ABS: [ABS_X, ABS_Y]},
        abs={ABS_X: absinfo(0, 2047, 4), ABS_Y: absinfo(0, 2047, 4)},
        screen=(1024, 768), protocol="single"),
    "protocol-a-multitouch": dict(
        summary="FocalTech FT5x06 on an old vendor (BSP) driver: multitouch protocol A, "
                "no slots, no tracking IDs, no INPUT_PROP_DIRECT, 1024x600",
        name="ft5x0x_ts", id=(0x0018, 0x0000, 0x0000, 0x0000), props=[],
        codes={EV_KEY: [BTN_TOUCH], EV_ABS: [ABS_MT_TOUCH_MAJOR, ABS_MT_WIDTH_MAJOR, ABS_MT_POSITION_X,
                                             ABS_MT_POSITION_Y]},
        abs={ABS_MT_TOUCH_MAJOR: absinfo(0, 255), ABS_MT_WIDTH_MAJOR: absinfo(0, 200),
             ABS_MT_POSITION_X: absinfo(0, 1023), ABS_MT_POSITION_Y: absinfo(0, 599)},
        screen=(1024, 600), protocol="a"),
    "synaptics-touchpad": dict(
        summary="laptop clickpad: BTN_TOOL_FINGER, INPUT_PROP_POINTER + BUTTONPAD (not a touchscreen)",
        name="SynPS/2 Synaptics TouchPad", id=(0x0011, 0x0002, 0x0007, 0x01B1),
        props=[INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD],
        codes={EV_KEY: [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH, BTN_TOOL_DOUBLETAP,
                        BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP],
               EV_ABS: [ABS_X, ABS_Y, ABS_PRESSURE, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                        ABS_MT_TRACKING_ID, ABS_MT_PRESSURE]},
        abs={ABS_X: absinfo(1266, 5676, 0, 0, 50), ABS_Y: absinfo(1094, 4762, 0, 0, 84),
             ABS_PRESSURE: absinfo(0, 255), ABS_MT_SLOT: absinfo(0, 4),
             ABS_MT_POSITION_X: absinfo(1266, 5676, 0, 0, 50), ABS_MT_POSITION_Y: absinfo(1094, 4762, 0, 0, 84),
             ABS_MT_TRACKING_ID: absinfo(0, 65535), ABS_MT_PRESSURE: absinfo(0, 255)},
        screen=None, protocol=None),
    "logitech-mouse": dict(
        summary="USB optical mouse: REL_X/REL_Y, BTN_LEFT (not a touchscreen)",
        name="Logitech USB Optical Mouse", id=(0x0003, 0x046D, 0xC077, 0x0111), props=[],
        codes={EV_KEY: [BTN_LEFT, BTN_RIGHT, BTN_MIDDLE], EV_REL: [REL_X, REL_Y, REL_WHEEL], EV_MSC: [MSC_SCAN]},
        abs={}, screen=None, protocol=None),
    "wacom-pen-tablet": dict(
        summary="pen tablet: ABS_X/ABS_Y with BTN_TOOL_PEN and BTN_STYLUS (not a touchscreen)",
        name="Wacom Intuos S Pen", id=(0x0003, 0x056A, 0x0374, 0x0110), props=[INPUT_PROP_POINTER],
        codes={EV_KEY: [BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2],
               EV_ABS: [ABS_X, ABS_Y, ABS_PRESSURE, ABS_DISTANCE], EV_MSC: [MSC_SCAN]},
        abs={ABS_X: absinfo(0, 15200, 4, 0, 100), ABS_Y: absinfo(0, 9500, 4, 0, 100),
             ABS_PRESSURE: absinfo(0, 4095), ABS_DISTANCE: absinfo(0, 63)},
        screen=None, protocol=None),
}


# ---------------------------------------------------------------- description

def mask_lines(bits, nbytes):
    data = bytearray(nbytes)
    for bit in bits:
        data[bit // 8] |= 1 << (bit % 8)
    return [" ".join("%02x" % b for b in data[i:i + 8]) for i in range(0, nbytes, 8)]


def describe(device, header_lines):
    out = ["# EVEMU 1.3"]
    out += ["# " + line if line else "#" for line in header_lines]
    out.append('# Input device name: "%s"' % device["name"])
    out.append("# Input device ID: bus %#04x vendor %#04x product %#04x version %#04x" % device["id"])
    for code, (lo, hi, fuzz, flat, res) in sorted(device["abs"].items()):
        out.append("#   %s: min %d max %d fuzz %d flat %d resolution %d"
                   % (NAMES[EV_ABS][1].get(code, "ABS_0x%02x" % code), lo, hi, fuzz, flat, res))
    out.append("N: %s" % device["name"])
    out.append("I: %04x %04x %04x %04x" % device["id"])
    out += ["P: " + line for line in mask_lines(device["props"], 8)]
    # Like evemu-record: EV_SYN as "0b", then every type libevdev knows, empty or not.
    out.append("B: 00 0b 00 00 00 00 00 00 00")
    for etype, nbytes in sorted(TYPE_BYTES.items()):
        if etype == EV_SYN:
            continue
        out += ["B: %02x %s" % (etype, line) for line in mask_lines(device["codes"].get(etype, []), nbytes)]
    for code, (lo, hi, fuzz, flat, res) in sorted(device["abs"].items()):
        out.append("A: %02x %d %d %d %d %d" % (code, lo, hi, fuzz, flat, res))
    return out


def event_line(t_us, etype, code, value):
    tname, codes = NAMES.get(etype, ("EV_0x%02x" % etype, {}))
    cname = codes.get(code, "0x%02x" % code)
    if etype == EV_SYN:
        comment = "# ------------ %s (%d) ----------" % (cname, value)
    else:
        comment = "# %s / %-20s %d" % (tname, cname, value)
    return "E: %d.%06d %04x %04x %04d\t%s" % (t_us // 1_000_000, t_us % 1_000_000, etype, code, value, comment)


# ---------------------------------------------------------------- geometry

def node_centre(screen, node):
    """Centre of node (0-based, row-major) in screen pixels, as GridLayout places it."""
    w, h = screen
    side = 0.8 * min(w, h)
    cell = side / 3
    left, top = (w - side) / 2, (h - side) / 2
    return left + (node % 3 + 0.5) * cell, top + (node // 3 + 0.5) * cell


def to_device(device, px, py, xcode, ycode):
    """Screen pixel -> device units, the inverse of CoordinateMapper with rotation none."""
    w, h = device["screen"]
    (xmin, xmax, *_), (ymin, ymax, *_) = device["abs"][xcode], device["abs"][ycode]
    x = xmin + px / w * (xmax - xmin + 1) - 0.5
    y = ymin + py / h * (ymax - ymin + 1) - 0.5
    return (max(xmin, min(xmax, round(x))), max(ymin, min(ymax, round(y))))


def stroke_path(device, pattern, rate, rng):
    """Screen positions, one per frame, of a finger drawing `pattern` (0-based nodes)."""
    w, h = device["screen"]
    cell = 0.8 * min(w, h) / 3
    speed = cell / 0.22          # about a fifth of a second per cell, a steady unlock
    jitter = cell * 0.012
    points = [node_centre(device["screen"], n) for n in pattern]
    path = [points[0]] * 3       # the finger settles before it moves
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        steps = max(2, math.ceil(math.hypot(x1 - x0, y1 - y0) / speed * rate))
        path += [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(1, steps + 1)]
    path += [points[-1]] * 4     # and rests on the last node before lifting
    return [(x + rng.gauss(0, jitter), y + rng.gauss(0, jitter)) for x, y in path]


# ---------------------------------------------------------------- events

class Recorder:
    """Turns finger positions into the events the device's kernel driver would send."""

    def __init__(self, device, rate, rng):
        self.device, self.rate, self.rng = device, rate, rng
        self.lines = []
        self.t_us = 1                      # evemu-record starts its clock at 1 us
        self.hw_us = 48_211_000            # the controller's own scan clock (MSC_TIMESTAMP)
        self.slot = 0                      # the kernel's current ABS_MT_SLOT
        self.slots = {}                    # slot -> [tracking id, x, y] as the kernel last saw them
        self.next_id = 0
        self.touch = 0
        self.abs_xy = [None, None]

    def emit(self, etype, code, value):
        self.lines.append(event_line(self.t_us, etype, code, value))

    def frame(self, fingers, lift_quirk=False):
        """One frame. `fingers` maps slot -> (x, y) screen position of every finger down."""
        d = self.device
        if d["protocol"] == "single":
            self.frame_single(fingers)
        elif d["protocol"] == "a":
            self.frame_a(fingers)
        else:
            self.frame_b(fingers, lift_quirk)
        if d.get("timestamps"):
            self.emit(EV_MSC, MSC_TIMESTAMP, self.hw_us % (1 << 31))
        self.emit(EV_SYN, SYN_REPORT, 0)
        self.advance(1.0 / self.rate)

    def frame_b(self, fingers, lift_quirk):
        d = self.device
        for slot in sorted(set(self.slots) | set(fingers)):
            state = self.slots.get(slot)
            changes = []
            if slot in fingers:
                x, y = to_device(d, *fingers[slot], ABS_MT_POSITION_X, ABS_MT_POSITION_Y)
                if state is None or state[0] < 0:
                    if d.get("goodix") and state is not None:
                        # The vendor driver sends tracking ID 0 again; the kernel's slot still
                        # holds 0 (no -1 was ever sent), so it drops the event as unchanged.
                        state[0] = state[3]
                    else:
                        state = [self.next_id, None, None, self.next_id]
                        self.next_id += 1
                        changes.append((ABS_MT_TRACKING_ID, state[0]))
                    self.slots[slot] = state
                if ABS_MT_TOUCH_MAJOR in d["abs"]:
                    changes.append((ABS_MT_TOUCH_MAJOR, self.rng.randint(28, 34)))
                if x != state[1]:
                    changes.append((ABS_MT_POSITION_X, x))
                if y != state[2]:
                    changes.append((ABS_MT_POSITION_Y, y))
                state[1], state[2] = x, y
            elif state is not None and state[0] >= 0:
                state[0] = -1
                if not lift_quirk:
                    changes.append((ABS_MT_TRACKING_ID, -1))
            if changes:
                if slot != self.slot:
                    self.emit(EV_ABS, ABS_MT_SLOT, slot)
                    self.slot = slot
                for code, value in changes:
                    self.emit(EV_ABS, code, value)
        self.set_touch(1 if fingers else 0)
        if fingers and ABS_X in d["abs"]:
            # The kernel's pointer emulation follows the oldest contact.
            oldest = min(fingers, key=lambda s: self.slots[s][3])
            self.pointer(*to_device(d, *fingers[oldest], ABS_X, ABS_Y))

    def frame_a(self, fingers):
        d = self.device
        for slot in sorted(fingers):
            x, y = to_device(d, *fingers[slot], ABS_MT_POSITION_X, ABS_MT_POSITION_Y)
            self.emit(EV_ABS, ABS_MT_TOUCH_MAJOR, self.rng.randint(28, 34))
            self.emit(EV_ABS, ABS_MT_POSITION_X, x)
            self.emit(EV_ABS, ABS_MT_POSITION_Y, y)
            self.emit(EV_SYN, SYN_MT_REPORT, 0)
        if not fingers:
            self.emit(EV_SYN, SYN_MT_REPORT, 0)
        self.set_touch(1 if fingers else 0)

    def frame_single(self, fingers):
        if fingers:
            self.pointer(*to_device(self.device, *fingers[min(fingers)], ABS_X, ABS_Y))
        self.set_touch(1 if fingers else 0)

    def pointer(self, x, y):
        for axis, code, value in ((0, ABS_X, x), (1, ABS_Y, y)):
            if self.abs_xy[axis] != value:
                self.emit(EV_ABS, code, value)
                self.abs_xy[axis] = value

    def set_touch(self, value):
        if value != self.touch:
            self.emit(EV_KEY, BTN_TOUCH, value)
            self.touch = value

    def advance(self, seconds):
        nominal = seconds * 1e6
        self.hw_us += round(nominal)
        self.t_us += max(1, round(nominal + self.rng.uniform(-300, 300)))

    def idle(self, seconds):
        self.t_us += round(seconds * 1e6)
        self.hw_us += round(seconds * 1e6)


def draw(device, patterns, rate=100, gaps=None, seed=1, second_finger=False):
    rng = random.Random(seed)
    rec = Recorder(device, rate, rng)
    gaps = gaps or []
    for index, pattern in enumerate(patterns):
        if index > 0:
            rec.idle(gaps[index - 1] if index - 1 < len(gaps) else 1.5)
        path = stroke_path(device, pattern, rate, rng)
        second = []
        if second_finger:
            # A second finger lands on node 7 a third of the way in, slides to node 8 and
            # lifts well after the primary: it must neither move nor restart the stroke.
            start = len(path) // 3
            a, b = node_centre(device["screen"], 6), node_centre(device["screen"], 7)
            n = len(path) - start + 20
            second = [(start + i, (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)) for i in range(n)]
        frames = len(path) + (20 if second_finger else 0)
        second_at = dict(second)
        for i in range(frames):
            fingers = {}
            if i < len(path):
                fingers[0] = path[i]
            if i in second_at:
                fingers[1] = second_at[i]
            if not fingers:
                break
            rec.frame(fingers)
        rec.frame({}, lift_quirk=device.get("goodix", False))
    return rec.lines


# ---------------------------------------------------------------- fixtures

def parse_pattern(text):
    nodes = [int(n) - 1 for n in text.split("-")]
    if not nodes or any(n < 0 or n > 8 for n in nodes) or len(set(nodes)) != len(nodes):
        raise SystemExit("bad pattern %r: 1-based nodes 1..9 joined by '-', each once" % text)
    return nodes


TOOL = "tools/make-recording.py"

FIXTURES = [
    ("protocol-b-1-2-3-6-9.evemu", "ilitek-multitouch", ["1-2-3-6-9"], [], False,
     "One finger draws 1-2-3-6-9 on a protocol B panel (slots, tracking IDs, -1 on lift, MSC_TIMESTAMP)."),
    ("protocol-a-1-2-3-6-9.evemu", "protocol-a-multitouch", ["1-2-3-6-9"], [], False,
     "One finger draws 1-2-3-6-9 on a protocol A panel (SYN_MT_REPORT per contact, empty frame on lift)."),
    ("single-touch-1-2-3-6-9.evemu", "egalax-single-touch", ["1-2-3-6-9"], [], False,
     "One finger draws 1-2-3-6-9 on a single-touch resistive panel (ABS_X/ABS_Y + BTN_TOUCH)."),
    ("goodix-release-1-2-3-6-9.evemu", "goodix-multitouch", ["1-2-3-6-9", "1-2-3-6-9"], [1.5], False,
     "1-2-3-6-9 twice, 1.5 s apart. Each lift is BTN_TOUCH 0 without TRACKING_ID -1; the second "
     "touch sends no TRACKING_ID at all (the kernel dropped the reused ID 0 as unchanged)."),
    ("second-finger-1-2-3-6-9.evemu", "ilitek-multitouch", ["1-2-3-6-9"], [], True,
     "The primary finger draws 1-2-3-6-9; a second finger lands on node 7 a third of the way in, "
     "slides towards 8 and lifts after the primary. The stroke is the primary's alone."),
    ("demo-wrong-then-right.evemu", "ft5406-multitouch", ["1-4-7-8", "1-2-3-6-9"], [1.5], False,
     "Demo on an 800x480 panel: a wrong pattern 1-4-7-8, a 1.5 s pause, then the right one 1-2-3-6-9."),
    ("lockout-five-wrong.evemu", "ft5406-multitouch",
     ["1-4-7-8", "3-2-1-4-7", "7-5-3-6", "1-5-9-8", "2-5-8-7", "1-2-3-6-9"], [1.5, 1.5, 1.5, 1.5, 35], False,
     "Five wrong patterns of 4+ nodes 1.5 s apart (1-4-7-8, 3-2-1-4-7, 7-5-3-6, 1-5-9-8, 2-5-8-7), "
     "then, 35 s after the fifth, the right one 1-2-3-6-9."),
    ("too-short.evemu", "ft5406-multitouch", ["1-2-3"], [], False,
     "A pattern of three nodes, 1-2-3: too short to count as an attempt."),
]


def write_fixtures(directory):
    os.makedirs(os.path.join(directory, "devices"), exist_ok=True)
    for key, device in DEVICES.items():
        header = ["Made by %s describe %s: a device description only, no events." % (TOOL, key),
                  device["summary"] + "."]
        write(os.path.join(directory, "devices", key + ".evemu"), describe(device, header))
    for filename, key, patterns, gaps, second, what in FIXTURES:
        device = DEVICES[key]
        command = "%s draw %s %s" % (TOOL, key, " ".join(patterns))
        if gaps:
            command += " --gaps " + ",".join("%g" % g for g in gaps)
        if second:
            command += " --second-finger"
        header = ["Made by %s (seed 1, 100 Hz)." % command, what, "Device: " + device["summary"] + ".",
                  "Screen %dx%d, rotation none, no calibration; grid as gridlock's core lays it out." % device["screen"]]
        lines = describe(device, header) + draw(device, [parse_pattern(p) for p in patterns], gaps=gaps,
                                                 second_finger=second)
        write(os.path.join(directory, filename), lines)


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", path, file=sys.stderr)


# ---------------------------------------------------------------- check with libevemu

class TimeVal(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("usec", ctypes.c_long)]


class InputEventStruct(ctypes.Structure):
    _fields_ = [("time", TimeVal), ("type", ctypes.c_uint16), ("code", ctypes.c_uint16), ("value", ctypes.c_int32)]


def read_plain(path):
    """What the file says, read with regular expressions: the reference for `check`."""
    name, ident, props, codes, axes, events = None, None, set(), {}, {}, []
    pbytes, mbytes = 0, {}
    for line in open(path):
        if line.startswith("N: "):
            name = line[3:].rstrip("\n")
        elif line.startswith("I: "):
            ident = tuple(int(v, 16) for v in line[3:].split())
        elif line.startswith("P: "):
            for i, byte in enumerate(int(v, 16) for v in line[3:].split()):
                props |= {(pbytes + i) * 8 + b for b in range(8) if byte >> b & 1}
            pbytes += 8
        elif line.startswith("B: "):
            t, *data = (int(v, 16) for v in line[3:].split())
            for i, byte in enumerate(data):
                codes.setdefault(t, set()).update((mbytes.get(t, 0) + i) * 8 + b for b in range(8) if byte >> b & 1)
            mbytes[t] = mbytes.get(t, 0) + 8
        elif line.startswith("A: "):
            code, *values = line[3:].split()
            axes[int(code, 16)] = tuple(int(v) for v in values)
        elif line.startswith("E: "):
            m = re.match(r"E: (\d+)\.(\d{6}) ([0-9a-f]{4}) ([0-9a-f]{4}) (-?\d+)", line)
            events.append((int(m[1]), int(m[2]), int(m[3], 16), int(m[4], 16), int(m[5])))
    return name, ident, props, codes, axes, events


def check(paths):
    lib = ctypes.CDLL("libevemu.so.3")
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    lib.evemu_new.restype = ctypes.c_void_p
    lib.evemu_new.argtypes = [ctypes.c_char_p]
    lib.evemu_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.evemu_read_event.argtypes = [ctypes.c_void_p, ctypes.POINTER(InputEventStruct)]
    lib.evemu_get_name.restype = ctypes.c_char_p
    lib.evemu_get_name.argtypes = [ctypes.c_void_p]
    for f in ("bustype", "vendor", "product", "version"):
        getattr(lib, "evemu_get_id_" + f).argtypes = [ctypes.c_void_p]
    for f in ("minimum", "maximum", "fuzz", "flat", "resolution"):
        getattr(lib, "evemu_get_abs_" + f).argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.evemu_has_prop.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.evemu_has_event.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    failures = 0
    for path in paths:
        name, ident, props, codes, axes, events = read_plain(path)
        dev = lib.evemu_new(None)
        fp = libc.fopen(path.encode(), b"r")
        problems = []
        if lib.evemu_read(dev, fp) <= 0:
            problems.append("evemu_read failed")
        else:
            if lib.evemu_get_name(dev).decode() != name:
                problems.append("name")
            got_id = tuple(getattr(lib, "evemu_get_id_" + f)(dev) for f in ("bustype", "vendor", "product", "version"))
            if got_id != ident:
                problems.append("id %r != %r" % (got_id, ident))
            if {p for p in range(32) if lib.evemu_has_prop(dev, p)} != props:
                problems.append("properties")
            for t in (EV_KEY, EV_REL, EV_ABS, EV_MSC):
                got = {c for c in range(0x300) if lib.evemu_has_event(dev, t, c)}
                if got != codes.get(t, set()):
                    problems.append("codes of type %d: %r" % (t, sorted(got ^ codes.get(t, set()))))
            for code, values in axes.items():
                got = tuple(getattr(lib, "evemu_get_abs_" + f)(dev, code)
                            for f in ("minimum", "maximum", "fuzz", "flat", "resolution"))
                if got != values:
                    problems.append("axis %#x %r != %r" % (code, got, values))
            ev = InputEventStruct()
            got_events = []
            while lib.evemu_read_event(fp, ctypes.byref(ev)) > 0:
                got_events.append((ev.time.sec, ev.time.usec, ev.type, ev.code, ev.value))
            if got_events != events:
                problems.append("events: libevemu read %d, the file has %d" % (len(got_events), len(events)))
        libc.fclose(fp)
        print("%s: %s" % (path, "; ".join(problems) if problems else "libevemu reads it the same (%d events)"
                          % len(events)))
        failures += bool(problems)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("devices")
    d = sub.add_parser("describe")
    d.add_argument("device", choices=sorted(DEVICES))
    r = sub.add_parser("draw")
    r.add_argument("device", choices=sorted(k for k, v in DEVICES.items() if v["protocol"]))
    r.add_argument("patterns", nargs="+")
    r.add_argument("--rate", type=float, default=100)
    r.add_argument("--gap", type=float, default=1.5, help="seconds between strokes (default 1.5)")
    r.add_argument("--gaps", help="comma-separated seconds between successive strokes")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--second-finger", action="store_true")
    r.add_argument("--comment", action="append", default=[])
    f = sub.add_parser("fixtures")
    f.add_argument("directory")
    c = sub.add_parser("check")
    c.add_argument("files", nargs="+")
    args = ap.parse_args()

    if args.command == "devices":
        for key, device in sorted(DEVICES.items()):
            print("%-24s %s" % (key, device["summary"]))
    elif args.command == "describe":
        print("\n".join(describe(DEVICES[args.device], ["Made by %s describe %s." % (TOOL, args.device)])))
    elif args.command == "draw":
        device = DEVICES[args.device]
        patterns = [parse_pattern(p) for p in args.patterns]
        gaps = [float(g) for g in args.gaps.split(",")] if args.gaps else [args.gap] * (len(patterns) - 1)
        header = ["Made by %s %s." % (TOOL, " ".join(sys.argv[1:]))] + args.comment
        lines = describe(device, header) + draw(device, patterns, args.rate, gaps, args.seed, args.second_finger)
        print("\n".join(lines))
    elif args.command == "fixtures":
        write_fixtures(args.directory)
    elif args.command == "check":
        sys.exit(1 if check(args.files) else 0)


if __name__ == "__main__":
    main()
