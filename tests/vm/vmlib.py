"""The host side of the real-kernel tests: boot QEMU on Debian's kernel and the test
initramfs, talk to the guest's init over a second serial port, read the screen with QMP.

Python 3 standard library only. Used by tests/vm/run (by hand) and tests/vm/suite (make test-vm).

    with Guest(driver="bochs", mode=(800, 480), files={"etc/gridlock/gridlock.conf": text}) as vm:
        vm.sh("gridlock-vm start /etc/gridlock/gridlock.conf")
        vm.wait_serial(r"gridlockd\\| .*starting")
        image = vm.screendump()          # a Screen: image.pixel(x, y) -> (r, g, b)

Files for one run (configs, recordings) travel as a second, uncompressed cpio archive
appended to the cached base initramfs; the kernel unpacks it over the first one.
"""
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.environ.get("GRIDLOCK_VM_CACHE", os.path.join(HERE, "cache"))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build", "release"))
# The arm64 guest's binaries: the Debian 13 arm64 build (make release DIST=trixie ARCH=arm64).
ARM64_BIN = os.environ.get("ARM64_BIN", os.path.join(ROOT, ".build", "trixie-arm64", "aarch64-unknown-linux-gnu",
                                                     "release"))
HOST_PACKAGES = ["qemu-system-x86", "busybox-static", "cpio", "kmod", "evemu-tools", "xz-utils",
                 "gcc", "libc6-dev", "python3-venv",  # guest/hidplay.c, hid-tools (tests/vm/hid.py)
                 "make", "libelf1",  # tests/vm/build-vkms (kbuild and its objtool)
                 # the arm64 guest: its QEMU, Debian's cross compiler and binutils for its
                 # helpers, mmdebstrap for its Debian files (tests/vm/fetch-guest-tree)
                 "qemu-system-arm", "gcc-aarch64-linux-gnu", "mmdebstrap"]
ARCHES = ("amd64", "arm64")
DRIVERS = ("bochs", "virtio", "vkms")
# vkms: the kernel's virtual KMS driver, built for the guest's kernel (tests/vm/build-vkms);
# its vblank is an hrtimer at the mode's refresh rate, so page flips complete on a real clock.
VKMS_DEPENDENCIES = ["drm_kms_helper", "drm_shmem_helper"]


class VMError(Exception):
    pass


def log(message):
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Preparing: host packages, kernel, initramfs

def ensure_host_packages():
    """Installs the Debian packages the harness needs when one is missing (root: as is; else sudo)."""
    missing = [p for p in HOST_PACKAGES
               if "ok installed" not in subprocess.run(["dpkg-query", "-W", "-f=${Status}", p],
                                                       capture_output=True, text=True).stdout]
    if not missing:
        return
    log("tests/vm: installing " + " ".join(missing))
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-q"] + missing, check=True, env=env,
                   stdout=subprocess.DEVNULL)


_prepared = {}


def prepare(arch="amd64"):
    """(kernel dir, base initramfs path) of a guest architecture, fetched and built only when
    something changed. amd64: Debian 12's kernel and the host's release build; arm64: Debian
    13's arm64 kernel and the Debian 13 arm64 build."""
    if arch not in _prepared:
        ensure_host_packages()
        where = [] if arch == "amd64" else ["--dist", "trixie", "--arch", arch]
        kernel = subprocess.run([os.path.join(HERE, "fetch-kernel")] + where, check=True,
                                stdout=subprocess.PIPE, text=True).stdout.strip()
        build = [os.path.join(HERE, "build-initramfs"), kernel, BIN]
        if arch == "arm64":
            build = [os.path.join(HERE, "build-initramfs"), kernel, ARM64_BIN, "--arch", "arm64"]
        initramfs = subprocess.run(build, check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
        _prepared[arch] = (kernel, initramfs)
    return _prepared[arch]


def cpio_newc(files):
    """An uncompressed newc cpio archive of {path in guest: bytes or str}, directories made as needed."""
    out = bytearray()
    ino = [0x70000]

    def entry(name, mode, data=b""):
        ino[0] += 1
        name_bytes = name.encode() + b"\0"
        header = "070701" + "".join("%08X" % v for v in (
            ino[0], mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_bytes), 0))
        out.extend(header.encode() + name_bytes)
        out.extend(b"\0" * (-len(out) % 4))
        out.extend(data)
        out.extend(b"\0" * (-len(out) % 4))

    made = set()
    for path in sorted(files):
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in made:
                made.add(d)
                entry(d, 0o040755)
        data = files[path]
        # Configs as an installer leaves them: root's alone (they hold hashes; gridlockd
        # refuses a hash others can read).
        mode = 0o100755 if path.endswith(".sh") else 0o100600 if path.endswith(".conf") else 0o100644
        entry(path.strip("/"), mode, data.encode() if isinstance(data, str) else data)
    entry("TRAILER!!!", 0)
    out.extend(b"\0" * (-len(out) % 512))
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# The screen

class Screen:
    """A screendump (binary PPM, P6) with pixel access."""

    def __init__(self, data, path=None):
        self.path = path
        fields, pos = [], 0
        while len(fields) < 4:
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos)
                continue
            end = pos
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(data[pos:end])
            pos = end
        if fields[0] != b"P6" or fields[3] != b"255":
            raise VMError("screendump is not an 8-bit binary PPM")
        self.width, self.height = int(fields[1]), int(fields[2])
        self.pixels = data[pos + 1:]

    @classmethod
    def from_png(cls, data, path=None):
        """Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what cairo and QEMU write)."""
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            raise VMError("not a PNG file")
        pos, idat, header = 8, bytearray(), None
        while pos < len(data):
            length = int.from_bytes(data[pos:pos + 4], "big")
            kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                header = body
            elif kind == b"IDAT":
                idat += body
        width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
        depth, colour, interlace = header[8], header[9], header[12]
        if depth != 8 or colour not in (2, 6) or interlace:
            raise VMError(f"unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
        bpp = 3 if colour == 2 else 4
        raw, stride = zlib.decompress(bytes(idat)), width * bpp
        rows, prev = [], bytearray(stride)
        for y in range(height):
            kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                if kind == 1:
                    line[i] = (line[i] + a) & 255
                elif kind == 2:
                    line[i] = (line[i] + b) & 255
                elif kind == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line if bpp == 3 else bytearray(v for i, v in enumerate(line) if i % 4 != 3))
            prev = line
        return cls(b"P6 %d %d 255\n" % (width, height) + b"".join(rows), path)

    def pixel(self, x, y):
        """(r, g, b), or () outside the screen (a screen of another size), which `close` never accepts."""
        x, y = int(round(x)), int(round(y))
        if not (0 <= x < self.width and 0 <= y < self.height):
            return ()
        i = 3 * (y * self.width + x)
        return tuple(self.pixels[i:i + 3])

    def count(self, predicate, x0, y0, x1, y1, step=1):
        """How many sampled pixels of the rectangle satisfy predicate((r, g, b))."""
        n = 0
        for y in range(max(0, int(y0)), min(self.height, int(y1)), step):
            for x in range(max(0, int(x0)), min(self.width, int(x1)), step):
                if predicate(self.pixel(x, y)):
                    n += 1
        return n


def hex_colour(text):
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def close(a, b, within=24):
    if len(a) != 3 or len(b) != 3:
        return False
    return all(abs(p - q) <= within for p, q in zip(a, b))


def show(rgb):
    if len(rgb) != 3:
        return "outside"
    return "#%02X%02X%02X" % tuple(rgb)


class Grid:
    """Where gridlock's default 3 x 3 grid lies on a WxH screen (GridLayout + SceneMetrics)."""

    def __init__(self, width, height, rows=3, columns=3, size=0.8):
        side = size * min(width, height)
        self.cell = side / max(rows, columns)
        self.left = (width - self.cell * columns) / 2
        self.top = (height - self.cell * rows) / 2
        self.rows, self.columns = rows, columns
        self.ring_radius = 0.12 * self.cell
        self.ring_width = max(2.0, 0.02 * self.cell)
        self.width, self.height = width, height

    def centre(self, node):
        """Centre of node 1..rows*columns (row by row)."""
        row, column = divmod(node - 1, self.columns)
        return (self.left + (column + 0.5) * self.cell, self.top + (row + 0.5) * self.cell)

    def ring_point(self, node):
        x, y = self.centre(node)
        return (x + self.ring_radius, y)

    def message_band(self):
        """(x0, y0, x1, y1) of the band above the grid that holds the message."""
        return (0, 0, self.width, self.top)


# ---------------------------------------------------------------------------------------------
# The guest

class Guest:
    """One QEMU run. Use as a context manager; the VM is killed on exit if still running."""

    def __init__(self, driver="bochs", mode=(1280, 800), files=None, memory=256, boot_timeout=60,
                 command_timeout=120, name="vm", kernel_args="", speaker_wav=None, arch="amd64"):
        if driver not in DRIVERS:
            raise VMError(f"unknown driver {driver!r} (bochs, virtio or vkms)")
        if arch not in ARCHES:
            raise VMError(f"unknown architecture {arch!r} (amd64 or arm64)")
        if arch == "arm64" and (driver != "virtio" or speaker_wav):
            raise VMError("the arm64 guest has a virtio-gpu display and no PC speaker (driver='virtio')")
        # arm64: qemu-system-aarch64 -M virt under TCG, several times slower than the amd64
        # guest; its boot and commands are given more time (a hang is still told apart).
        self.arch = arch
        if arch == "arm64":
            memory, boot_timeout, command_timeout = max(memory, 512), boot_timeout * 3, command_timeout * 2
        self.driver, self.mode, self.files = driver, tuple(mode), dict(files or {})
        self.memory, self.boot_timeout, self.command_timeout = memory, boot_timeout, command_timeout
        self.name, self.kernel_args = name, kernel_args
        # The PC speaker's sound, recorded by QEMU into this WAV file (None: no audio at all).
        self.speaker_wav = speaker_wav
        self.work = tempfile.mkdtemp(prefix=f"gridlock-vm-{name}.")
        self.serial_path = os.path.join(self.work, "serial.log")
        self.process = None
        self.control = None
        self.qmp = None
        self.next_id = 0
        self.sent = set()
        self.control_buffer = b""
        self.times = {}
        self.keep = False

    # -- lifecycle --------------------------------------------------------------------------

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        if not self.keep:
            shutil.rmtree(self.work, ignore_errors=True)

    def qemu_command(self, kernel, initrd):
        width, height = self.mode
        if self.arch == "arm64":
            # The virt board's PL011 UART is the console; the control channel is a virtio
            # console (hvc0), since the board has one UART only. The guest's init reads the
            # two names from gridlock.console= and gridlock.control=.
            return ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-accel", "tcg",
                    "-m", str(self.memory), "-smp", "1",
                    "-nodefaults", "-no-user-config", "-no-reboot", "-display", "none",
                    "-kernel", os.path.join(kernel, "Image"), "-initrd", initrd,
                    "-append", f"console=ttyAMA0 quiet panic=-1 gridlock.driver={self.driver} "
                               f"gridlock.console=ttyAMA0 gridlock.control=hvc0 "
                               f"gridlock.timeout={self.command_timeout} {self.kernel_args}".rstrip(),
                    "-chardev", f"file,id=log,path={self.serial_path}", "-serial", "chardev:log",
                    "-device", "virtio-serial-pci",
                    "-chardev", f"socket,id=ctl,path={self.work}/control.sock,server=on,wait=off",
                    "-device", "virtconsole,chardev=ctl",
                    "-qmp", f"unix:{self.work}/qmp.sock,server=on,wait=off",
                    "-device", f"virtio-gpu-pci,xres={width},yres={height}"]
        cmd = ["qemu-system-x86_64", "-accel", "tcg", "-m", str(self.memory), "-smp", "1",
               "-nodefaults", "-no-user-config", "-no-reboot", "-display", "none",
               "-kernel", os.path.join(kernel, "vmlinux"), "-initrd", initrd,
               "-append", f"console=ttyS0 quiet panic=-1 gridlock.driver={self.driver} "
                          f"gridlock.timeout={self.command_timeout} {self.kernel_args}".rstrip(),
               "-chardev", f"file,id=log,path={self.serial_path}", "-serial", "chardev:log",
               "-chardev", f"socket,id=ctl,path={self.work}/control.sock,server=on,wait=off",
               "-serial", "chardev:ctl",
               "-qmp", f"unix:{self.work}/qmp.sock,server=on,wait=off"]
        if self.speaker_wav:
            cmd += ["-audiodev", f"wav,id=speaker,path={self.speaker_wav}", "-machine", "pc,pcspk-audiodev=speaker"]
        if self.driver == "vkms":
            cmd += ["-vga", "none"]  # no display device: vkms is the only DRM card
        elif self.driver == "bochs":
            cmd += ["-vga", "std", "-global", f"VGA.xres={width}", "-global", f"VGA.yres={height}"]
        else:
            cmd += ["-vga", "none", "-device", f"virtio-gpu-pci,xres={width},yres={height}"]
        return cmd

    def vkms_files(self, kernel):
        """The per-run files that let the guest's init load vkms: vkms.ko built for this
        kernel, the DRM modules it needs and their order (modules-vkms). A module that
        cannot be built is a VMError saying why: a vkms scenario fails, it is not skipped."""
        version = os.path.basename(kernel.rstrip("/"))
        built = subprocess.run([os.path.join(HERE, "build-vkms"), kernel], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        if built.returncode != 0:
            raise VMError("cannot build vkms for the guest's kernel:\n" + built.stderr.strip()[-3000:])
        root, files, order = os.path.join(kernel, "root"), {}, []
        for name in VKMS_DEPENDENCIES:
            out = subprocess.run(["modprobe", "-d", root, "-S", version, "--show-depends", name],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                raise VMError(f"modprobe --show-depends {name}: {out.stderr.strip()}")
            for line in out.stdout.splitlines():
                parts = line.split()
                if parts and parts[0] == "insmod":
                    rel = os.path.relpath(parts[1], root)
                    if rel not in order:
                        order.append(rel)
                        files[rel] = open(parts[1], "rb").read()
        vkms = f"lib/modules/{version}/extra/vkms.ko"
        order.append(vkms)
        files[vkms] = open(built.stdout.strip(), "rb").read()
        files["etc/gridlock-vm/modules-vkms"] = "".join("/" + rel + "\n" for rel in order)
        return files

    def start(self):
        kernel, base = prepare(self.arch)
        if self.driver == "vkms":
            self.files.update(self.vkms_files(kernel))
        initrd = os.path.join(self.work, "initrd")
        with open(initrd, "wb") as out, open(base, "rb") as first:
            shutil.copyfileobj(first, out)
            # The kernel finds the next archive only at a 4-byte-aligned offset; zeros are skipped.
            out.write(b"\0" * (-out.tell() % 512))
            out.write(cpio_newc(self.files))
        cmd = self.qemu_command(kernel, initrd)
        self.t0 = time.monotonic()
        self.process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.control = self._connect(f"{self.work}/control.sock")
        self.qmp = QMP(self._connect(f"{self.work}/qmp.sock"))
        m = self.wait_serial(r"GRIDLOCK-VM: userspace", self.boot_timeout)
        self.times["userspace"] = time.monotonic() - self.t0
        self.wait_serial(r"GRIDLOCK-VM: drm ", self.boot_timeout)
        self.times["drm"] = time.monotonic() - self.t0
        self.wait_serial(r"GRIDLOCK-VM: ready", self.boot_timeout)
        self.times["ready"] = time.monotonic() - self.t0
        return m

    def _connect(self, path, timeout=120):
        """QEMU's socket, once QEMU has made it. The timeout only tells a hung QEMU from a slow
        start (a loaded host can take well over 10 s before QEMU listens); it measures nothing."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                return s
            except OSError:
                s.close()
                if self.process.poll() is not None:
                    raise VMError("QEMU exited: " + self.process.stdout.read().decode(errors="replace"))
                if time.monotonic() > deadline:
                    raise VMError(f"no QEMU socket {path} after {timeout} s, though QEMU still runs")
                time.sleep(0.02)

    def stop(self, timeout=10):
        """Powers the guest off (or kills QEMU) and returns QEMU's exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            try:
                self.send_line(f"{self._id()} " + base64.b64encode(b"poweroff -f").decode())
                self.process.wait(timeout)
            except Exception:
                pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for s in (self.control, self.qmp and self.qmp.sock):
            if s:
                s.close()
        return self.process.returncode

    # -- serial log (ttyS0; ttyAMA0 on arm64) ---------------------------------------------

    def serial(self):
        try:
            with open(self.serial_path, "rb") as f:
                return f.read().decode(errors="replace").replace("\r\n", "\n")
        except FileNotFoundError:
            return ""

    def wait_serial(self, pattern, timeout=30, after=0):
        """The first match of `pattern` in the serial log past offset `after`, waiting up to `timeout` s."""
        regex = re.compile(pattern, re.M)
        deadline = time.monotonic() + timeout
        while True:
            m = regex.search(self.serial(), after)
            if m:
                return m
            if self.process.poll() is not None:
                m = regex.search(self.serial(), after)
                if m:
                    return m
                raise VMError(f"guest stopped before /{pattern}/ appeared on its serial console")
            if time.monotonic() > deadline:
                raise VMError(f"/{pattern}/ did not appear on the serial console within {timeout} s")
            time.sleep(0.05)

    def daemon_log(self):
        return "\n".join(line[len("gridlockd| "):] for line in self.serial().splitlines()
                         if line.startswith("gridlockd| "))

    # -- control channel (ttyS1; hvc0 on arm64) -------------------------------------------

    def _id(self):
        self.next_id += 1
        self.sent.add(f"c{self.next_id}")
        return f"c{self.next_id}"

    def send_line(self, line):
        self.control.sendall(line.encode() + b"\n")

    def sh(self, command, timeout=None, check=True, trickle=0.0):
        """Runs `command` with the guest's sh; returns (status, output). Raises on timeout, on
        an answer to a command line the guest did not read whole, or, with check, on a
        non-zero status. A late answer to an earlier command that timed out is dropped. trickle: send the line byte by byte over that many seconds (a slow
        UART under load, for the harness's own test of its control loop)."""
        timeout = timeout or self.command_timeout + 10
        ident = self._id()
        line = f"{ident} " + base64.b64encode(command.encode()).decode()
        if trickle:
            for byte in (line + "\n").encode():
                self.control.sendall(bytes([byte]))
                time.sleep(trickle / (len(line) + 1))
        else:
            self.send_line(line)
        done = re.compile(rb"\nGRIDLOCK-VM-DONE (\S*) (\d+)\n")
        deadline = time.monotonic() + timeout
        self.control.settimeout(0.2)
        while True:
            m = done.search(self.control_buffer)
            if m:
                output = self.control_buffer[:m.start()].decode(errors="replace")
                self.control_buffer = self.control_buffer[m.end():]
                status = int(m.group(2))
                answered = m.group(1).decode(errors="replace")
                if answered != ident and answered in self.sent:
                    continue  # the late answer to an earlier command whose wait timed out
                if answered != ident:
                    raise VMError(f"the guest answered {answered!r} instead of {ident}: "
                                  f"it did not read the line of '{command}' whole\n{output}")
                if check and status != 0:
                    raise VMError(f"guest command failed ({status}): {command}\n{output}")
                return status, output
            if time.monotonic() > deadline:
                raise VMError(f"guest command timed out after {timeout} s: {command}")
            if self.process.poll() is not None:
                raise VMError(f"guest stopped during: {command}")
            try:
                chunk = self.control.recv(65536)
                if not chunk:
                    raise VMError("control channel closed")
                self.control_buffer += chunk
            except socket.timeout:
                pass

    # -- screen (QMP) -----------------------------------------------------------------------

    def screendump(self, png=None):
        """The screen now, as a Screen; with png=PATH also saved there as PNG."""
        path = os.path.join(self.work, "screen.ppm")
        self.qmp.command("screendump", filename=path)
        with open(path, "rb") as f:
            screen = Screen(f.read(), path)
        if png:
            self.qmp.command("screendump", filename=os.path.abspath(png), format="png")
        return screen

    def wait_screen(self, predicate, timeout=20, interval=0.1):
        """Screendumps until predicate(screen) holds; returns that screen, or raises with the last one."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screendump()
            if predicate(screen):
                return screen
            if time.monotonic() > deadline:
                err = VMError("the screen did not show what was expected within %s s" % timeout)
                err.screen = screen
                raise err
            time.sleep(interval)


class QMP:
    def __init__(self, sock):
        self.sock = sock
        self.file = sock.makefile("rb")
        self._read()  # greeting
        self.command("qmp_capabilities")

    def _read(self):
        while True:
            line = self.file.readline()
            if not line:
                raise VMError("QMP connection closed")
            message = json.loads(line)
            if "event" not in message:
                return message

    def command(self, name, **arguments):
        request = {"execute": name}
        if arguments:
            request["arguments"] = arguments
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        reply = self._read()
        if "error" in reply:
            raise VMError(f"QMP {name}: {reply['error'].get('desc')}")
        return reply.get("return")
