#!/usr/bin/env python3
"""Write tools/link-order.txt: the functions gridlockd runs up to its first frame, then
those a stroke adds, for the linker to place side by side (`make release` passes the file to
lld as --symbol-ordering-file).

Why: the kernel maps a program's code into memory 64 KiB at a time around each page it
touches, and the statically linked Swift runtime spreads what start-up needs over most of
the binary. Packed together, those functions take a few hundred KiB of resident memory
instead of megabytes (docs/performance.md has the figures).

Usage:
  tools/link-order.py [GRIDLOCKD]     GRIDLOCKD defaults to .build/release/gridlockd

Runs GRIDLOCKD --bench-startup on a headless config replaying
Tests/Fixtures/protocol-b-1-2-3-6-9.evemu, then the benchmark's stroke (`gridlock bench
--stroke-under`, with the gridlock beside GRIDLOCKD feeding its binary input events), both
under valgrind's callgrind (apt-get install valgrind), and keeps the names of the functions
that ran in GRIDLOCKD itself. Rerun it after changes
that move start-up work around, then `make release`. Names that no longer exist are
ignored by the linker, so a stale list costs memory, never correctness.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "tools", "link-order.txt")


def functions_run(binary, arguments, directory, stroke=False):
    """Names of the functions of `binary` that ran, in callgrind's order, mangled. With
    `stroke`, `binary` runs --bench-stroke as `gridlock bench` feeds it (`arguments` unused)."""
    out = os.path.join(directory, "callgrind.out")
    valgrind = [shutil.which("valgrind") or "valgrind", "--tool=callgrind", "--demangle=no", "--dump-instr=no",
                "--compress-strings=no", "--compress-pos=no", "--callgrind-out-file=" + out]
    if stroke:
        # gridlock bench starts the gridlockd beside it.
        command = [os.path.join(os.path.dirname(binary), "gridlock"), "bench", "--stroke-under", " ".join(valgrind)]
    else:
        command = valgrind + [binary] + arguments
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names, current_object = [], None
    with open(out) as profile:
        for line in profile:
            if line.startswith("ob="):
                current_object = line[3:].strip()
            elif line.startswith("fn=") and current_object == os.path.realpath(binary):
                name = line[3:].strip()
                # Unnamed code (callgrind prints an address) and valgrind's own labels.
                if not name.startswith("0x") and not name.startswith("(") and name not in names:
                    names.append(name)
    return names


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/gridlockd"))
    recording = os.path.join(ROOT, "Tests/Fixtures/protocol-b-1-2-3-6-9.evemu")
    with tempfile.TemporaryDirectory() as directory:
        config = os.path.join(directory, "gridlock.conf")
        with open(config, "w") as f:
            f.write(f"[display]\nbackend=png\noutput-dir={directory}/frames\nsize=1920x1080\n"
                    f"[touch]\nbackend=replay\ndevice={recording}\n"
                    f"[lockout]\nstate-file={directory}/attempts\n")
        startup = functions_run(binary, ["--config", config, "--bench-startup"], directory)
        stroke = functions_run(binary, [], directory, stroke=True)
    ordered = startup + [name for name in stroke if name not in set(startup)]
    with open(OUTPUT, "w") as f:
        f.write("".join(name + "\n" for name in ordered))
    print(f"{OUTPUT}: {len(startup)} start-up functions, then {len(ordered) - len(startup)} more for a stroke")


if __name__ == "__main__":
    main()
