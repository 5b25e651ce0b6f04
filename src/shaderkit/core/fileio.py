"""Files in and out: atomic output (a file is either written completely or not touched at all)
and one way to read an input file, with one wording for its failures."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .diagnostics import InputError


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it over ``path`` only on success.

    The temporary file keeps the target's suffix so libraries that pick a format
    from the file name (Pillow, imageio) still see it.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=directory)
    os.close(fd)
    # mkstemp makes the file private; finished outputs get the usual umask-based mode.
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)
    temporary_path = Path(temporary)
    try:
        yield temporary_path
        os.replace(temporary_path, target)
    finally:
        if temporary_path.exists():
            temporary_path.unlink()


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    with atomic_path(path) as temporary:
        temporary.write_bytes(data)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def read_file_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of an input file; every failure is one :class:`InputError` in the project's wording.

    The wording is the same for programs, scenes, meshes and textures: ``PATH: no such file``,
    ``PATH: is a directory, not a file`` or ``PATH: cannot read (reason)``.
    """
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{os.fspath(path)}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{os.fspath(path)}: is a directory, not a file") from None
    except OSError as error:
        raise InputError(f"{os.fspath(path)}: cannot read ({error.strerror or error})") from None
