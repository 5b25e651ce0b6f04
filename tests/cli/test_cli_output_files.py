"""Output and input files at the edges: device nodes, FIFOs, symlinks, read-only files, empty
names, signals mid-write, stale temporaries, a full standard output, unbounded inputs and GIFs
too large for memory. Each case ends in a result or a one-line error with exit code 2, and
never replaces what it must not."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shaderkit.core import fileio

from conftest import assert_one_line_error, invoke_cli as invoke

ROOT = Path(__file__).resolve().parents[2]
PLASMA = ROOT / "examples" / "tpp" / "plasma.s"
SHADERKIT = [sys.executable, "-m", "shaderkit.cli"]


def temporaries(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir() if ".shaderkit-" in entry.name)


# --- special files are written in place, never replaced -----------------------------------

def test_a_character_device_stays_a_device(tmp_path):
    # A private copy of /dev/null (same major/minor; making it needs root, as CI and this
    # project's machines run): if this regressed, only the copy is replaced.
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    result = invoke("asm", "-m", "tpp", PLASMA, "-o", device)
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(device.stat().st_mode)
    assert temporaries(tmp_path) == []


def test_a_fifo_receives_the_bytes_directly(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = invoke("asm", "-m", "tpp", PLASMA, "-f", "hex", "-o", fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    expected = invoke("asm", "-m", "tpp", PLASMA, "-f", "hex").stdout_bytes
    assert received == [expected] and len(expected) == 20 * 5


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.hex"
    real.write_text("old\n")
    link = tmp_path / "link.hex"
    link.symlink_to(real)
    assert invoke("asm", "-m", "tpp", PLASMA, "-f", "hex", "-o", link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().count("\n") == 20


def test_a_read_only_file_is_refused_unless_forced(tmp_path):
    target = tmp_path / "image.hex"
    target.write_text("keep me\n")
    target.chmod(0o444)
    assert_one_line_error(invoke("asm", "-m", "tpp", PLASMA, "-o", target), "read-only", "--force")
    assert target.read_text() == "keep me\n"
    forced = invoke("asm", "-m", "tpp", PLASMA, "-o", target, "--force")
    assert forced.exit_code == 0, forced.output
    assert target.read_text().count("\n") == 20
    assert stat.S_IMODE(target.stat().st_mode) == 0o444  # still read-only, as the user left it


def test_an_existing_file_keeps_its_permission_bits(tmp_path):
    target = tmp_path / "frame.png"
    target.write_bytes(b"x")
    target.chmod(0o640)
    assert invoke("run", "-m", "tpp", PLASMA, "-o", target).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.stat().st_size > 1000


@pytest.mark.parametrize("command", [("asm", "-m", "tpp", PLASMA), ("run", "-m", "tpp", PLASMA),
                                     ("decompile", "-m", "rsx", ROOT / "examples" / "rsx" / "phong.fp")])
def test_an_empty_output_name_is_no_output_path(command):
    assert_one_line_error(invoke(*command, "-o", ""), "no output path")


def test_a_directory_as_output_is_refused(tmp_path):
    assert_one_line_error(invoke("asm", "-m", "tpp", PLASMA, "-o", tmp_path), "is a directory")


@pytest.mark.parametrize("command", [
    ("run", "-m", "tpp", PLASMA, "--frames", "100000"),
    ("run", "-m", "theia", "--obj", ROOT / "examples" / "theia" / "models" / "cube.obj", "--cores", "2"),
    ("run", "-m", "theia", "--obj", ROOT / "examples" / "theia" / "models" / "cube.obj", "--stats"),
])
def test_an_output_in_a_missing_folder_is_refused_before_running(tmp_path, command):
    # Checked up front: no statistics table, and no 100,000 frames rendered first (the
    # frames would take minutes, so a late check would time the test out).
    output = tmp_path / "missing" / ("out.gif" if "--frames" in command else "out.png")
    result = invoke(*command, "-o", output)
    assert_one_line_error(result, "no such folder")
    assert not output.parent.exists()


# --- temporaries: gone after a signal, and stale ones cleaned up ----------------------------

@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_mid_animation_leaves_no_temporary(tmp_path, signal_number):
    output = tmp_path / "anim.gif"
    process = subprocess.Popen([*SHADERKIT, "run", "-m", "tpp", str(PLASMA), "--frames", "5000", "--scale", "1",
                                "-o", str(output)], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not temporaries(tmp_path) and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert temporaries(tmp_path), "the animation never started writing"
        process.send_signal(signal_number)
        process.wait(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 128 + signal_number
    assert temporaries(tmp_path) == [] and not output.exists()


def test_a_stale_temporary_of_a_dead_process_is_removed(tmp_path):
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(finished.stdout)
    stale = tmp_path / f".frame.png.shaderkit-{dead_pid}-abc123.png"
    stale.write_bytes(b"half a picture")
    assert invoke("run", "-m", "tpp", PLASMA, "-o", tmp_path / "frame.png").exit_code == 0
    assert not stale.exists()


def test_a_temporary_of_a_running_process_is_left_alone(tmp_path):
    alive = tmp_path / f".frame.png.shaderkit-{os.getpid()}-abc123.png"
    alive.write_bytes(b"being written")
    assert invoke("run", "-m", "tpp", PLASMA, "-o", tmp_path / "frame.png").exit_code == 0
    assert alive.exists()


# --- standard output that is full ----------------------------------------------------------

@pytest.mark.parametrize("arguments", [("--help",), ("asm", "-m", "tpp", str(PLASMA)), ("doc", "-m", "tpp")])
def test_a_full_standard_output_is_one_line_and_exit_code_2(arguments):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([*SHADERKIT, *arguments], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "No space left on device" in result.stderr, result.stderr


# --- inputs that never end or would block ----------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_program_is_refused(device):
    assert_one_line_error(invoke("disasm", "-m", "tpp", device), device, "not a regular file")


def test_a_fifo_as_program_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "program.s"
    os.mkfifo(fifo)
    result = subprocess.run([*SHADERKIT, "asm", "-m", "tpp", str(fifo)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "not a regular file" in result.stderr


def test_an_oversized_input_is_refused_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.bin"
    with open(huge, "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: no disk space used
    assert_one_line_error(invoke("disasm", "-m", "tpp", huge), "more than the", "bytes an input may have")


# --- GIFs that would not fit in memory -------------------------------------------------------

def test_a_gif_too_large_for_memory_is_refused_before_rendering(tmp_path):
    output = tmp_path / "long.gif"
    result = invoke("run", "-m", "tpp", PLASMA, "--frames", "100000", "-o", output)
    assert_one_line_error(result, "GiB in memory", ".mp4")
    assert not output.exists() and temporaries(tmp_path) == []


def test_a_temporary_is_listed_for_removal_before_it_exists(tmp_path, monkeypatch):
    # The signal handlers remove the temporaries listed as live; one that existed but was not
    # listed yet would stay behind. So a clean-up right as the file appears must remove it.
    create = os.open
    removed_on_creation = []

    def create_then_clean_up(path, flags, *arguments):
        descriptor = create(path, flags, *arguments)
        if ".shaderkit-" in os.fspath(path):
            fileio.remove_live_temporaries()  # what a signal arriving now would do
            removed_on_creation.append(not os.path.exists(path))
        return descriptor

    monkeypatch.setattr(fileio.os, "open", create_then_clean_up)
    with pytest.raises(FileNotFoundError):  # the writer then finds its temporary gone
        with fileio.atomic_path(tmp_path / "out.txt"):
            pass
    assert removed_on_creation == [True]
    assert list(tmp_path.iterdir()) == []
