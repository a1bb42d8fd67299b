"""Real Wayland compositors, headless, for tests: Debian 13's sway and labwc in the root of
tools/trixie-root (its package list is the Makefile's WAYLAND_ROOT_PACKAGES), on wlroots'
headless backend with the pixman renderer (no GPU, no VM), one output of a given size.

Python 3 standard library only. Used by tests/wayland/compositor (by hand) and
tests/wayland/check-globals (make test-wayland-headless).

    with Compositor("sway", ".build/wayland/sway") as c:   # waits until it is ready
        c.env                      # {"XDG_RUNTIME_DIR": ..., "WAYLAND_DISPLAY": "wayland-1"}
        c.run_client(["wayland-info"])                     # a program of the root
        subprocess.run([LIST_GLOBALS], env=c.host_env())   # a program of this machine
        c.screenshot("shot.png").pixel(10, 10)             # grim in the root -> (r, g, b)

The runtime folder (XDG_RUNTIME_DIR) is under the repository, which the root sees at its own
path, so the compositor's socket is the same file inside and out. The compositor runs in the
mount and PID namespace of one `tools/trixie-root run`: killing that one process (SIGKILL)
ends the namespace and everything in it. A context manager's compositor is also tied to the
Python process that started it (PR_SET_PDEATHSIG through setpriv), so not even a SIGKILL of
the test leaves it running.

Every wait polls a condition (the socket exists, a client's roundtrip answers, the output has
the size, a pixel has the colour) until a timeout; none sleeps for a fixed time to synchronise.
"""
import os
import re
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "vm"))
from vmlib import Screen, close, hex_colour, show  # noqa: E402  (the screendump reader)

BUILD = os.path.join(ROOT, ".build", "wayland")
BIN = os.path.join(BUILD, "bin")
LIST_GLOBALS = os.path.join(BIN, "list-globals")
POINTER_PROBE = os.path.join(BIN, "pointer-probe")
DRAG = os.path.join(HERE, "drag")
KINDS = ("sway", "labwc")
# What a socket's path can hold (sun_path, with its NUL).
SUN_PATH_MAX = 107
# The host's packages that build the two helpers (the Makefile's TEST_PACKAGES has them).
XDG_SHELL_XML = "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml"


class HarnessError(Exception):
    pass


def log(message):
    print(f"wayland: {message}", file=sys.stderr, flush=True)


def root_packages():
    """The root's package list: WAYLAND_ROOT_PACKAGES from the environment, else the Makefile's."""
    packages = os.environ.get("WAYLAND_ROOT_PACKAGES")
    if packages:
        return packages
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")}
    done = subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT, "print-var-WAYLAND_ROOT_PACKAGES"],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0 or not done.stdout.strip():
        raise HarnessError(f"cannot read WAYLAND_ROOT_PACKAGES from {ROOT}/Makefile: {done.stderr.strip()}")
    return done.stdout.strip()


def in_root(packages, command):
    """The command line that runs `command` inside the root (tools/trixie-root run)."""
    return [os.path.join(ROOT, "tools", "trixie-root"), "--packages", packages, "run", *command]


made_roots = set()


def ensure_root(packages):
    """Makes the root of this package list if it is missing (about a minute, once: its
    messages on stderr), so that no wait for a compositor includes it."""
    if packages not in made_roots:
        if subprocess.run([os.path.join(ROOT, "tools", "trixie-root"), "--packages", packages, "path"],
                          stdout=subprocess.DEVNULL).returncode != 0:
            raise HarnessError("tools/trixie-root could not make the compositors' root (it says why above)")
        made_roots.add(packages)


def wait_for(condition, timeout, what, interval=0.05):
    """Polls condition() until it returns something true, which is returned; HarnessError after
    timeout seconds. interval only spaces the polls: no outcome depends on it."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise HarnessError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def build(command):
    if subprocess.run(command).returncode != 0:
        raise HarnessError(f"building a test client failed (above): {' '.join(command)}")


def build_helpers():
    """Builds the host's test clients into .build/wayland/bin with this machine's gcc,
    libwayland-client and wayland-protocols' xdg-shell, when their sources are newer."""
    os.makedirs(BIN, exist_ok=True)
    for path in (XDG_SHELL_XML, "/usr/include/wayland-client.h"):
        if not os.path.exists(path):
            raise HarnessError(f"{path} is missing: install libwayland-dev, libwayland-bin and wayland-protocols "
                               "(make test-deps)")

    def stale(target, *sources):
        return not os.path.exists(target) or any(os.path.getmtime(s) > os.path.getmtime(target) for s in sources)

    header, code = os.path.join(BIN, "xdg-shell-client-protocol.h"), os.path.join(BIN, "xdg-shell-protocol.c")
    if stale(header, XDG_SHELL_XML):
        build(["wayland-scanner", "client-header", XDG_SHELL_XML, header])
        build(["wayland-scanner", "private-code", XDG_SHELL_XML, code])
    flags = ["-O1", "-Wall", "-Werror"]
    source = os.path.join(HERE, "list-globals.c")
    if stale(LIST_GLOBALS, source):
        build(["gcc", *flags, "-o", LIST_GLOBALS, source, "-lwayland-client"])
    source = os.path.join(HERE, "pointer-probe.c")
    if stale(POINTER_PROBE, source, header):
        build(["gcc", *flags, "-I", BIN, "-o", POINTER_PROBE, source, code, "-lwayland-client"])


def runtime_dir(path):
    """The absolute runtime folder, checked: inside the repository (the root sees only that) and
    short enough for a socket path."""
    path = os.path.realpath(path)
    if not (path + "/").startswith(ROOT + "/"):
        raise HarnessError(f"{path}: the runtime folder must be inside the repository ({ROOT}), "
                           "which is all of this machine that the root sees (use .build/wayland/NAME)")
    if len(path) + len("/wayland-10") > SUN_PATH_MAX:
        raise HarnessError(f"{path}: too long for a socket path ({SUN_PATH_MAX} bytes): choose a shorter folder")
    return path


def sockets(path):
    try:
        return sorted(n for n in os.listdir(path) if re.fullmatch(r"wayland-\d+", n))
    except FileNotFoundError:
        return []


def leftovers(path):
    """The processes on this machine whose XDG_RUNTIME_DIR is path: what stop must leave none of."""
    needle = b"\0XDG_RUNTIME_DIR=" + os.fsencode(path) + b"\0"
    found, mine = [], ancestors()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in mine:
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in b"\0" + f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def ancestors():
    """This process and those it descends from: a shell that exported XDG_RUNTIME_DIR is not
    one of the compositor's."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
    return pids


def describe(pids):
    names = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            names.append(f"{pid} {command}")
        except OSError:
            names.append(f"{pid} (gone)")
    return ", ".join(names) or "none"


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


class Checks:
    """A test script's checks: each printed as it is made (its detail always, or only when it
    failed), tallied for the summary line."""

    def __init__(self, detail_when_ok=True):
        self.passed, self.failed, self.detail_when_ok = [], [], detail_when_ok

    def __call__(self, name, condition, detail=""):
        (self.passed if condition else self.failed).append(name)
        shown = detail and (self.detail_when_ok or not condition)
        print(f"{'ok' if condition else 'FAILED'}: {name}{': ' + detail if shown else ''}", flush=True)
        return condition

    def summary(self):
        """Prints "N passed, N failed"; the exit status: 1 if any check failed."""
        print(f"{len(self.passed)} passed, {len(self.failed)} failed", flush=True)
        return 1 if self.failed else 0


def launch(kind, line, path, log_file, **popen):
    """Starts a compositor's command line, its output into log_file and its pid into path's
    compositor.pid (which `stop` reads); returns the Popen."""
    with open(log_file, "wb") as out:
        process = subprocess.Popen(line, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, **popen)
    with open(os.path.join(path, "compositor.pid"), "w") as f:
        f.write(f"{process.pid}\n")
    return process


def wait_for_socket(kind, process, path, log_file, timeout):
    """The name of the socket the compositor makes in path; HarnessError, with its log's end,
    if it exits first or the timeout passes."""
    def socket_or_exit():
        if process.poll() is not None:
            raise HarnessError(f"{kind} exited with status {process.returncode} before its socket "
                               f"appeared; its log ({log_file}) ends:\n{log_tail(log_file)}")
        found = sockets(path)
        return found[0] if found else None

    return wait_for(socket_or_exit, timeout, f"{kind}'s socket in {path}")


def log_tail(log_file, lines=20):
    try:
        with open(log_file, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


class Compositor:
    """sway or labwc in the root, headless, its runtime folder `path` (under the repository)."""

    def __init__(self, kind, path, size=(800, 480), background="#336699", packages=None, tie_to_caller=True,
                 timeout=60):
        """background: sway's (labwc's output is black, write_config says why)."""
        if kind not in KINDS:
            raise HarnessError(f"{kind}: the compositors are {', '.join(KINDS)}")
        self.kind, self.path, self.size = kind, runtime_dir(path), tuple(size)
        self.background = "#%02X%02X%02X" % hex_colour(background)
        self.packages = packages or root_packages()
        self.tie_to_caller, self.timeout = tie_to_caller, timeout
        self.pid, self.display, self.holder = None, None, None
        self.log_file = os.path.join(self.path, "compositor.log")

    # -- starting and stopping

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def write_config(self):
        width, height = self.size
        if self.kind == "sway":
            config = os.path.join(self.path, "sway.conf")
            with open(config, "w") as f:
                f.write(f"output HEADLESS-1 resolution {width}x{height} position 0 0\n"
                        f"output * bg {self.background} solid_color\n"
                        "default_border none\n"
                        "xwayland disable\n")
            return ["sway", "--config", config]
        # labwc: its folder of rc.xml; the output's size is set once it exists (wlr-randr, in
        # start). No background: swaybg draws its colour as a single-pixel buffer scaled by
        # wp_viewporter, which labwc 0.8.3's pixman renderer filters into a vignette (full colour
        # at the centre, a quarter at the corners), so the output stays black (#000000).
        folder = os.path.join(self.path, "labwc")
        os.makedirs(folder, exist_ok=True)
        for other in ("autostart", "environment", "menu.xml"):  # labwc would read them
            try:
                os.unlink(os.path.join(folder, other))
            except FileNotFoundError:
                pass
        with open(os.path.join(folder, "rc.xml"), "w") as f:
            f.write('<?xml version="1.0"?>\n<labwc_config>\n  <core><decoration>server</decoration></core>\n'
                    '</labwc_config>\n')
        return ["labwc", "--config-dir", folder]

    def start(self):
        if running(self.path):
            raise HarnessError(f"a compositor runs in {self.path} (process {running(self.path)}): "
                               f"tests/wayland/compositor stop {self.path}")
        os.makedirs(self.path, mode=0o700, exist_ok=True)
        os.chmod(self.path, 0o700)
        stop(self.path)  # the socket and the pid file of a compositor killed with its starter
        build_helpers()  # list-globals tells when the compositor is ready
        ensure_root(self.packages)
        command = self.write_config()
        env = ["env", f"XDG_RUNTIME_DIR={self.path}", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman",
               "WLR_HEADLESS_OUTPUTS=1", "WLR_LIBINPUT_NO_DEVICES=1"]
        line = in_root(self.packages, env + command)
        if self.tie_to_caller:
            line = ["setpriv", "--pdeathsig", "KILL", *line]
        log(f"starting {self.kind} in the Debian 13 root, runtime folder {self.path}")
        started = time.monotonic()
        self.process = launch(self.kind, line, self.path, self.log_file, start_new_session=not self.tie_to_caller)
        self.pid = self.process.pid
        self.display = wait_for_socket(self.kind, self.process, self.path, self.log_file, self.timeout)
        if self.kind == "labwc":
            width, height = self.size
            self.run_client(["wlr-randr", "--output", "HEADLESS-1", "--custom-mode", f"{width}x{height}"])
        wait_for(lambda: self.output_size() == self.size, self.timeout,
                 f"{self.kind}'s output to be {self.size[0]}x{self.size[1]}")
        self.hold_pointer()
        log(f"{self.kind} ready: WAYLAND_DISPLAY={self.display}, output {self.size[0]}x{self.size[1]} "
            f"({time.monotonic() - started:.1f} s)")
        return self

    def hold_pointer(self):
        """A virtual pointer for the compositor's whole life (tests/wayland/drag --hold), so
        that its seat has a pointer before any client asks for one."""
        holder = subprocess.Popen(
            (["setpriv", "--pdeathsig", "KILL"] if self.tie_to_caller else []) + [DRAG, "--hold"],
            env=self.host_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
            start_new_session=not self.tie_to_caller)
        # One line, "holding", once the compositor has the pointer; EOF if drag failed.
        ready, _, _ = select.select([holder.stdout], [], [], self.timeout)
        line = holder.stdout.readline() if ready else ""
        holder.stdout.close()
        if line.strip() != "holding":
            holder.kill()
            holder.wait()
            raise HarnessError(f"tests/wayland/drag --hold failed (status {holder.wait()}): no virtual pointer")
        self.holder = holder

    def log_tail(self, lines=20):
        return log_tail(self.log_file, lines)

    def stop(self):
        stop(self.path)
        if self.holder:  # it ended with the compositor; reaped here
            self.holder.wait(timeout=10)

    # -- clients

    @property
    def env(self):
        return {"XDG_RUNTIME_DIR": self.path, "WAYLAND_DISPLAY": self.display}

    def host_env(self):
        return dict(os.environ, **self.env)

    def run_client(self, command, check=True, capture=True, timeout=60):
        """Runs a program of the root against the compositor; returns the CompletedProcess."""
        line = in_root(self.packages, ["env", *(f"{k}={v}" for k, v in self.env.items()), *command])
        done = subprocess.run(line, stdin=subprocess.DEVNULL, capture_output=capture, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise HarnessError(f"{' '.join(command)} (in the root) exited with status {done.returncode}: "
                               f"{(done.stderr or '').strip()}")
        return done

    def list_globals(self):
        """{interface: version} and the current output modes, from the host's list-globals."""
        done = subprocess.run([LIST_GLOBALS], env=self.host_env(), capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            return None, []
        interfaces, modes = {}, []
        for line in done.stdout.splitlines():
            name, value = line.split(" ", 1)
            if name == "mode":
                modes.append(tuple(int(v) for v in value.split("x")))
            else:
                interfaces[name] = int(value)
        return interfaces, modes

    def output_size(self):
        interfaces, modes = self.list_globals()
        return modes[0] if len(modes) == 1 else None

    def screenshot(self, png):
        """The output now, by grim in the root, saved as png (inside the repository): a Screen."""
        png = os.path.realpath(png)
        if not png.startswith(ROOT + "/"):
            raise HarnessError(f"{png}: grim runs in the root, which sees only the repository: save inside it")
        self.run_client(["grim", png])
        with open(png, "rb") as f:
            return Screen.from_png(f.read(), png)

    def wait_screen(self, predicate, png, what, timeout=None):
        """Polls screenshots (saved as png) until predicate(screen) holds; returns that Screen,
        or raises HarnessError naming what after the timeout."""
        def shown():
            screen = self.screenshot(png)
            return screen if predicate(screen) else None

        return wait_for(shown, timeout or self.timeout, what)

    def wait_pixel(self, x, y, colour, png, timeout=None):
        """Polls screenshots until the pixel (x, y) is colour (#RRGGBB); returns the Screen."""
        want, seen = hex_colour(colour), []

        def has_colour(screen):
            seen.append(show(screen.pixel(x, y)))
            return close(screen.pixel(x, y), want, within=2)

        try:
            return self.wait_screen(has_colour, png, f"pixel ({x}, {y}) to be {colour}", timeout)
        except HarnessError as e:
            raise HarnessError(f"{e}; it was {seen[-1] if seen else 'never read'} ({png})") from None


class CompositorWithoutLock:
    """weston or cage in the root, headless: two compositors that offer no
    ext-session-lock-v1, only to see the face refuse them. No output size, no pointer."""

    COMMANDS = {
        # Weston's kiosk shell: no desktop-shell client to start, nothing drawn but clients.
        "weston": ["weston", "--backend=headless", "--renderer=pixman", "--shell=kiosk", "--width=800",
                   "--height=480", "--socket=wayland-1"],
        # cage runs one client and ends with it: a sleep that outlives the check.
        "cage": ["cage", "--", "sleep", "600"],
    }

    def __init__(self, kind, path, packages=None, timeout=60):
        self.kind, self.path = kind, runtime_dir(path)
        self.packages = packages or root_packages()
        self.timeout, self.pid, self.display = timeout, None, None
        self.log_file = os.path.join(self.path, "compositor.log")

    def __enter__(self):
        if running(self.path):
            raise HarnessError(f"a compositor runs in {self.path} (process {running(self.path)})")
        os.makedirs(self.path, mode=0o700, exist_ok=True)
        os.chmod(self.path, 0o700)
        stop(self.path)
        ensure_root(self.packages)
        env = ["env", f"XDG_RUNTIME_DIR={self.path}", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman",
               "WLR_LIBINPUT_NO_DEVICES=1"]
        line = ["setpriv", "--pdeathsig", "KILL", *in_root(self.packages, env + self.COMMANDS[self.kind])]
        log(f"starting {self.kind} in the Debian 13 root, runtime folder {self.path}")
        process = launch(self.kind, line, self.path, self.log_file)
        self.pid = process.pid
        try:
            self.display = wait_for_socket(self.kind, process, self.path, self.log_file, self.timeout)
            # The socket is bound before the globals exist: one roundtrip that lists them.
            wait_for(lambda: subprocess.run([LIST_GLOBALS], env=dict(os.environ, **self.env),
                                            capture_output=True).returncode == 0,
                     self.timeout, f"{self.kind} to answer a client")
        except BaseException:
            stop(self.path)
            raise
        return self

    def __exit__(self, *exc):
        stop(self.path)

    @property
    def env(self):
        return {"XDG_RUNTIME_DIR": self.path, "WAYLAND_DISPLAY": self.display}

    def log_tail(self, lines=20):
        return log_tail(self.log_file, lines)


def running(path):
    """The pid of the compositor started in path, if it still runs."""
    try:
        with open(os.path.join(path, "compositor.pid")) as f:
            pid = int(f.read())
    except (FileNotFoundError, ValueError):
        return None
    return pid if alive(pid) else None


def stop(path, timeout=20):
    """Ends the compositor whose runtime folder is path, waits until no process of it is left,
    and removes its socket; nothing to do if none runs there."""
    path = runtime_dir(path)
    pid_file = os.path.join(path, "compositor.pid")
    pid = running(path)
    if pid is not None:
        # The process is tools/trixie-root's unshare: its SIGKILL ends the whole PID namespace.
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass  # started by another process (compositor start): init reaps it
    wait_for(lambda: not (pid is not None and alive(pid)) and not leftovers(path), timeout,
             f"the processes of {path} to end (left: {describe(leftovers(path))})")
    for name in sockets(path):
        for stale in (name, name + ".lock"):
            try:
                os.unlink(os.path.join(path, stale))
            except FileNotFoundError:
                pass
    # sway's IPC socket (sway-ipc.UID.PID.sock), which a killed sway leaves.
    for stale in [pid_file] + [os.path.join(path, n) for n in os.listdir(path) if n.startswith("sway-ipc.")]:
        try:
            os.unlink(stale)
        except FileNotFoundError:
            pass
