"""Finding the tones in a WAV file: what the PC speaker played, when, at which pitch.

Python's standard library only (no numpy). The PC speaker is the PIT's square wave, so a
tone is a run of rising edges a steady period apart; silence has none. Each run is split
where the period jumps (two notes played back to back), and every piece becomes a Tone
with its start, length and mean frequency.

    python3 tests/vm/tones.py FILE.wav      prints the tones it finds
"""
import struct
import sys
from collections import namedtuple

Tone = namedtuple("Tone", "start length hz")


def read_wav(path):
    """(sample rate, samples of the first channel as signed ints). The RIFF sizes are not
    trusted: a WAV whose writer was killed still has its data up to the end of the file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path} is not a WAV file")
    pos, rate, channels, bits, samples = 12, None, None, None, None
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:]
        if kind == b"fmt ":
            _, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
        elif kind == b"data":
            frame = channels * bits // 8
            raw = body[:len(body) - len(body) % frame]
            if bits == 16:
                values = struct.unpack(f"<{len(raw) // 2}h", raw)
            elif bits == 8:
                values = [b - 128 for b in raw]
            else:
                raise ValueError(f"{bits}-bit WAV not supported")
            samples = values[::channels]
            break
        pos += 8 + size + (size & 1)
    if rate is None or samples is None:
        raise ValueError(f"{path}: no fmt or data chunk")
    return rate, samples


def rising_edges(samples, threshold):
    """Sample indices where the signal crosses from below -threshold to above +threshold."""
    edges, low = [], False
    for i, v in enumerate(samples):
        if v < -threshold:
            low = True
        elif v > threshold and low:
            edges.append(i)
            low = False
    return edges


def find_tones(rate, samples, lowest_hz=40, jump=0.12, fewest_periods=3):
    """The tones, in order: runs of rising edges less than 1/lowest_hz apart, split where a
    period differs from its piece's first ones by more than `jump`."""
    peak = max((abs(v) for v in samples), default=0)
    if peak == 0:
        return []
    edges = rising_edges(samples, peak / 4)
    longest = rate / lowest_hz
    pieces, current = [], []
    for a, b in zip(edges, edges[1:]):
        period = b - a
        if period > longest:
            pieces.append(current)
            current = []
            continue
        if current:
            reference = sorted(p for _, p in current[:8])[len(current[:8]) // 2]
            if abs(period - reference) > jump * reference:
                pieces.append(current)
                current = []
        current.append((a, period))
    pieces.append(current)
    tones = []
    for piece in pieces:
        if len(piece) < fewest_periods:
            continue
        first, last_start, last_period = piece[0][0], piece[-1][0], piece[-1][1]
        span = last_start + last_period - first
        tones.append(Tone(start=first / rate, length=span / rate, hz=len(piece) * rate / span))
    return tones


if __name__ == "__main__":
    rate, samples = read_wav(sys.argv[1])
    print(f"{sys.argv[1]}: {rate} Hz, {len(samples) / rate:.2f} s")
    for tone in find_tones(rate, samples):
        print(f"  {tone.start:8.3f} s  {tone.length * 1000:7.1f} ms  {tone.hz:7.1f} Hz")
