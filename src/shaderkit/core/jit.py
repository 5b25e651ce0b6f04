"""Compiling hot loops with Numba, and where the compiled machine code is kept.

This module owns the one rule every ISA's compiled path follows: kernels are cached on disk
in a directory private to the user, or not at all. The directory is the first usable of

1. ``$SHADERKIT_CACHE_DIR``;
2. ``$XDG_CACHE_HOME/shaderkit``;
3. ``~/.cache/shaderkit``;

where usable means it can be created (mode 0700), belongs to the user and takes a file. When
none is usable (an installed package run by a user with a read-only home, say) kernels are
compiled in memory on each run: never cached in a shared temporary directory, where another
user could plant the pickled code a later run would load.

Inside it, each version of the package gets its own directory, named by a fingerprint of
the contents of the package's source files. Numba only checks the file a kernel is defined
in, so a change to a helper it calls in another module would otherwise leave a stale kernel
in the cache.

Generated code (a kernel written per program) is cached too: :func:`compile_source` writes
the source to a file named by its hash and compiles it from there, which is what Numba needs
to find the cache entry again in the next process.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numba
import numpy as np
from numba.core import cgutils, errors, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import PassManager
from numba.core.typed_passes import NopythonRewrites
from numba.core.untyped_passes import InlineClosureLikes
from numba.extending import intrinsic

__all__ = [
    "CACHE_ENVIRONMENT",
    "LeanPipeline",
    "Subroutine",
    "address_of",
    "cache_directory",
    "call_by_address",
    "cached",
    "call_compiling",
    "collector_paused",
    "compile_source",
    "first_call",
    "jit",
    "ready",
    "thread_counts",
    "ufunc",
]

CACHE_ENVIRONMENT = "SHADERKIT_CACHE_DIR"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
# Fingerprint directories of other package versions unused for this long are removed.
STALE_SECONDS = 14 * 24 * 3600


def _candidate_roots() -> list[Path]:
    roots = []
    if os.environ.get(CACHE_ENVIRONMENT):
        roots.append(Path(os.environ[CACHE_ENVIRONMENT]))
    if os.environ.get("XDG_CACHE_HOME"):
        roots.append(Path(os.environ["XDG_CACHE_HOME"]) / "shaderkit")
    with contextlib.suppress(RuntimeError, KeyError):
        roots.append(Path.home() / ".cache" / "shaderkit")
    return roots


def _usable(directory: Path) -> bool:
    """Whether ``directory`` exists or can be made, is the user's own, and takes a file."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if hasattr(os, "getuid") and directory.stat().st_uid != os.getuid():
            return False
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return False
    return True


def package_fingerprint() -> str:
    """A short hash of Numba's version and the names and contents of the package's modules.

    Contents, not modification times: a fresh checkout of the same code finds its kernels
    (hashing the 2 MB of sources takes about 20 ms, once per process).
    """
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        digest.update(f"{path.relative_to(PACKAGE_ROOT)}\n".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def _remove_stale_versions(root: Path, current: Path) -> None:
    now = time.time()
    for directory in root.glob("kernels-*"):
        with contextlib.suppress(OSError):
            if directory != current and now - directory.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(directory)


@functools.cache
def cache_directory() -> Path | None:
    """This package version's kernel cache directory, or None when no usable place exists."""
    for root in _candidate_roots():
        if not _usable(root):
            continue
        directory = root / f"kernels-{package_fingerprint()}"
        if not _usable(directory):
            continue
        os.utime(directory)  # marks this version as in use for _remove_stale_versions
        _remove_stale_versions(root, directory)
        numba.config.CACHE_DIR = str(directory / "numba")
        return directory
    return None


def jit(function: Callable | None = None, **options):
    """``numba.njit(function, **options)``, cached on disk when :func:`cache_directory` has a place.

    Usable bare (``@jit``) or with options (``@jit(fastmath=False)``).
    """
    def compile_one(target: Callable):
        return numba.njit(cache=cache_directory() is not None, **options)(target)

    return compile_one if function is None else compile_one(function)


class LeanPipeline(CompilerBase):
    """Numba's nopython pipeline less two passes that find nothing to do in kernels without
    closures or comprehensions (``InlineClosureLikes``) and without whole-array expressions,
    arrays of constants or string-literal indices (``NopythonRewrites``). Each still walks the
    function's IR on every compile: about 0.1–0.2 s of a big kernel's first call. Pass it as
    ``pipeline_class`` for code written in that plain style (THEIA's core, VP1's loop)."""

    def define_pipelines(self):
        full = DefaultPassBuilder.define_nopython_pipeline(self.state)
        lean = PassManager(full.pipeline_name)
        for pass_class, description in full.passes:
            if pass_class not in (InlineClosureLikes, NopythonRewrites):
                lean.add_pass(pass_class, description)
        lean.finalize()
        return [lean]


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off, then on again and run once over what came since.

    For a kernel's first call in a process, which compiles it (or loads it): compiling makes
    some hundred thousand objects that live until the compile ends, and the collector would
    walk them over and over while they are made (about a tenth of a first compile).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
            gc.collect(0)


def call_compiling(dispatcher, *arguments):
    """``dispatcher(*arguments)``; its first call in the process, which compiles it (or loads
    it), with the garbage collector paused (:func:`collector_paused`)."""
    if dispatcher.signatures:
        return dispatcher(*arguments)
    with collector_paused():
        return dispatcher(*arguments)


class Subroutine:
    """``function`` compiled once on its own and called by address, neither inlined nor linked in:
    for a function whose every call does so much work (a whole instruction on a group of lanes,
    say) that the call costs nothing.

    A kernel calling a compiled function directly gets that function's code linked into its own
    module, where LLVM optimises and generates it all over again: for THEIA's ``run_alu``
    called from its ``run_call`` that took about a second of the first compile. Called by address
    instead, the callee is compiled once; the kernel takes the address as an argument
    (:meth:`address`, from Python) and calls it with :attr:`call` — ``call(address, arguments)``,
    ``arguments`` a tuple of ``argument_types`` (Numba types, checked when the kernel is typed).
    The address is not compiled into the kernel, so the kernel stays cacheable on disk.
    """

    def __init__(self, function: Callable, argument_types: tuple, **options):
        # Only compiled code calls it: no wrappers for calls from Python or C.
        self.dispatcher = jit(function, no_cpython_wrapper=True, no_cfunc_wrapper=True, **options)
        self.argument_types = tuple(argument_types)
        self.call = call_by_address(function.__name__, self.argument_types)
        self._address: int | None = None

    def address(self) -> np.int64:
        """The compiled function's entry point; compiles it, or loads it from the disk cache, on
        the first use in a process."""
        if self._address is None:
            self._address = address_of(self.dispatcher, self.argument_types)
        return np.int64(self._address)


def address_of(dispatcher, argument_types: tuple) -> int:
    """The entry point (Numba's calling convention) of ``dispatcher`` compiled for
    ``argument_types`` (compiled, or loaded from the cache, now if it is not yet), for
    :func:`call_by_address`."""
    dispatcher.compile(tuple(argument_types))
    result = dispatcher.overloads[tuple(argument_types)]
    return result.library.get_pointer_to_function(result.fndesc.llvm_func_name)


def call_by_address(name: str, argument_types: tuple):
    """An intrinsic ``call(address, arguments)``: calls the function at ``address`` (compiled for
    ``argument_types``, returning nothing) on the tuple ``arguments``; an error it reports is
    passed on to the caller."""

    @intrinsic
    def call(typing_context, address, arguments):
        if not isinstance(address, types.Integer) or not isinstance(arguments, types.BaseTuple):
            raise errors.TypingError(f"{name}: call(address, (arguments...))")
        if tuple(arguments.types) != argument_types:
            raise errors.TypingError(f"{name} is compiled for {argument_types}, called with {tuple(arguments.types)}")

        def codegen(context, builder, signature, values):
            address_value, tuple_value = values
            arguments_values = [builder.extract_value(tuple_value, i) for i in range(len(argument_types))]
            function_type = context.call_conv.get_function_type(types.none, argument_types)
            pointer = builder.inttoptr(address_value, function_type.as_pointer())
            status, _ = context.call_conv.call_function(builder, pointer, types.none, argument_types,
                                                        arguments_values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return context.get_dummy_value()

        return types.none(address, arguments), codegen

    return call


def ufunc(function: Callable, signatures: list[str]):
    """``function`` (scalar in, scalar out) as a NumPy ufunc for ``signatures``, compiled now by
    ``numba.vectorize`` and cached on disk like :func:`jit`'s kernels.

    The ufunc runs the very scalar code a kernel inlines from the same function, so an
    interpreter calling the one and a kernel calling the other agree bit for bit.
    """
    return numba.vectorize(signatures, cache=cache_directory() is not None)(function)


def compile_source(source: str, names: tuple[str, ...], **options) -> tuple[Callable, ...]:
    """The functions ``names`` defined by the Python ``source``, each compiled by :func:`jit`.

    The source must be self-contained (it imports what it uses). With a cache directory it is
    written to ``generated/<hash>.py`` there and loaded as a module, so the compiled code is
    found again by later processes; without one it runs in memory. Within a process the same
    source, names and options give the same dispatchers (compiled once).
    """
    return _compiled_functions(source, tuple(names), tuple(sorted(options.items())))


@functools.lru_cache(maxsize=256)
def _compiled_functions(source: str, names: tuple[str, ...], options: tuple) -> tuple[Callable, ...]:
    module = _load_generated(source)
    return tuple(jit(getattr(module, name), **dict(options)) for name in names)


@functools.lru_cache(maxsize=256)
def _load_generated(source: str) -> ModuleType:
    key = hashlib.sha256(source.encode()).hexdigest()[:24]
    module_name = f"shaderkit_generated_{key}"
    directory = cache_directory()
    if directory is None:
        module = ModuleType(module_name)
        exec(compile(source, f"<generated {key}>", "exec"), module.__dict__)  # noqa: S102 - our own generated code
        return module
    path = directory / "generated" / f"{key}.py"
    if not path.exists():
        _write_once(path, source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # Numba resolves the module of a cached function by name
    spec.loader.exec_module(module)
    return module


def _write_once(path: Path, text: str) -> None:
    """Create ``path`` holding ``text``, atomically, unless another process got there first.

    The file is never rewritten: Numba keys its cache entries by the source file's stamp, so
    replacing an identical file would make the entries other processes just wrote stale.
    """
    path.parent.mkdir(mode=0o700, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False) as handle:
        handle.write(text)
    try:
        os.link(handle.name, path)
    except FileExistsError:
        pass
    except OSError:  # a file system without hard links
        if not path.exists():
            os.replace(handle.name, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)


def first_call(dispatchers: tuple, call: Callable[[], object]) -> tuple[float, str]:
    """Seconds taken by ``call()``, and whether ``dispatchers`` were compiled, loaded or ready.

    The second item is ``"compiled"`` when any dispatcher compiled a new signature,
    ``"cache"`` when they were loaded from the disk cache, and ``"ready"`` when nothing new
    was needed (already compiled in this process).
    """
    def counts():
        misses = sum(sum(d.stats.cache_misses.values()) for d in dispatchers)
        hits = sum(sum(d.stats.cache_hits.values()) for d in dispatchers)
        signatures = sum(len(d.signatures) for d in dispatchers)
        return misses, hits, signatures

    before = counts()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    misses, hits, signatures = (after - earlier for after, earlier in zip(counts(), before, strict=True))
    if signatures == 0:
        return seconds, "ready"
    return seconds, "cache" if hits and not misses else "compiled"


def cached(dispatcher) -> bool:
    """Whether the disk cache holds an entry for ``dispatcher``'s source.

    Numba has no public query for its cache, so this reads the index through the cache
    object; any failure (no cache directory, another Numba's layout) counts as not cached.
    """
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - any failure means "would compile"
        return False


def ready(dispatcher) -> bool:
    """Whether ``dispatcher``'s first call is cheap: compiled in this process already, or cached."""
    return bool(dispatcher.signatures) or cached(dispatcher)


def thread_counts() -> dict[str, int]:
    """The thread counts a bench figure depends on: CPUs, Numba's threads and llvmpipe's."""
    cpus = os.cpu_count() or 1
    llvmpipe = os.environ.get("LP_NUM_THREADS", "")
    return {
        "cpu_count": cpus,
        "numba_threads": numba.get_num_threads(),
        "llvmpipe_threads": int(llvmpipe) if llvmpipe.isdigit() else cpus,
    }
