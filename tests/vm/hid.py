"""Real touch controllers for the real-kernel tests: the touchscreens of the Linux kernel's HID
selftests (tools/testing/selftests/hid/tests/test_multitouch.py), created in the guest
through /dev/uhid so that the kernel's own drivers (hid-multitouch, hid-generic) make the
events the panel's face (gridlock-panel) reads, as deployed apart from gridlockd, which
checks its strokes. See docs/testing.md, "Real touch controllers (uhid)".

The kernel's file is GPL-2.0 and stays out of this repository: tests/vm/fetch-hid-tests
caches it from Debian's kernel source package, and this module reads it as data (Python's
ast over the file's text; nothing of it is imported or run). For every device class it
takes what the kernel's test gives the device: name, bus, vendor, product, report
descriptor (bytes, or the human-readable form that hid-tools parses), application,
physical, max_contacts, quirks, a report ID the test forces, the touchpad type.

tests/vm/hid-streams (run with the virtualenv's Python, it needs hid-tools) turns a device
into a byte stream that guest/hidplay.c plays into /dev/uhid.
"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vmlib  # noqa: E402

# hidtools.util.BusType, by the names the kernel's test uses.
BUS = {"PCI": 0x01, "USB": 0x03, "BLUETOOTH": 0x05, "VIRTUAL": 0x06, "I2C": 0x18, "HOST": 0x19, "SPI": 0x1C}
BUS_NAMES = {v: k for k, v in BUS.items()}
# base_device.py's default when a test gives no input_info.
DEFAULT_IDS = (BUS["USB"], 0x0001, 0x0002)
TOUCHSCREEN = "Touch Screen"


class Unreadable(Exception):
    """A construct of the kernel's file this reader does not understand (so: not data)."""


class Device:
    """One device class of the kernel's test file, as data."""

    def __init__(self, test_class, kind, args):
        self.test_class = test_class
        self.kind = kind  # the constructor: Digitizer, PTP, or one of the file's subclasses
        self.name = args["name"]
        self.key = re.sub(r"\s+", "-", self.name[len("uhid test "):] if self.name.startswith("uhid test ") else self.name)
        self.application = args.get("application")
        self.physical = args.get("physical")
        self.rdesc = args.get("rdesc")  # hex bytes "05 0d 09 04 ..."
        self.rdesc_human = args.get("rdesc_str")  # "Usage Page (Digitizers)\n..."
        self.max_contacts = args.get("max_contacts")
        self.quirks = tuple(args.get("quirks") or ())
        self.report_id = args.get("report_id")
        self.ptp_type = args.get("type")
        info = args.get("input_info")
        if info is not None and tuple(info) != DEFAULT_IDS:
            self.bus, self.vendor, self.product = info
            self.ids_from = "input_info"
        else:
            # None or base_device.py's default: the kernel's test creates the device as
            # 0001:0002; the real device's ids are in its name.
            m = re.search(r"_([0-9a-f]{4})_([0-9a-f]{4})(?:_\d+)?$", self.name)
            if m:
                self.bus, self.vendor, self.product = BUS["USB"], int(m.group(1), 16), int(m.group(2), 16)
                self.ids_from = "name"
            else:
                self.bus, self.vendor, self.product = DEFAULT_IDS
                self.ids_from = "default"

    @property
    def is_touchscreen(self):
        return self.application == TOUCHSCREEN

    @property
    def ids(self):
        return f"{self.vendor:04x}:{self.product:04x}"


# ---------------------------------------------------------------------------------------------
# Reading the kernel's file

class _Reader:
    """Evaluates the few expression forms the file builds its devices from: literals,
    tuples, names bound by a call, `BusType.X`, `self.x`, subscripts, `str * int`,
    f-strings, and calls of a class's one-line `return f"..."` methods. Anything else is
    Unreadable."""

    def __init__(self, text):
        self.tree = ast.parse(text)
        self.classes = {c.name: c for c in self.tree.body if isinstance(c, ast.ClassDef)}

    def method(self, class_name, name):
        for node in self.classes[class_name].body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node
        return None

    def evaluate(self, node, env):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple):
            return tuple(self.evaluate(e, env) for e in node.elts)
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            raise Unreadable(f"unknown name {node.id}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "BusType" and node.attr in BUS:
                return BUS[node.attr]
            if node.value.id == "self" and f"self.{node.attr}" in env:
                return env[f"self.{node.attr}"]
        if isinstance(node, ast.Subscript):
            return self.evaluate(node.value, env)[self.evaluate(node.slice, env)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add)):
            a, b = self.evaluate(node.left, env), self.evaluate(node.right, env)
            return a * b if isinstance(node.op, ast.Mult) else a + b
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    if value.conversion != -1 or value.format_spec is not None:
                        raise Unreadable("formatted f-string field")
                    parts.append(str(self.evaluate(value.value, env)))
                else:
                    parts.append(self.evaluate(value, env))
            return "".join(parts)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in self.classes:
            function = self.method(node.func.value.id, node.func.attr)
            if function and len(function.body) == 1 and isinstance(function.body[0], ast.Return):
                bound = self.bind(function, node, env, skip_first=True)
                return self.evaluate(function.body[0].value, bound)
        raise Unreadable(ast.unparse(node))

    def bind(self, function, call, env, skip_first=True):
        """The parameters of `function` bound to the arguments of `call` (evaluated in `env`)."""
        params = [a.arg for a in function.args.args][1 if skip_first else 0:]
        defaults = function.args.defaults
        bound = {}
        for name, default in zip(params[len(params) - len(defaults):], defaults):
            bound[name] = self.evaluate(default, {})
        for name, value in zip(params, call.args):
            bound[name] = self.evaluate(value, env)
        for keyword in call.keywords:
            if keyword.arg not in params:
                raise Unreadable(f"{function.name}() has no parameter {keyword.arg}")
            bound[keyword.arg] = self.evaluate(keyword.value, env)
        return bound

    def construct(self, class_name, call, env):
        """(kind, arguments of Digitizer.__init__) for `class_name(...)` called as `call`."""
        init = self.method(class_name, "__init__")
        args = self.bind(init, call, env)
        if class_name == "Digitizer":
            return class_name, args
        # A subclass: run its __init__'s assignments, then follow its super().__init__(...).
        # Other statements (a touchpad's button state) and assignments of values this reader
        # cannot compute are passed over; a name they would have bound is Unreadable if used.
        local = dict(args)
        for statement in init.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                try:
                    value = self.evaluate(statement.value, local)
                except Unreadable:
                    continue
                if isinstance(target, ast.Name):
                    local[target.id] = value
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    local[f"self.{target.attr}"] = value
                else:
                    raise Unreadable(ast.unparse(statement))
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
                    and ast.unparse(statement.value.func) == "super().__init__":
                base = self.classes[class_name].bases[0].id
                _, base_args = self.construct(base, statement.value, local)
                if "type" in args:
                    base_args["type"] = args["type"]
                return class_name, base_args
        raise Unreadable(f"{class_name}.__init__ calls no super().__init__")

    def forced_report_id(self, class_name):
        """The report ID a class's create_report override passes on (`reportID=N`), if any."""
        for name in self.mro(class_name):
            function = self.method(name, "create_report")
            if function is None:
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and ast.unparse(node.func) == "super().create_report":
                    for keyword in node.keywords:
                        if keyword.arg == "reportID" and isinstance(keyword.value, ast.Constant):
                            return keyword.value.value
            return None
        return None

    def mro(self, class_name):
        names = []
        while class_name in self.classes:
            names.append(class_name)
            bases = self.classes[class_name].bases
            class_name = bases[0].id if bases and isinstance(bases[0], ast.Name) else None
        return names

    def devices(self):
        """Every test class whose create_device returns a device, in the file's order.
        A class whose device cannot be read is returned as (test class, Unreadable)."""
        found = []
        for test_class in self.classes.values():
            create = self.method(test_class.name, "create_device")
            if create is None or not create.body or not isinstance(create.body[-1], ast.Return):
                continue
            call = create.body[-1].value
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) \
                    or call.func.id not in self.classes:
                continue
            try:
                kind, args = self.construct(call.func.id, call, {})
                args["report_id"] = self.forced_report_id(call.func.id)
                if "Digitizer" not in self.mro(call.func.id):
                    raise Unreadable(f"{call.func.id} is no Digitizer")
                found.append(Device(test_class.name, kind, args))
            except (Unreadable, KeyError, IndexError, TypeError) as error:
                found.append((test_class.name, Unreadable(str(error))))
        return found


def read_test_file(path):
    """The devices of the kernel's test_multitouch.py: a list of Device, or (test class,
    Unreadable) for a class this reader could not take as data."""
    with open(path) as f:
        return _Reader(f.read()).devices()


def test_file():
    """The cached test_multitouch.py (fetched on first use)."""
    return subprocess.run([os.path.join(HERE, "fetch-hid-tests")], check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()


def source_line(path):
    """`PACKAGE VERSION MEMBER` of a cached test file."""
    with open(os.path.join(os.path.dirname(path), "source")) as f:
        return f.read().strip()


# ---------------------------------------------------------------------------------------------
# hid-tools (PyPI) in a virtualenv under cache/, for tests/vm/hid-streams

VENV = os.path.join(vmlib.CACHE, "hidvenv")
HID_TOOLS = "hid-tools==0.12"


def venv_python():
    """The virtualenv's Python with hid-tools, made on first use (python3-venv, PyPI)."""
    python = os.path.join(VENV, "bin", "python")
    stamp = os.path.join(VENV, "complete-" + HID_TOOLS)
    if not os.path.exists(stamp):
        shutil.rmtree(VENV, ignore_errors=True)
        vmlib.log(f"tests/vm: a virtualenv with {HID_TOOLS} from PyPI in {VENV}")
        made = subprocess.run([sys.executable, "-m", "venv", VENV], capture_output=True, text=True)
        if made.returncode != 0:
            raise vmlib.VMError(f"{sys.executable} -m venv failed (apt-get install python3-venv): {made.stderr.strip()}")
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", HID_TOOLS], check=True)
        open(stamp, "w").close()
    return python


# ---------------------------------------------------------------------------------------------
# Where the nodes of a config's grid are on the panel

def config_values(text):
    """{(section, key): value} of a gridlock config (the last one wins, as in gridlockd)."""
    values, section = {}, ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif "=" in line:
            key, _, value = line.partition("=")
            values[(section, key.strip())] = value.strip()
    return values


class Geometry:
    """Maps grid nodes to fractions of the touch panel's axes: the node's centre in the logical
    frame (vmlib.Grid: GridLayout's geometry), turned back by the rotation
    (Rotation.physical(fromLogical:)), then through the inverse of the calibration matrix
    (which the face applies to raw normalised touches)."""

    def __init__(self, mode=(1280, 800), rotation=0, rows=3, columns=3, size=0.8, calibration=None):
        self.mode, self.rotation = tuple(mode), rotation
        self.calibration = calibration or (1, 0, 0, 0, 1, 0)
        width, height = self.mode
        self.logical = (height, width) if rotation in (90, 270) else (width, height)
        self.grid = vmlib.Grid(*self.logical, rows=rows, columns=columns, size=size)

    @classmethod
    def from_config(cls, text, mode):
        v = config_values(text)
        m = re.fullmatch(r"(\d+)x(\d+)(@\d+)?", v.get(("display", "mode"), ""))
        calibration = v.get(("touch", "calibration"))
        return cls(mode=(int(m.group(1)), int(m.group(2))) if m else mode,
                   rotation=int(v.get(("display", "rotation"), "0")),
                   rows=int(v.get(("grid", "rows"), "3")), columns=int(v.get(("grid", "columns"), "3")),
                   size=float(v.get(("grid", "size"), "0.8")),
                   calibration=tuple(float(x) for x in calibration.split()) if calibration else None)

    def point(self, node):
        lx, ly = self.grid.centre(node)
        x, y = lx / self.logical[0], ly / self.logical[1]
        x, y = {0: (x, y), 90: (1 - y, x), 180: (1 - x, 1 - y), 270: (y, 1 - x)}[self.rotation]
        a, b, c, d, e, f = self.calibration
        det = a * e - b * d
        x, y = x - c, y - f
        return ((e * x - b * y) / det, (a * y - d * x) / det)


# ---------------------------------------------------------------------------------------------
# Scripts: what the helper plays for one device

CORRECT, WRONG, SHORT = [1, 2, 3, 6, 9], [1, 4, 7, 8, 9], [1, 2]
RESTING_NODE = 7  # where the second finger rests: on no node of CORRECT
FRAME_MS, STEPS = 12, 4  # a frame every 12 ms, 4 frames from one node to the next
# After an attempt's log line, the error or success feedback (which ignores input) must be
# over, and after a success the face must have asked gridlockd where it stands again (a
# round trip on a loaded TCG guest).
FEEDBACK_MARGIN_MS = 400
# gridlockd's verdicts, and the face's own word for a stroke it never sent (too short, or
# discarded when the device went).
OUTCOME = ["attempt ", "stroke too short", "stroke discarded", "locked out"]
UNLOCKED = ["action-ran", "attempt rejected", "stroke too short", "stroke discarded", "locked out"]


def contact(finger, point, down=True):
    return {"finger": finger, "x": point[0], "y": point[1], "down": down}


def stroke_frames(points, lift=True, resting=None, hold_ms=0):
    """The primary finger down on points[0], gliding through the others, held still for
    `hold_ms`, lifted; with `resting`, a second finger lands there when the first reaches
    points[1], stays still, and lifts three frames after the first. A finger held still is
    reported in every frame, as panels do (hid-multitouch releases a Win8 device's contacts
    that go unreported for 100 ms)."""
    track = [points[0]]
    for a, b in zip(points, points[1:]):
        track += [(a[0] + (b[0] - a[0]) * i / STEPS, a[1] + (b[1] - a[1]) * i / STEPS) for i in range(1, STEPS + 1)]
    frames = []
    for i, p in enumerate(track):
        fingers = [contact("a", p)] + ([contact("b", resting)] if resting and i >= STEPS else [])
        frames.append({"dt_ms": FRAME_MS, "contacts": fingers})
    frames += [frames[-1]] * (hold_ms // FRAME_MS)
    if lift:
        frames.append({"dt_ms": FRAME_MS, "contacts": [contact("a", track[-1], False)]
                       + ([contact("b", resting)] if resting else [])})
        if resting:
            frames += [{"dt_ms": FRAME_MS, "contacts": [contact("b", resting)]}] * 3
            frames.append({"dt_ms": FRAME_MS, "contacts": [contact("b", resting, False)]})
    return frames


def device_ready(device):
    """Create the device; once the face reads a node of it, list its nodes and check its mode."""
    return [{"op": "mark", "text": f"{device.key} created"}, {"op": "create"},
            {"op": "open", "timeout_ms": 15000, "stable_ms": 50},
            {"op": "sync", "needles": ["reading touches from"], "timeout_ms": 5000},
            {"op": "list"}, {"op": "input-mode"}]


def attempt(device, part, nodes, geometry, feedback_ms, needles=OUTCOME, resting=False):
    points = [geometry.point(n) for n in nodes]
    rest = geometry.point(RESTING_NODE) if resting else None
    return [{"op": "mark", "text": f"{device.key} {part}"},
            {"op": "frames", "frames": stroke_frames(points, resting=rest)},
            {"op": "sync", "needles": needles, "timeout_ms": 8000},
            {"op": "pause", "ms": feedback_ms + FEEDBACK_MARGIN_MS}]


def vanish(device, geometry):
    """A finger drawing 1-4-7-8 (long enough to count as a wrong attempt if it were taken
    as one), held there, and the device destroyed under it."""
    points = [geometry.point(n) for n in WRONG[:4]]
    return [{"op": "mark", "text": f"{device.key} vanish"},
            {"op": "frames", "frames": stroke_frames(points, lift=False, hold_ms=250)}, {"op": "destroy"},
            # The discarded stroke, not the loss: the face may log the loss first, and the
            # judge reads the log up to the helper's end.
            {"op": "sync", "needles": ["stroke discarded"], "timeout_ms": 5000}]


def touchscreen_script(device, geometry, feedback_ms, full=True):
    script = device_ready(device) + attempt(device, "correct", CORRECT, geometry, feedback_ms, UNLOCKED)
    if not full:
        return script + [{"op": "mark", "text": f"{device.key} end"}, {"op": "destroy"},
                         {"op": "sync", "needles": [" lost: "], "timeout_ms": 3000}]
    return (script + attempt(device, "wrong", WRONG, geometry, feedback_ms)
            + attempt(device, "short", SHORT, geometry, feedback_ms)
            + attempt(device, "resting", CORRECT, geometry, feedback_ms, UNLOCKED, resting=True)
            + vanish(device, geometry))


def refused_script(device):
    """A device the face must leave alone: created, its nodes judged, destroyed."""
    return [{"op": "mark", "text": f"{device.key} created"}, {"op": "create"},
            {"op": "sync", "needles": [device.name], "timeout_ms": 5000},
            {"op": "pause", "ms": 500}, {"op": "list"},
            {"op": "mark", "text": f"{device.key} end"}, {"op": "destroy"}]


def stroke_script(device, geometry, nodes, settle_ms):
    """By hand: one stroke through `nodes`, then the device stays for `settle_ms`."""
    return device_ready(device) + [
        {"op": "mark", "text": f"{device.key} stroke"},
        {"op": "frames", "frames": stroke_frames([geometry.point(n) for n in nodes])},
        {"op": "sync", "needles": OUTCOME, "timeout_ms": 8000},
        {"op": "pause", "ms": settle_ms}, {"op": "mark", "text": f"{device.key} end"}, {"op": "destroy"}]


def generate(path, jobs, folder):
    """Runs hid-streams for [(device, script)]; returns ({guest path: stream bytes}, {key: summary})."""
    request = {"test_file": path, "jobs": [
        {"device": d.key, "out": os.path.join(folder, d.key + ".bin"), "script": s} for d, s in jobs]}
    out = subprocess.run([venv_python(), os.path.join(HERE, "hid-streams")], input=json.dumps(request),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise vmlib.VMError("hid-streams failed:\n" + out.stderr)
    files = {}
    for d, _ in jobs:
        with open(os.path.join(folder, d.key + ".bin"), "rb") as f:
            files[f"job/hid/{d.key}.bin"] = f.read()
    return files, json.loads(out.stdout)


# ---------------------------------------------------------------------------------------------
# Reading what happened: the helper's lines, the face's and gridlockd's, from the one log file
# both programs' lines go to (the face's as "face| LINE")

INPUT_PROP_DIRECT = 0x01
ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x00, 0x01, 0x35, 0x36
BTN_TOOL_PEN, BTN_TOUCH, BTN_STYLUS = 0x140, 0x14A, 0x14B


def bitmap(text):
    """A sysfs capability bitmap ("1 0 3", commas here, most significant word first) as an int."""
    value = 0
    for word in text.split(","):
        value = (value << 64) | int(word or "0", 16)
    return value


class Node:
    def __init__(self, path, props, abs_bits, key_bits, name):
        self.path, self.name = path, name
        self.props, self.abs, self.key = bitmap(props), bitmap(abs_bits), bitmap(key_bits)

    def has_abs(self, code):
        return bool(self.abs >> code & 1)

    def has_key(self, code):
        return bool(self.key >> code & 1)

    @property
    def kernel_touchscreen(self):
        """What the kernel's capabilities make a touchscreen, read from sysfs, not by gridlock:
        a direct device with multitouch positions (or X/Y and BTN_TOUCH), no pen."""
        direct = bool(self.props >> INPUT_PROP_DIRECT & 1)
        mt = self.has_abs(ABS_MT_POSITION_X) and self.has_abs(ABS_MT_POSITION_Y)
        st = self.has_abs(ABS_X) and self.has_abs(ABS_Y) and self.has_key(BTN_TOUCH)
        pen = self.has_key(BTN_TOOL_PEN) or self.has_key(BTN_STYLUS)
        return direct and (mt or st) and not pen

    def short(self):
        return self.path.rsplit("/", 1)[-1]


class Played:
    """One device's part of the log, split at the helper's marks."""

    def __init__(self, device, text):
        self.device, self.text = device, text
        # The programs' lines by the helper's marks; the helper's own lines apart.
        self.sections, self.helper, self.daemon = {}, [], []
        self.driver, self.nodes = None, []
        current = "before"
        for line in text.splitlines():
            m = re.match(r"GRIDLOCK-HID: ([\d.]+) (.*)$", line)
            if m:
                body = m.group(2)
                self.helper.append((float(m.group(1)), body))
                mark = re.match(rf"mark {re.escape(device.key)} (\S+)$", body)
                if mark:
                    current = mark.group(1)
                    self.sections.setdefault(current, [])
                    continue
                bound = re.match(r"hid-device \S+ driver=(\S+)", body)
                if bound:
                    self.driver = bound.group(1)
                node = re.match(r"node (\S+) \S+ props=(\S*) abs=(\S*) key=(\S*) name=(.*)$", body)
                if node:
                    self.nodes.append(Node(*node.groups()))
                continue
            self.daemon.append(line)
            self.sections.setdefault(current, []).append(line)

    def section(self, name):
        return "\n".join(self.sections.get(name, []))

    def stalls(self):
        """The helper's "stalled N ms" lines: reports that went out late because the guest did not run."""
        return [int(m.group(1)) for _, body in self.helper for m in [re.match(r"stalled (\d+) ms", body)] if m]

    def failures(self):
        return [body for _, body in self.helper if body.startswith(("FAILED", "error"))]

    def chosen(self):
        m = re.search(r"reading touches from (/dev/input/event\d+)", self.section("created"))
        return m.group(1) if m else None

    def skipped(self):
        """{node path: the face's reason} from its choice lines."""
        return dict(re.findall(r'skipped (/dev/input/event\d+) "[^"]*": (.*)', "\n".join(self.daemon)))

    def node_cells(self, chosen):
        """The device's nodes in event order for the table: the part of the name after the
        device's own ("bare" for none), * if the kernel made it a touchscreen, bold if chosen."""
        cells = []
        for n in sorted(self.nodes, key=lambda n: int(re.sub(r"\D", "", n.short()) or 0)):
            label = n.name[len(self.device.name):].strip() or "bare"
            label += "*" if n.kernel_touchscreen else ""
            cells.append(f"**{label}**" if n.path == chosen else label)
        return ", ".join(cells) or "none"

    def node_summary(self):
        return ", ".join(f"{n.short()} \"{n.name}\"{' (touchscreen)' if n.kernel_touchscreen else ''}"
                         for n in self.nodes) or "none"


# The columns of a row that are checks (the others describe the device).
SCRIPTED = ("choice", "correct", "wrong", "short", "resting", "vanish", "refused", "status", "daemon")


def row_passed(row):
    return all(row[k] == "ok" for k in SCRIPTED if k in row)


def judge_attempt(text, expect):
    """'ok' or what went wrong, for one part of the script: expect is accepted (the action ran),
    rejected (one failure counted), too-short (not counted) or cancelled (device lost)."""
    accepted = len(re.findall(r"attempt accepted", text))
    ran = len(re.findall(r"action-ran", text))
    rejected = re.findall(r"attempt rejected \((\d+) nodes, (\d+) consecutive failures?\)", text)
    # Never sent by the face, so never counted by gridlockd.
    short = re.findall(r"stroke too short \((\d+) nodes\): not sent", text)
    cancelled = re.findall(r"stroke discarded: ([\w-]+)", text)
    dropped = "SYN_DROPPED" in text
    seen = (f"accepted {accepted}, action {ran}, rejected {len(rejected)}, too short {len(short)}, "
            f"cancelled {','.join(cancelled) or 0}" + (", SYN_DROPPED" if dropped else ""))
    if expect == "accepted":
        ok = accepted == 1 and ran == 1 and not rejected and not short and not cancelled
    elif expect == "rejected":
        ok = len(rejected) == 1 and rejected[0][1] == "1" and not accepted and not ran and not short
    elif expect == "too-short":
        ok = len(short) == 1 and not rejected and not accepted and not ran
    else:  # cancelled by the device's loss
        ok = cancelled == ["device-lost"] and not accepted and not rejected and not short
    return "ok" if ok else seen


def judge(played, full):
    """The row of the table for a touchscreen: {column: 'ok' or why not}."""
    device, row = played.device, {}
    nodes = {n.path: n for n in played.nodes}
    chosen = played.chosen()
    row["driver"] = played.driver or "none"
    row["nodes"] = played.node_summary()
    row["node cells"] = played.node_cells(chosen)
    row["chosen"] = chosen.rsplit("/", 1)[-1] if chosen else "none"
    problems = played.failures()
    if not chosen:
        problems.append("the face read no node of the device")
    elif chosen not in nodes:
        problems.append(f"the face read {chosen}, which is no node of this device")
    elif not nodes[chosen].kernel_touchscreen:
        problems.append(f"the face chose {chosen} \"{nodes[chosen].name}\", a sibling, not the touchscreen")
    row["choice"] = "ok" if not problems else "; ".join(problems)
    parts = [("correct", "accepted"), ("wrong", "rejected"), ("short", "too-short"), ("resting", "accepted"),
             ("vanish", "cancelled")] if full else [("correct", "accepted")]
    for part, expect in parts:
        row[part] = judge_attempt(played.section(part), expect) if part in played.sections else "not played"
    return row


def judge_refused(played):
    """The row for a device the face must leave alone."""
    row = {"driver": played.driver or "none", "nodes": played.node_summary(), "chosen": "none",
           "node cells": played.node_cells(None)}
    skipped = played.skipped()
    problems = played.failures()
    if any("reading touches from" in line for line in played.daemon):
        problems.append("the face read one of its nodes")
    if not played.nodes:
        problems.append("the kernel made no event node")
    for n in played.nodes:
        if not skipped.get(n.path, "").startswith("not a touchscreen"):
            problems.append(f"no 'not a touchscreen' line for {n.short()} \"{n.name}\"")
    daemon = "\n".join(played.daemon)
    for n in played.nodes:
        said = daemon.count(f"skipped {n.path} \"")
        if said > 1:
            problems.append(f"{n.short()}'s line said {said} times, not once")
    row["refused"] = "ok" if not problems else "; ".join(problems)
    row["why"] = "; ".join(sorted(set(skipped.get(n.path, "?").replace("not a touchscreen: ", "") for n in played.nodes)))
    return row


# ---------------------------------------------------------------------------------------------
# The matrix (tests/vm/suite): every device of the kernel's file, one after another, one boot

def commit_share(slots):
    """Which of `slots` shares this commit runs: HEAD's first eight hex digits modulo `slots`
    (0 without git), never the date, so a rerun of a commit plays the same devices and
    successive commits take turns. The first digits, not the last: `make test` chooses its
    platform tier by the last one, and the two choices must not move together."""
    try:
        head = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        return int(head[:8], 16) % slots
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 0


def rotation_slot(slots):
    """Which of `slots` subsets gets the full script in this run: GRIDLOCK_VM_HID_FULL=all
    (every device), =none, or =N; by default the commit's share (commit_share)."""
    choice = os.environ.get("GRIDLOCK_VM_HID_FULL", "")
    if choice in ("all", "none"):
        return choice
    if choice.isdigit():
        return int(choice) % slots
    return commit_share(slots)


class Matrix:
    """Parts for the suite's run_boot: one per device of the kernel's file. The first part to
    run loads the HID modules and starts gridlockd with `verifier` (the verifier alone) and
    the panel's face with `face` (evdev, device=auto); each part plays its device and judges
    the two programs' log; `rows` fills the table."""

    def __init__(self, verifier, face, mode, feedback_ms, slots=1):
        self.path = test_file()
        self.source = source_line(self.path)
        found = read_test_file(self.path)
        self.unreadable = [d for d in found if not isinstance(d, Device)]
        self.devices = [d for d in found if isinstance(d, Device)]
        self.verifier, self.face, self.mode, self.feedback_ms = verifier, face, mode, feedback_ms
        # Every touchscreen gets the correct pattern; the full script (wrong, too short, a
        # resting second finger, vanishing) goes to one of `slots` subsets, in turn.
        self.slot = rotation_slot(slots)
        touch = [d for d in self.devices if d.is_touchscreen]
        self.full = {d.key: self.slot == "all" or (self.slot != "none" and i % slots == self.slot)
                     for i, d in enumerate(touch)}
        self.coverage = ("the full script on every touchscreen" if self.slot == "all" or slots == 1 else
                         "the correct pattern only" if self.slot == "none" else
                         f"the full script on touchscreens {self.slot}, {self.slot + slots}, {self.slot + 2 * slots} "
                         f"... of the file ({sum(self.full.values())} of {len(touch)}; subset {self.slot} of {slots}), "
                         f"the correct pattern on the others")
        self.rows, self.summaries, self.attempted = {}, {}, []

    def files(self, folder):
        # The grid's rows and columns are gridlockd's, its place on the display the face's.
        geometry = Geometry.from_config(self.verifier + self.face, self.mode)
        jobs = [(d, touchscreen_script(d, geometry, self.feedback_ms, self.full.get(d.key)) if d.is_touchscreen
                 else refused_script(d)) for d in self.devices]
        files, self.summaries = generate(self.path, jobs, folder)
        files["etc/gridlock/gridlock.conf"] = self.verifier
        files["job/hid-face.conf"] = self.face
        return files

    @staticmethod
    def title(device):
        what = "touchscreen" if device.is_touchscreen else f"{device.application.lower()}, to be left alone"
        return f"H. {device.key} {device.ids} ({what})"

    def parts(self):
        return [(self.title(d), self.part(d)) for d in self.devices]

    def ready(self, ctx, vm, state):
        """gridlockd and the face running with the matrix's configs, the HID modules loaded
        (each part checks that both still run after its device, so this is done once a boot).
        The face runs as root with no capabilities: the guest has no udev to give a new
        device's nodes the input group, and a node of root's 0600 is root's by ownership."""
        if state.get("hid-ok"):
            return
        status, out = vm.sh("gridlock-vm hid-modules", check=False)
        ctx.check("uhid, hid-multitouch and hid-generic load, /dev/uhid exists", status == 0, out)
        vm.sh("test -s /run/gridlock-vm/face.pid && kill $(cat /run/gridlock-vm/face.pid)", check=False)
        if vm.sh("test -s /run/gridlock-vm/daemon.pid && kill -0 $(cat /run/gridlock-vm/daemon.pid)",
                 check=False)[0] == 0:
            vm.sh("gridlock-vm signal TERM; gridlock-vm wait-exit 15", check=False)
        # A new panel: the state file and its witness both (a witness without its file is
        # a file lost, which gridlockd answers with a lockout).
        vm.sh("rm -f /var/lib/gridlock/attempts /var/lib/gridlock/attempts.witness; mkdir -p -m 0755 /run/gridlock; "
              "chmod 0755 /job; chmod 0644 /job/hid-face.conf")
        mark = len(vm.serial())
        vm.sh("gridlock-vm start /etc/gridlock/gridlock.conf")
        try:
            m = vm.wait_serial(r"gridlockd\| .*gridlockd starting: display none, touch none|GRIDLOCK-VM: exit-status \d+", 20,
                               mark)
            ctx.check("gridlockd starts as the verifier alone (display none, touch none)", "exit-status" not in m.group(0),
                      m.group(0))
            vm.sh("gridlock-vm start-face /job/hid-face.conf 0 0")
            m = vm.wait_serial(r"face\| .*gridlockd answers: patterns can be checked|GRIDLOCK-VM: face-exit-status \d+", 20,
                               mark)
            ctx.check("the panel's face starts (drm, evdev device=auto, no touch device yet; root, no capabilities) "
                      "and gridlockd answers it", "exit-status" not in m.group(0), m.group(0))
        except vmlib.VMError as error:
            ctx.check("gridlockd and the panel's face start", False, str(error))
        state["hid-ok"] = True

    def play(self, vm, device):
        """Plays the device; (hidplay's status, Played, row, both programs still running)."""
        status, out = vm.sh(f"gridlock-vm hid-play /job/hid/{device.key}.bin", check=False, timeout=200)
        played = Played(device, out)
        alive = re.findall(r"^(gridlockd|face) (running|gone)$", out, re.M)
        row = judge(played, self.full[device.key]) if device.is_touchscreen else judge_refused(played)
        row["status"] = "ok" if status == 0 else f"hidplay exit status {status}"
        gone = [who for who, state in alive if state == "gone"]
        row["daemon"] = "ok" if len(alive) == 2 and not gone else \
            f"{' and '.join(gone)} gone" if gone else "unknown: " + out[-300:]
        return played, row

    def part(self, device):
        def body(ctx, vm, grid, state):
            started = time.monotonic()
            self.attempted.append(device.key)
            # After a failed part (run_boot clears state["ok"]) gridlockd and the face start afresh.
            state["hid-ok"] = state.get("hid-ok") and state.get("ok", True)
            state["ok"] = True
            self.ready(ctx, vm, state)
            played, row = self.play(vm, device)
            if not row_passed(row) and played.stalls():
                # The guest stood still long enough for hid-multitouch to lift the finger:
                # host load under TCG, which no panel has. Once more, from fresh programs.
                stalls = played.stalls()
                print(f"        note  the guest stalled ({', '.join(f'{ms} ms' for ms in stalls)}) and a row failed: "
                      f"{'; '.join(f'{k}: {v}' for k, v in row.items() if k in SCRIPTED and v != 'ok')}; "
                      "playing the device once more", flush=True)
                state["hid-ok"] = False
                self.ready(ctx, vm, state)
                played, row = self.play(vm, device)
                row["retried"] = f"after a guest stall of {max(stalls)} ms"
            self.rows[device.key] = row
            row["seconds"] = time.monotonic() - started
            ctx.check(f"driver {row['driver']}; event nodes: {row['nodes']}", bool(played.nodes),
                      "the kernel made no event node")
            if device.is_touchscreen:
                ctx.check(f"the face chose {row['chosen']}, the touchscreen", row["choice"] == "ok", row["choice"])
                for part, label in (("correct", "the correct pattern unlocks (action marker)"),
                                    ("wrong", "the wrong one counts one failure"),
                                    ("short", "the too-short one counts none"),
                                    ("resting", "a resting second finger changes nothing: it unlocks"),
                                    ("vanish", "the device vanishing mid-stroke cancels it, uncounted")):
                    if part in row:
                        ctx.check(label, row[part] == "ok", row[part])
            else:
                ctx.check(f"the face leaves it alone, one line per node ({row['why']})", row["refused"] == "ok",
                          row["refused"])
            ctx.check("the helper played the whole stream", row["status"] == "ok", row["status"])
            ctx.check("gridlockd and the face run on, waiting for the next device", row["daemon"] == "ok", row["daemon"])
        return body

    # -- the table of docs/testing.md ---------------------------------------------------------------

    def summary(self):
        # Every device whose part began; one that broke off before its row counts as failed.
        touch = [d for d in self.devices if d.is_touchscreen and d.key in self.attempted]
        def passed(d):
            return d.key in self.rows and row_passed(self.rows[d.key])
        full = [d for d in touch if self.full.get(d.key)]
        others = [d for d in self.devices if not d.is_touchscreen and d.key in self.attempted]
        replayed = [d.key for d in self.devices if "retried" in self.rows.get(d.key, {})]
        broken = [d.key for d in self.devices if d.key in self.attempted and d.key not in self.rows]
        return (f"{sum(map(passed, touch))} of {len(touch)} touchscreens pass every row they played "
                f"({sum(map(passed, full))} of {len(full)} with the full script); "
                f"{sum(passed(d) for d in others)} of {len(others)} other devices left alone"
                + (f"; played again after a guest stall: {', '.join(replayed)}" if replayed else "")
                + (f"; broke off before a result: {', '.join(broken)}" if broken else ""))

    def table(self):
        lines = ["| device | VID:PID | report style | slots | driver | event nodes | correct | wrong | too short "
                 "| 2nd finger resting | vanishes | s |", "|" + "---|" * 12]
        for d in self.devices:
            row, info = self.rows.get(d.key), self.summaries.get(d.key, {})
            if row is None:
                continue
            nodes = row["node cells"] if row.get("choice", "ok") == "ok" else f"{row['node cells']} FAIL: {row['choice']}"
            if d.is_touchscreen:
                cells = [{"ok": "ok", None: "-"}.get(row.get(p), f"FAIL: {row.get(p)}")
                         for p in ("correct", "wrong", "short", "resting", "vanish")]
            else:
                cells = [f"left alone: {row['why']}" if row["refused"] == "ok" else f"FAIL: {row['refused']}"] + [""] * 4
            for key in ("status", "daemon"):
                if row.get(key, "ok") != "ok":
                    cells[0] += f" FAIL: {row[key]}"
            seconds = f"{row['seconds']:.1f}" + (f" (played again {row['retried']})" if "retried" in row else "")
            lines.append(f"| {d.key} | {d.ids}{'*' if d.ids_from == 'name' else ''} | {info.get('style', '?')} | "
                         f"{info.get('max_contacts', '?')} | {row['driver']} | {nodes} | " + " | ".join(cells)
                         + f" | {seconds} |")
        return "\n".join(lines)
