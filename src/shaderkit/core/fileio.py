"""Files in and out: atomic output (a file is either written completely or not touched at all)
and one way to read an input file, with one wording for its failures."""

from __future__ import annotations

import contextlib
import contextvars
import os
import secrets
import signal
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .diagnostics import InputError


# Temporary files are named after their target and the writing process, so a later run can
# tell a stale one (its process is gone: killed with SIGKILL, or the machine went down) from
# one another run is still writing, and remove it.
_TEMPORARY_MARK = ".shaderkit-"
# Temporary files being written right now, removed by the signal handlers of
# :func:`remove_temporaries_on_signals` even if the interrupted code never reaches its cleanup.
_LIVE_TEMPORARIES: set[Path] = set()
_replace_read_only = contextvars.ContextVar("replace_read_only", default=False)


@contextlib.contextmanager
def replacing_read_only_files(allowed: bool) -> Iterator[None]:
    """Within this block, outputs may replace read-only files (the CLI's ``--force``)."""
    token = _replace_read_only.set(allowed)
    try:
        yield
    finally:
        _replace_read_only.reset(token)


def output_target(path: str | os.PathLike) -> tuple[Path, bool]:
    """Where writing ``path`` really goes, and whether it is a special file.

    A symlink is followed to the file it names (so the link stays a link); a character
    device, FIFO or socket (``/dev/null``, ``/dev/stdout``, a pipe) is written in place, never
    replaced; a directory, an empty name or a read-only file (unless
    :func:`replacing_read_only_files`) is refused with :class:`InputError`.
    """
    if os.fspath(path) == "":
        raise InputError("no output path: -o was given an empty name")
    target = Path(os.path.realpath(path))
    try:
        status = target.stat()
    except FileNotFoundError:
        return target, False
    except OSError as error:
        raise InputError(f"{os.fspath(path)}: cannot write ({error.strerror or error})") from None
    if stat.S_ISDIR(status.st_mode):
        raise InputError(f"{os.fspath(path)}: is a directory, not a file")
    if not stat.S_ISREG(status.st_mode):
        return target, True
    if not status.st_mode & 0o222 and not _replace_read_only.get():
        raise InputError(f"{os.fspath(path)}: the file is read-only (give --force to replace it)")
    return target, False


def check_writable(path: str | os.PathLike) -> None:
    """Refuse, before any work starts, an output that :func:`atomic_path` could not write.

    A long render should not end in "cannot write": the target must be writable as
    :func:`output_target` says and, unless it is a special file, its folder must exist and
    accept new files (where the temporary goes).
    """
    target, special = output_target(path)
    if special:
        return
    folder = target.parent
    if not folder.is_dir():
        raise InputError(f"{os.fspath(path)}: cannot write (no such folder: {folder})")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{os.fspath(path)}: cannot write (Permission denied)")


def _temporary_name(target: Path) -> str:
    return f".{target.name}{_TEMPORARY_MARK}{os.getpid()}-"


def _remove_stale_temporaries(target: Path) -> None:
    """Delete temporaries for ``target`` left by processes that no longer run."""
    prefix = f".{target.name}{_TEMPORARY_MARK}"
    try:
        candidates = [entry for entry in target.parent.iterdir() if entry.name.startswith(prefix)]
    except OSError:
        return
    for candidate in candidates:
        pid = candidate.name[len(prefix):].split("-", 1)[0]
        if pid.isdecimal() and not _process_exists(int(pid)):
            with contextlib.suppress(OSError):
                candidate.unlink()


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but belongs to someone else
        return True
    return True


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path to write; on success it becomes ``path``, on failure it vanishes.

    A regular target (or a new one) is replaced by renaming the temporary file over it, so
    it is either complete or untouched; an existing file keeps its permission bits. A
    special target (see :func:`output_target`) receives the finished bytes directly. The
    temporary file keeps the target's suffix so libraries that pick a format from the file
    name (Pillow, imageio) still see it.
    """
    target, special = output_target(path)
    directory = Path(tempfile.gettempdir()) if special else target.parent
    if not special:
        _remove_stale_temporaries(target)
    try:
        temporary_path = _create_listed_temporary(target, directory)
    except OSError as error:
        raise InputError(f"{os.fspath(path)}: cannot write ({error.strerror or error})") from None
    try:
        os.chmod(temporary_path, _mode_for(target))
        yield temporary_path
        if special:
            with open(target, "wb") as device:
                device.write(temporary_path.read_bytes())
        else:
            os.replace(temporary_path, target)
    finally:
        _LIVE_TEMPORARIES.discard(temporary_path)
        with contextlib.suppress(FileNotFoundError):
            temporary_path.unlink()


def _mode_for(target: Path) -> int:
    """The mode a finished output gets: the replaced file's, else the usual umask-based one
    (mkstemp makes files private)."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(target.stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _create_listed_temporary(target: Path, directory: Path) -> Path:
    """A new, empty temporary file for ``target`` in ``directory``, listed as live *before* it
    is created: a signal at any moment finds every temporary that exists already listed (one
    arriving between creating and listing the file would leave it behind)."""
    for _ in range(100):
        path = directory / f"{_temporary_name(target)}{secrets.token_hex(4)}{target.suffix}"
        _LIVE_TEMPORARIES.add(path)
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            return path
        except FileExistsError:
            _LIVE_TEMPORARIES.discard(path)
        except BaseException:
            _LIVE_TEMPORARIES.discard(path)
            raise
    raise FileExistsError(f"no free temporary name beside {target}")


def remove_live_temporaries() -> None:
    """Delete every temporary file being written right now (what the signal handlers do first)."""
    for temporary in list(_LIVE_TEMPORARIES):
        with contextlib.suppress(OSError):
            temporary.unlink()


def remove_temporaries_on_signals(signals=(signal.SIGTERM, signal.SIGHUP)) -> None:
    """Make SIGTERM and SIGHUP end the process as Ctrl-C does: no temporary file left behind.

    The handler removes every temporary being written, then raises SystemExit so the
    ``finally`` blocks run too; the exit status is the shell's 128 + signal number.
    """
    def handle(number, frame):
        remove_live_temporaries()
        raise SystemExit(128 + number)
    for number in signals:
        signal.signal(number, handle)


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    with atomic_path(path) as temporary:
        temporary.write_bytes(data)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


# The largest input file read: far above any program, scene, mesh or texture in use, far below
# what would exhaust memory.
MAX_INPUT_BYTES = 256 * 1024 * 1024


def read_file_bytes(path: str | os.PathLike, *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of an input file; every failure is one :class:`InputError` in the project's wording.

    The wording is the same for programs, scenes, meshes and textures: ``PATH: no such file``,
    ``PATH: is a directory, not a file`` or ``PATH: cannot read (reason)``. Only regular files
    are read: a device (``/dev/zero``, ``/dev/urandom``) or a FIFO would never end or would
    block, so it is refused; so is a file larger than ``limit`` bytes.
    """
    name = os.fspath(path)
    if "\0" in name:
        raise InputError(f"{name!r}: a file name cannot contain a NUL character")
    try:
        status = os.stat(path)
        if stat.S_ISDIR(status.st_mode):
            raise InputError(f"{name}: is a directory, not a file")
        if not stat.S_ISREG(status.st_mode):
            raise InputError(f"{name}: not a regular file (devices and pipes are not read; use - for standard input)")
        if status.st_size > limit:
            raise InputError(f"{name}: {status.st_size:,} bytes is more than the {limit:,} bytes an input may have")
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except OSError as error:
        raise InputError(f"{name}: cannot read ({error.strerror or error})") from None
    if len(data) > limit:  # the file grew while it was read
        raise InputError(f"{name}: more than the {limit:,} bytes an input may have")
    return data
