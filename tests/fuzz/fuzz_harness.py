"""The fuzz campaign's harness: run one command line through the real CLI entry point in this
process, under a wall-time and a memory limit, and classify what happened.

Outcomes (issue 10):

* ``result`` — exit code 0 (and every output it was asked for exists and is complete);
* ``clean error`` — exit code 2 with exactly one error line on stderr (after any one-line
  ``…: warning: …`` or ``…: note: …`` lines the command printed before it failed), or only
  ``file:line:col: severity: message`` blocks (message, source line, caret) with at least
  one error among them; no output file created, modified or left half-written;

and the failures, each a test failure:

* ``traceback`` — an exception escaped (CliRunner caught it) or stderr shows a traceback;
* ``bad exit`` — any exit code other than 0 and 2;
* ``messy error`` — exit code 2 but stderr is not one line (or diagnostic blocks);
* ``stray warning`` — a Python warning (NumPy ``RuntimeWarning`` …) escaped the command;
* ``hang`` — the case ran past its wall-time limit;
* ``memory`` — the process grew past the memory limit during the case (or ran out of it);
* ``clobbered output`` — a failing run created or changed a file it was pointed at, or left
  a temporary file behind;
* ``partial output`` — a successful run left a missing, empty or unreadable output file.

Tallies by (processor, command, input kind, outcome) are kept per process; the conftest
beside this module merges them over xdist workers and prints them at the end of the session.
"""

from __future__ import annotations

import collections
import contextlib
import io
import os
import re
import resource
import signal
import stat
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main

GOOD_OUTCOMES = ("result", "clean error")
BAD_OUTCOMES = ("traceback", "bad exit", "messy error", "stray warning", "hang", "memory",
                "clobbered output", "partial output")
OUTCOMES = GOOD_OUTCOMES + BAD_OUTCOMES

WALL_TIME_LIMIT = 12.0  # seconds per case; ordinary cases take well under two
MEMORY_LIMIT = 1 << 30  # bytes of resident growth per case
# A hard cap on address space during a case, so a runaway allocation fails with MemoryError in
# this process instead of taking the machine down before the watchdog sees it.
ADDRESS_SPACE_HEADROOM = 4 << 30

# Failures found by the campaign and not yet fixed (issue 10): name -> what goes wrong. Each
# has a case in test_fuzz_issue_cases.py marked xfail(strict=True), and the random campaign
# leaves out just the combination that triggers it while it is listed here. When a fix lands,
# the strict mark fails: remove the entry, and the random campaign covers the case again.
KNOWN_FAILURES: dict[str, str] = {}

# How the random campaign recognises a listed failure it cannot simply leave out (the trigger is
# an ordinary-looking value deep in the input): such a case is tallied under its outcome but does
# not fail the test while its entry is in KNOWN_FAILURES.
KNOWN_SIGNATURES: dict = {}


def known_failure(case: "Case", verdict: "Verdict") -> str | None:
    """The KNOWN_FAILURES entry this bad outcome is, if any."""
    for name, matches in KNOWN_SIGNATURES.items():
        if name in KNOWN_FAILURES and matches(case, verdict):
            return name
    return None


# ``(processor, command, kind) -> Counter(outcome -> cases)``
TALLY: dict[tuple[str, str, str], collections.Counter] = collections.defaultdict(collections.Counter)

TEMPORARY_MARK = ".shaderkit-"
STDIN_FILE = "standard-input.bin"
DIAGNOSTIC_HEADER = re.compile(r"^.+:\d+:\d+: (error|warning|note): .+")
CARET_LINE = re.compile(r"^\s*\^~*\s*$")
PLAIN_WARNING = re.compile(r"^(?:\S.*?: )?(warning|note): ")


class CaseAborted(BaseException):
    """Raised in the main thread when a case passes its time or memory limit.

    A BaseException, so neither CliRunner nor the command's own ``except Exception`` keeps it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Case:
    """One command line and what it must not touch.

    ``guarded``: paths the command is pointed at (outputs), whose state beforehand a failing
    run must leave as it was. ``workspace``: the folder where no temporary may stay; if it
    holds ``standard-input.bin`` and ``stdin`` is not given, that is the command's stdin.
    """

    processor: str
    command: str
    kind: str
    args: list[str]
    guarded: list[Path] = field(default_factory=list)
    workspace: Path | None = None
    stdin: bytes | None = None

    def reproduction(self) -> str:
        return "shaderkit " + " ".join(_shell_quote(argument) for argument in self.args)


@dataclass
class Verdict:
    outcome: str
    detail: str
    exit_code: int | None
    stderr: str
    seconds: float
    stdout: str = ""


def _shell_quote(text: str) -> str:
    if text and re.fullmatch(r"[\w@%+=:,./-]+", text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


# --- state of the files a case may touch -------------------------------------------------

def _snapshot(path: Path):
    """What must stay the same at ``path`` when a command fails: kind, mode, content."""
    try:
        status = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(status.st_mode):
        return ("link", os.readlink(path), _snapshot_target(path))
    if stat.S_ISREG(status.st_mode):
        return ("file", stat.S_IMODE(status.st_mode), path.read_bytes())
    return ("other", stat.S_IFMT(status.st_mode), stat.S_IMODE(status.st_mode))


def _snapshot_target(link: Path):
    try:
        return link.read_bytes(), stat.S_IMODE(link.stat().st_mode)
    except OSError:
        return None


def _temporaries(folder: Path | None) -> list[str]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(entry.name for entry in folder.iterdir() if TEMPORARY_MARK in entry.name)


def _output_problem(path: Path, pictures: bool) -> str | None:
    """Why a file a successful run wrote is not a complete output (None: it is). ``pictures``:
    the command writes what the suffix says (``run``: .png, .gif, .npy); others write their
    bytes under any name."""
    try:
        if not path.exists():
            return f"{path.name} was not written"
        if not stat.S_ISREG(path.stat().st_mode):
            return None  # a device or pipe took the bytes
        data = path.read_bytes()
    except OSError as error:
        return f"{path.name}: {error}"
    if not data:
        return f"{path.name} is empty"
    suffix = path.suffix.lower() if pictures else ""
    try:
        if suffix in (".png", ".gif"):
            with Image.open(io.BytesIO(data)) as image:
                image.load()
        elif suffix == ".npy":
            np.load(io.BytesIO(data), allow_pickle=False)
    except Exception as error:  # noqa: BLE001 - any failure to read back means a broken file
        return f"{path.name} does not read back: {type(error).__name__}: {error}"
    return None


# --- limits ---------------------------------------------------------------------------------

def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def _virtual_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


class _Watchdog:
    """Interrupts the main thread (SIGALRM) when the case passes its wall time or memory."""

    def __init__(self, seconds: float, memory: int):
        self.deadline = time.monotonic() + seconds
        self.memory_ceiling = _resident_bytes() + memory
        self.reason: str | None = None
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.wait(0.02):
            resident = _resident_bytes()
            self.peak = max(self.peak, resident)
            if resident > self.memory_ceiling:
                self._fire(f"memory: resident size {resident / 2**20:.0f} MiB passed the limit")
            elif time.monotonic() > self.deadline:
                self._fire(f"hang: still running after {WALL_TIME_LIMIT:.0f} s")
            if self.reason:
                # Keep nudging: a signal that arrives inside C code is handled at the next
                # bytecode, and the first one may have been swallowed by a retry loop.
                self._stop.wait(0.5)

    def _fire(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
        signal.pthread_kill(threading.main_thread().ident, signal.SIGALRM)

    def __enter__(self):
        self._previous = signal.signal(signal.SIGALRM, self._raise)
        self._thread.start()
        return self

    def _raise(self, number, frame):
        if self.reason is not None:
            raise CaseAborted(self.reason)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        try:
            # A signal sent just as the command returned is handled here, by our handler.
            time.sleep(0.001)
        finally:
            signal.signal(signal.SIGALRM, self._previous)
        return False


class _AddressSpaceCap:
    def __enter__(self):
        self.previous = resource.getrlimit(resource.RLIMIT_AS)
        cap = _virtual_bytes() + ADDRESS_SPACE_HEADROOM
        if self.previous[1] != resource.RLIM_INFINITY:
            cap = min(cap, self.previous[1])
        resource.setrlimit(resource.RLIMIT_AS, (cap, self.previous[1]))
        return self

    def __exit__(self, *exc):
        resource.setrlimit(resource.RLIMIT_AS, self.previous)
        return False


# --- running and classifying ----------------------------------------------------------------

def _is_clean_error_text(stderr: str) -> bool:
    """One error line (after any one-line warnings or notes), or only diagnostic blocks
    (``file:line:col: severity: message``, the source line, a caret) with an error among them."""
    # Lines as a terminal shows them: str.splitlines() would also split at \x1c-\x1e, \x85 …
    lines = stderr.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or "Traceback" in stderr:
        return False
    index, diagnostic_errors, plain_errors = 0, 0, 0
    while index < len(lines):
        line = lines[index]
        header = DIAGNOSTIC_HEADER.match(line)
        if header:
            diagnostic_errors += header.group(1) == "error"
            index += 3 if index + 2 < len(lines) and CARET_LINE.match(lines[index + 2]) else 1
            continue
        if not PLAIN_WARNING.search(line):
            if index != len(lines) - 1:
                return False  # the error line must be the last one
            plain_errors += 1
        index += 1
    return (plain_errors == 1 and diagnostic_errors == 0) or (plain_errors == 0 and diagnostic_errors > 0)


def run_case(case: Case) -> Verdict:
    """Run ``case`` in this process, classify the outcome and add it to the tallies."""
    before = {path: _snapshot(path) for path in case.guarded}
    temporaries_before = _temporaries(case.workspace)
    runner = CliRunner()
    stdin = case.stdin
    if stdin is None and case.workspace is not None and (case.workspace / STDIN_FILE).is_file():
        stdin = (case.workspace / STDIN_FILE).read_bytes()
    started = time.monotonic()
    aborted: str | None = None
    result = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        try:
            # In the workspace, so a relative output path (a value like "-inf" taken as -o's
            # argument) lands there, not in the checkout.
            with (contextlib.chdir(case.workspace or os.getcwd()), _AddressSpaceCap(),
                  _Watchdog(WALL_TIME_LIMIT, MEMORY_LIMIT)):
                result = runner.invoke(main, case.args, input=stdin, catch_exceptions=True)
        except CaseAborted as error:
            aborted = error.reason
    seconds = time.monotonic() - started
    verdict = _classify(case, result, aborted, caught, before, temporaries_before, seconds)
    TALLY[(case.processor, case.command, case.kind)][verdict.outcome] += 1
    log = os.environ.get("SHADERKIT_FUZZ_LOG")
    if log:  # one line per case, for looking through a campaign
        first = (verdict.stderr.splitlines() or [""])[-1][:300]
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{verdict.outcome}\t{verdict.seconds:.2f}\t{case.reproduction()[:300]!r}\t{first!r}\n")
    return verdict


def _classify(case, result, aborted, caught, before, temporaries_before, seconds) -> Verdict:
    def verdict(outcome, detail=""):
        return Verdict(outcome, detail, None if result is None else result.exit_code,
                       "" if result is None else result.stderr, seconds,
                       "" if result is None else result.stdout_bytes.decode("utf-8", "replace"))

    if aborted:
        return verdict("hang" if aborted.startswith("hang") else "memory", aborted)
    exception = result.exception
    if isinstance(exception, MemoryError):
        return verdict("memory", "MemoryError")
    if exception is not None and not isinstance(exception, SystemExit):
        import traceback
        text = "".join(traceback.format_exception(type(exception), exception, exception.__traceback__))
        return verdict("traceback", text[-3000:])
    if "Traceback (most recent call last)" in result.stderr:
        return verdict("traceback", result.stderr[-3000:])
    stray = [w for w in caught if not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning))]
    if stray:
        first = stray[0]
        return verdict("stray warning", f"{first.category.__name__}: {first.message} ({first.filename}:{first.lineno})")
    left = sorted(set(_temporaries(case.workspace)) - set(temporaries_before))
    if left:
        return verdict("clobbered output", f"temporary files left behind: {left}")
    if result.exit_code == 0:
        for path in case.guarded:
            if _output_wanted(case, path):
                problem = _output_problem(path, pictures=case.command == "run")
                if problem:
                    return verdict("partial output", problem)
        return verdict("result")
    if result.exit_code != 2:
        return verdict("bad exit", f"exit code {result.exit_code}")
    for path, snapshot in before.items():
        if _snapshot(path) != snapshot:
            state = "created" if snapshot is None else "changed"
            return verdict("clobbered output", f"{path.name} {state} by a failing run")
    if not _is_clean_error_text(result.stderr):
        return verdict("messy error", f"stderr: {result.stderr[:2000]!r}")
    return verdict("clean error")


def _output_wanted(case: Case, path: Path) -> bool:
    """Whether ``path`` is the -o target of the case (other guarded paths are inputs); not with
    --help or --version, which print and write nothing."""
    arguments = case.args
    if any(flag in arguments for flag in ("--help", "-h", "--version")):
        return False
    return any(arguments[i] in ("-o", "--output") and arguments[i + 1] == str(path)
               for i in range(len(arguments) - 1))


def check(case: Case, *, tolerate_known: bool = True) -> Verdict:
    """Run a case and fail the test, with the command line, unless the outcome is good (or,
    with ``tolerate_known``, a listed known failure that KNOWN_SIGNATURES recognises)."""
    verdict = run_case(case)
    if verdict.outcome not in GOOD_OUTCOMES and not (tolerate_known and known_failure(case, verdict)):
        raise AssertionError(
            f"{verdict.outcome} ({case.processor} {case.command}, {case.kind}): {case.reproduction()}\n"
            f"{verdict.detail}\nexit code: {verdict.exit_code}\nstderr: {verdict.stderr[:2000]}")
    return verdict
