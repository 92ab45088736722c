"""Reduce a failing session: the smallest cut just after body B in which B still fails the same way.

"The same way" (`Failure`): run at B as `wsi run FILE BODY --at B` runs it, B fails with the same
error name and message; or, when that run succeeds but differs from B's record (as `wsi replay`
compares them), the difference has the same kind and message. `Reducer` finds which, then shrinks
`wsi_inspector.core.reduce.repro.cut_after(session, B)` with `wsi_inspector.core.reduce.ddmin` in three phases:

1. the entries after B that are not B's own calls (they count only for their recorded outputs);
2. the store entries and kept values B received, together;
3. the scene's entities and mocks, and the session's modules.

Earlier bodies reach B only through what they kept, so phase 2 is also the reduction over earlier
bodies (the reduced file carries the needed values in one body, see wsi_inspector.core.reduce.repro). Phase 2 uses what
B read in its failing run (SPEC 7 reads): the entries and kept values it never read are removed
first, all in one run, before ddmin looks at the rest one chunk at a time.

Candidates of a step run at the same time on a pool of warm guests; the first reproducing one in
ddmin's order wins, so the same input gives the same output file. Runs are deterministic (fixed
random and time). A candidate whose run takes much longer than B's own first run is stopped: its
timeout is ten times that run plus a second (at least 2 s, at most the timeout asked for), unless
the failure is itself a timeout.
"""
from __future__ import annotations

import dataclasses
import os
import re
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal

from wsi_inspector.core.reduce.ddmin import Stopped, ddmin, reproduces_alone as ddmin_start
from wsi_inspector.core.session.model import Id
from wsi_inspector.core.reduce.repro import Cut, cut_after, cut_session, write_cut
from wsi_inspector.core.runner.envelope import EnvelopeError, build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.replay import first_difference
from wsi_inspector.core.runner.result import RunResult, failure
from wsi_inspector.core.session.load import LoadError, Session, load

PHASES = ("later entries", "entries and kept values", "scene and modules")
MAX_JOBS = 4


@dataclass(frozen=True)
class Failure:
    """How B fails: an error (`name`, `message`) or a difference from its record (`name` is its kind).

    Two failures are the same when their kind, name and message are, with what differs on every run
    left out of the message (`stable_text`): a handle's unguessable part is new each run, so a message
    naming a handle would never "fail the same way" and nothing would reduce.
    """

    kind: Literal["error", "difference"]
    name: str
    message: str = field(compare=False)
    signature: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "signature", stable_text(self.message))

    def text(self) -> str:
        """In words, for a progress line or a report."""
        if self.kind == "error":
            return f"{self.name}: {self.message}"
        return f"differs from its record ({self.name}): {self.message}"


# A scene handle as the runner mints it (core/runner/prelude.js, scene.get): `h<n>.<secret of this run>`.
_HANDLE = re.compile(r"\b(h\d+)\.[0-9A-Za-z_-]{8,}")


def stable_text(message: str) -> str:
    """`message` with what changes on every run replaced by a placeholder: a handle's secret (`h1.…`)."""
    return _HANDLE.sub(r"\1.…", message)


class NoFailure(Exception):
    """B neither fails nor differs from its record: there is nothing to reduce."""


@dataclass(frozen=True)
class Progress:
    """Where a reduction is: the phase, runs made, and how much of the cut is left."""

    phase: str
    runs: int
    entries: int
    kept: int
    seconds: float
    of_entries: int  # how many B was handed
    of_kept: int


@dataclass
class Reduction:
    """The outcome: the reduced cut, the failure it keeps, sizes before and after, runs made."""

    cut: Cut
    failure: Failure
    before: dict[str, int]
    runs: int
    seconds: float
    stopped: bool = False

    @property
    def after(self) -> dict[str, int]:
        return {"entries": len(self.cut.received), "kept": len(self.cut.kept)}


def failure_of(session: Session, cut: Cut, result: RunResult, mode: str) -> Failure | None:
    """The failure a run shows: its error (mode "error"), or its first difference from B's record."""
    if mode == "error":
        error = result.get("error")
        return None if result["ok"] or not error else Failure("error", str(error["name"]), str(error["message"]))
    body = session.body(cut.body.id)
    difference = first_difference(session, body, result) if body is not None else None
    return None if difference is None else Failure("difference", str(difference["kind"]), str(difference["message"]))


def run_envelope(session: Session, cut: Cut, mode: str, timeout_s: float) -> Any:
    """The envelope that runs B's code at B: as `wsi run` does (mode "error"), or as `wsi replay` does."""
    body_id = cut.body.id if mode == "difference" else None
    return build_envelope(session, cut.code, cut.lang, at=cut.body.id,
                          options={"timeout_s": timeout_s, "deterministic": True}, body_id=body_id)


class Reducer:
    """Reduces one body's failure; `reduce()` blocks (run it off a GUI thread), `stop()` may come from any thread."""

    def __init__(self, session: Session, body_id: Id, code: str | None = None, lang: str | None = None,
                 timeout_s: float = 10.0, jobs: int | None = None,
                 on_progress: Callable[[Progress], None] | None = None, runner: Runner | None = None):
        self.session = session
        self.start = cut_after(session, body_id, code, lang, later=True)  # KeyError: no such body
        self.timeout_s = timeout_s
        self.jobs = max(1, min(jobs or os.cpu_count() or 1, MAX_JOBS))
        self.on_progress = on_progress
        self._runner = runner
        self._own_runner = runner is None
        self.runs = 0
        self.started = time.monotonic()
        self.mode = "error"
        self.failure: Failure | None = None
        self.candidate_timeout_s = timeout_s
        self._stop = False
        self._pending: list[Future] = []
        self._cache: dict[Any, bool] = {}
        self.best = self.start
        self.phase = PHASES[0]
        self.reads: list[dict[str, Any]] | None = None  # what B read in the run that found its failure

    @property
    def runner(self) -> Runner:
        if self._runner is None:
            self._runner = Runner(size=self.jobs)
        return self._runner

    def stop(self) -> None:
        """Stop soon: runs in flight are killed and `reduce()` returns the best cut so far."""
        self._stop = True
        runner = self._runner  # no runner yet: nothing runs, and none is started just to stop it
        if runner is None:
            return
        for future in list(self._pending):
            runner.stop(future)

    def close(self) -> None:
        """End the guests this reducer started."""
        if self._own_runner and self._runner is not None:
            self._runner.close()

    # --- the failure to keep --------------------------------------------------------------------
    def _run(self, session: Session, cut: Cut, mode: str, timeout_s: float) -> RunResult:
        try:
            envelope = run_envelope(session, cut, mode, timeout_s)
        except EnvelopeError as exc:
            return failure("EnvelopeError", str(exc))
        future = self.runner.submit(envelope)
        self._pending.append(future)
        try:
            return self._wait([future])[0]
        finally:
            self._pending.remove(future)

    def find_failure(self) -> Failure:
        """How B fails in the session itself (NoFailure when it neither fails nor differs)."""
        whole = dataclasses.replace(self.start, later=(), own=())  # only for the code and the body
        result = self._run(self.session, whole, "error", self.timeout_s)
        found = failure_of(self.session, whole, result, "error")
        if found is None:
            result = self._run(self.session, whole, "difference", self.timeout_s)
            found = failure_of(self.session, whole, result, "difference")
            self.mode = "difference"
        if found is None:
            raise NoFailure(f"body {self.start.body.key} runs without an error and as recorded at its own point; "
                            "there is no failure to reduce")
        # Reads past the bound are not all known: then nothing counts as unread.
        self.reads = None if result.get("readsCut") else result.get("reads")
        if found.name != "TimeoutError":
            self.candidate_timeout_s = min(self.timeout_s, max(2.0, result["durationMs"] / 100 + 1.0))
        self.failure = found
        return found

    def reproduces(self, cut: Cut) -> bool:
        """True when B fails the same way in `cut` (one run)."""
        session = cut_session(cut)
        result = self._run(session, cut, self.mode, self.candidate_timeout_s)
        return failure_of(session, cut, result, self.mode) == self.failure

    def write(self, reduction: Reduction, out: str | Path, inputs: Iterable[str | Path] = ()) -> bool:
        """Write the reduced cut to `out` (OSError when it cannot; never onto `inputs` or the session's file),
        load it again and say whether it reproduces."""
        given = [*inputs, *([self.session.path] if self.session.path is not None else [])]
        write_cut(reduction.cut, out, given)
        try:
            written = load(out)
        except LoadError:
            return False
        return self.verify(written)

    def verify(self, written: Session) -> bool:
        """True when B, with the code reduced, fails the same way in `written` (the reduced file, loaded again).

        It runs even after a stop (the stop ended the reduction, this is the check of what it wrote).
        """
        self._stop = False
        if written.errors or written.body(self.start.body.id) is None or self.failure is None:
            return False
        cut = cut_after(written, self.start.body.id, self.start.code, self.start.lang)
        try:
            result = self._run(written, cut, self.mode, self.timeout_s)
        except Stopped:
            return False
        return failure_of(written, cut, result, self.mode) == self.failure

    # --- the reduction ----------------------------------------------------------------------------
    def reduce(self) -> Reduction:
        """Find the failure, then shrink the cut phase by phase; a stop returns the best cut so far."""
        # The file's own counts (as docs/cli.md shows): every entry, B's own calls and any after B too.
        before = {"entries": len(self.start.source.entries), "kept": len(self.start.kept)}
        if self.failure is None:
            self.find_failure()
        assert self.failure is not None
        stopped = False
        try:
            for phase, fields in zip(PHASES, (("later",), ("received", "kept"), ("entities", "mocks", "modules"))):
                self.phase = phase
                self.best = self._reduce_phase(self.best, fields)
        except Stopped:
            stopped = True
        best = dataclasses.replace(self.best, reduced=True)
        self._report()
        return Reduction(best, self.failure, before, self.runs, time.monotonic() - self.started, stopped)

    def _reduce_phase(self, cut: Cut, fields: tuple[str, ...]) -> Cut:
        items = [(name, value) for name in fields for value in getattr(cut, name)]

        def build(chosen: list[int]) -> Cut:
            parts: dict[str, list[Any]] = {name: [] for name in fields}
            for index in chosen:
                name, value = items[index]
                parts[name].append(value)
            cut_fields: dict[str, Any] = {name: tuple(values) for name, values in parts.items()}  # Cut's tuple fields, by name
            return dataclasses.replace(cut, **cut_fields)

        def first_passing(candidates: list[list[int]]) -> int | None:
            for start in range(0, len(candidates), self.jobs):
                batch = candidates[start:start + self.jobs]
                verdicts = self._judge([(fields, tuple(c)) for c in batch], [build(c) for c in batch])
                for offset, ok in enumerate(verdicts):
                    if ok:
                        self.best = build(batch[offset])
                        self._report()
                        return start + offset
                self._report()
            return None

        try:
            everything = list(range(len(items)))
            read = self._read_items(items) if self.reads is not None and "received" in fields else everything
            if len(read) < len(items):
                # The unread ones all go at once; should B then fail otherwise, ddmin tries them as usual.
                start = read if ddmin_start(read, everything, first_passing, lambda: self._stop) else everything
            else:
                start = everything
            chosen = ddmin(start, first_passing, lambda: self._stop)
        except Stopped as stopped:
            self.best = build(stopped.best)
            raise
        return build(chosen)

    def _read_items(self, items: list[tuple[str, Any]]) -> list[int]:
        """The places of the items B read in its failing run: received entries and kept values it read, and
        every other item (one look-up each, not a walk of the reads per item)."""
        reads = self.reads or []
        entries = {str(r["entry"]) for r in reads if r.get("entry") is not None}
        kept = {r.get("name") for r in reads if r.get("what") == "kept"}
        return [index for index, (name, value) in enumerate(items)
                if (name == "received" and str(value.id) in entries) or (name == "kept" and value in kept)
                or name not in ("received", "kept")]

    def _judge(self, keys: list[Any], cuts: list[Cut]) -> list[bool]:
        """Whether each cut reproduces, running the ones not seen yet at the same time."""
        fresh = [(key, cut) for key, cut in zip(keys, cuts) if key not in self._cache]
        futures, sessions = [], []
        for _key, cut in fresh:
            session = cut_session(cut)
            sessions.append(session)
            try:
                envelope = run_envelope(session, cut, self.mode, self.candidate_timeout_s)
            except EnvelopeError as exc:
                future: Future = Future()
                future.set_result(failure("EnvelopeError", str(exc)))
            else:
                future = self.runner.submit(envelope)
            futures.append(future)
        self._pending.extend(futures)
        try:
            results = self._wait(futures)
        finally:
            for future in futures:
                self._pending.remove(future)
        for (key, cut), session, result in zip(fresh, sessions, results):
            self._cache[key] = failure_of(session, cut, result, self.mode) == self.failure
        return [self._cache[key] for key in keys]

    def _wait(self, futures: list[Future]) -> list[RunResult]:
        waiting = set(futures)
        while waiting:
            if self._stop:
                for future in waiting:
                    self.runner.stop(future)
                raise Stopped([])
            done, waiting = wait(waiting, timeout=0.1, return_when=FIRST_COMPLETED)
            self.runs += len(done)
        return [f.result() for f in futures]

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(self.phase, self.runs, len(self.best.received), len(self.best.kept),
                                      time.monotonic() - self.started, len(self.start.received), len(self.start.kept)))
