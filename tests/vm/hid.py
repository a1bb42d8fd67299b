"""Real touch controllers for the real-kernel tests: the touchscreens of the Linux kernel's HID
selftests (tools/testing/selftests/hid/tests/test_multitouch.py), created in the guest
through /dev/uhid so that the kernel's own drivers (hid-multitouch, hid-generic) make the
events gridlockd reads. See docs/testing.md, "Real touch controllers (uhid)".

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
import os
import re
import subprocess
import sys

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

    def as_dict(self):
        return {k: v for k, v in vars(self).items()}


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
