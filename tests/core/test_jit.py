"""The kernel cache rules of core.jit: a private per-user, per-version directory, or none."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap

import numba
import pytest

from shaderkit.core import jit

ADD_SOURCE = "def add(a, b):\n    return a + b\n"


@pytest.fixture
def fresh_cache(monkeypatch):
    """core.jit's choice forgotten before and after, Numba's global cache setting restored."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.delenv(jit.CACHE_ENVIRONMENT, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    forget = (jit.cache_directory, jit._load_generated, jit._compiled_functions)
    for cached in forget:
        cached.cache_clear()
    yield monkeypatch
    for cached in forget:
        cached.cache_clear()


def _blocked(tmp_path, name):
    """A path where no directory can be made: a plain file stands in the way."""
    blocker = tmp_path / name
    blocker.write_text("not a directory")
    return blocker / "cache"


def test_the_environment_variable_names_the_root(fresh_cache, tmp_path):
    fresh_cache.setenv(jit.CACHE_ENVIRONMENT, str(tmp_path / "root"))
    directory = jit.cache_directory()
    assert directory.parent == tmp_path / "root"
    assert directory.name == f"kernels-{jit.package_fingerprint()}"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert numba.config.CACHE_DIR == str(directory / "numba")


def test_an_unusable_root_falls_through_to_the_next(fresh_cache, tmp_path):
    fresh_cache.setenv(jit.CACHE_ENVIRONMENT, str(_blocked(tmp_path, "first")))
    fresh_cache.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jit.cache_directory().parent == tmp_path / "xdg" / "shaderkit"


def test_a_directory_of_another_user_is_refused(fresh_cache, tmp_path):
    fresh_cache.setenv(jit.CACHE_ENVIRONMENT, str(tmp_path / "root"))
    fresh_cache.setenv("HOME", str(_blocked(tmp_path, "home")))
    fresh_cache.setattr(os, "getuid", lambda: os.stat(tmp_path).st_uid + 1)
    assert jit.cache_directory() is None


def test_without_a_usable_place_kernels_still_compile_uncached(fresh_cache, tmp_path):
    fresh_cache.setenv(jit.CACHE_ENVIRONMENT, str(_blocked(tmp_path, "a")))
    fresh_cache.setenv("HOME", str(_blocked(tmp_path, "home")))
    assert jit.cache_directory() is None

    def twice(x):
        return 2 * x

    compiled = jit.jit(twice)
    assert compiled(21) == 42
    (add,) = jit.compile_source(ADD_SOURCE, ("add",))
    assert add(2, 3) == 5
    assert compiled.stats.cache_path is None and add.stats.cache_path is None
    assert list(tmp_path.rglob("*.nbi")) == []


def test_the_fingerprint_follows_the_package_sources(fresh_cache, tmp_path):
    package = tmp_path / "package"
    package.mkdir()
    module = package / "module.py"
    module.write_text("x = 1\n")
    fresh_cache.setattr(jit, "PACKAGE_ROOT", package)
    before = jit.package_fingerprint()
    module.write_text("x = 22\n")
    assert jit.package_fingerprint() != before


def test_other_versions_unused_for_long_are_removed(fresh_cache, tmp_path):
    root = tmp_path / "root"
    old, recent = root / "kernels-0000000000000000", root / "kernels-1111111111111111"
    unrelated = root / "notes"
    for directory in (old, recent, unrelated):
        directory.mkdir(parents=True)
    long_ago = os.stat(root).st_mtime - jit.STALE_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(unrelated, (long_ago, long_ago))
    fresh_cache.setenv(jit.CACHE_ENVIRONMENT, str(root))
    current = jit.cache_directory()
    assert sorted(path.name for path in root.iterdir()) == sorted([current.name, recent.name, "notes"])


def _run_twice_script(root):
    return textwrap.dedent(f"""
        import os
        os.environ[{jit.CACHE_ENVIRONMENT!r}] = {str(root)!r}
        from shaderkit.core import jit
        (add,) = jit.compile_source({ADD_SOURCE!r}, ("add",))
        print(jit.cached(add), jit.ready(add))
        seconds, state = jit.first_call((add,), lambda: add(2, 3))
        print(jit.cached(add), jit.ready(add))
        assert add(2, 3) == 5
        print(state)
    """)


def test_generated_kernels_are_found_again_by_the_next_process(tmp_path):
    script = _run_twice_script(tmp_path / "root")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
            for _ in range(2)]
    # cached and ready before and after the call, then how the call got its code
    assert runs == [["False", "False", "True", "True", "compiled"], ["True", "True", "True", "True", "cache"]]
    generated = list((tmp_path / "root").rglob("generated/*.py"))
    assert len(generated) == 1 and generated[0].read_text() == ADD_SOURCE


def test_first_call_says_ready_when_nothing_new_is_compiled(fresh_cache, tmp_path):
    fresh_cache.setenv(jit.CACHE_ENVIRONMENT, str(tmp_path / "root"))
    (add,) = jit.compile_source(ADD_SOURCE, ("add",))
    assert jit.first_call((add,), lambda: add(1, 2))[1] == "compiled"
    assert jit.first_call((add,), lambda: add(1, 2))[1] == "ready"
    # the same source, names and options in the same process: the same, compiled dispatcher
    assert jit.compile_source(ADD_SOURCE, ("add",)) == (add,)
    assert jit.compile_source(ADD_SOURCE, ("add",), fastmath=False) != (add,)


def test_thread_counts_follow_the_environment(monkeypatch):
    monkeypatch.setenv("LP_NUM_THREADS", "1")
    counts = jit.thread_counts()
    assert counts["llvmpipe_threads"] == 1
    assert counts["cpu_count"] == os.cpu_count()
    assert counts["numba_threads"] == numba.get_num_threads()
