"""Which calls make the GUI thread's long stalls: a watchdog thread samples its stack while it stalls.

`StallProfiler(threshold_s)` is fed a heartbeat from a GUI-thread timer (`beat()`); while no beat
has come for `threshold_s`, a daemon thread samples the GUI thread's Python stack every 2 ms. Each
stall keeps its length, how much of it the GUI thread (and the whole process) spent on the CPU
(the rest is waiting: for the interpreter's lock, or for a core on a shared machine), its phase
and the frames seen most; `report()` lists the longest stalls with
their innermost frames of our own code (gui/, core/) and the outermost library frame they called.
A stall inside Qt's C++ with no Python on the stack shows as the Python frame that called into Qt.
With `by_turn=True` each turn of the event loop (beat to beat) also runs under cProfile, and
`turn_report()` lists the turns in which the GUI thread computed longest with their costliest calls.
"""
from __future__ import annotations

import collections
import cProfile
import pstats
import sys
import threading
import time
from pathlib import Path
from types import FrameType

ROOT = str(Path(__file__).resolve().parents[2])
SAMPLE_S = 0.002
IDLE = ("threading.py", "connection.py", "selectors.py", "queues.py", "stall_profile.py")


def _short(filename: str) -> str:
    name = filename.replace(ROOT + "/", "")
    return name.split("site-packages/", 1)[1] if "site-packages/" in name else name


def _where(frame: FrameType) -> str:
    return f"{_short(frame.f_code.co_filename)}:{frame.f_lineno} {frame.f_code.co_name}"


def _stack(frame: FrameType | None, depth: int = 40) -> tuple[str, ...]:
    frames = []
    while frame is not None and len(frames) < depth:
        frames.append(_where(frame))
        frame = frame.f_back
    return tuple(frames)  # innermost first


class StallProfiler:
    """Samples the GUI thread's stack while its heartbeat is late; keeps every stall over the threshold."""

    def __init__(self, threshold_s: float = 0.03, by_turn: bool = False):
        self.threshold_s = threshold_s
        self.turns: list[tuple[float, str, list[tuple[float, str]]]] | None = [] if by_turn else None
        self._profile: cProfile.Profile | None = None
        self._turn_cpu = 0.0
        self.main_id = threading.get_ident()
        self.last = time.perf_counter()
        self._cpu, self._process = time.thread_time(), time.process_time()
        self.phase = "load"
        self.stalls: list[tuple[float, str, collections.Counter[tuple[str, ...]], collections.Counter[tuple[str, ...]], float, float]] = []
        self._samples: collections.Counter[tuple[str, ...]] = collections.Counter()
        self._others: collections.Counter[tuple[str, ...]] = collections.Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="stall-profiler")
        self._thread.start()

    def beat(self) -> None:
        """Called by a GUI-thread timer: ends the current stall (if any) and records it."""
        if self.turns is not None:
            self._profile_turn()
        now, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        gap, self.last = now - self.last, now
        cpu_used, process_used = cpu - self._cpu, process - self._process
        self._cpu, self._process = cpu, process
        samples, self._samples = self._samples, collections.Counter()
        others, self._others = self._others, collections.Counter()
        if gap >= self.threshold_s:
            self.stalls.append((gap, self.phase, samples, others, cpu_used, process_used))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1)
        if self._profile is not None:
            self._profile.disable()

    # --- cProfile per turn (by_turn=True): what the GUI thread computed in its longest turns ---------
    def _profile_turn(self) -> None:
        if self._profile is not None:
            self._profile.disable()
            cpu = time.thread_time() - self._turn_cpu
            if cpu >= self.threshold_s:
                stats = pstats.Stats(self._profile)
                rows = sorted(((v[3], func) for func, v in stats.stats.items()), reverse=True)  # type: ignore[attr-defined]
                self.turns.append((cpu, self.phase, [(t, f"{_short(f[0])}:{f[1]} {f[2]}") for t, f in rows[:14]]))
        self._turn_cpu = time.thread_time()
        self._profile = cProfile.Profile()
        self._profile.enable()

    def turn_report(self, top: int = 6) -> str:
        """The turns of the event loop in which the GUI thread computed longest, and their costliest calls (cumulative)."""
        lines = []
        for cpu, phase, rows in sorted(self.turns or [], key=lambda t: -t[0])[:top]:
            lines.append(f"turn: GUI thread CPU {cpu * 1000:.0f} ms ({phase}, profiled: slower than unprofiled)")
            lines += [f"    {t * 1000:7.1f} ms  {name}" for t, name in rows]
        return "\n".join(lines)

    def _watch(self) -> None:
        while not self._stop.is_set():
            time.sleep(SAMPLE_S)
            if time.perf_counter() - self.last < self.threshold_s / 2:
                continue
            frames = sys._current_frames()
            frame = frames.get(self.main_id)
            if frame is not None:
                self._samples[_stack(frame)] += 1
            for ident, other in frames.items():  # a job thread running Python holds the lock the GUI needs
                if ident not in (self.main_id, threading.get_ident()):
                    stack = _stack(other)
                    if not any(idle in stack[0] for idle in IDLE):
                        self._others[stack[:1] + tuple(f for f in stack if f.startswith(("gui/", "core/")))[:2]] += 1

    def report(self, top: int = 12) -> str:
        """The longest stalls, each with the stacks sampled most during it (innermost frames first)."""
        lines = []
        for gap, phase, samples, others, cpu, process in sorted(self.stalls, key=lambda s: -s[0])[:top]:
            lines.append(f"{gap * 1000:6.0f} ms  {phase}  GUI thread CPU {cpu * 1000:.0f} ms, all threads {process * 1000:.0f} ms "
                         f"({sum(samples.values())} samples)")
            for stack, count in samples.most_common(3):
                ours = [f for f in stack if f.startswith(("gui/", "core/"))][:4]
                inner = stack[:2]
                lines.append(f"    {count:4d}× {' ← '.join(inner)}")
                if ours:
                    lines.append(f"          ours: {' ← '.join(ours)}")
            for stack, count in others.most_common(2):
                lines.append(f"    other thread {count:4d}× {' ← '.join(stack)}")
        return "\n".join(lines)
