"""Tests for shaderkit.isa.tpp.uart: upload bytes against the shared golden
streams, and sending through a pseudo-terminal and pyserial's loop:// port."""

from __future__ import annotations

import os
import select
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.tpp import serial_ports, uart
from conftest import golden_dir

GOLDEN = golden_dir("tpp")
WORDS_FILES = sorted(GOLDEN.glob("*.words"))


def read_words(path: Path) -> list[int]:
    return [int(line, 16) for line in path.read_text().split()]


def spec_example_image() -> list[int]:
    return [0x1083, 0x58A3] + [0x0000] * 17 + [0x6003]


# --- byte builders ----------------------------------------------------------------------


def test_golden_files_exist():
    assert len(WORDS_FILES) >= 10, f"expected at least 10 *.words files in {GOLDEN}"


@pytest.mark.parametrize("words_path", WORDS_FILES, ids=lambda path: path.stem)
def test_upload_bytes_match_golden_uart_stream(words_path):
    words = read_words(words_path)
    expected = words_path.with_suffix(".uart").read_text().strip()
    assert uart.format_bytes(uart.upload_bytes(words)) == expected


def test_upload_bytes_spec_example():
    data = uart.upload_bytes(spec_example_image())
    assert len(data) == 60
    text = uart.format_bytes(data)
    assert text.startswith("80 10 83 81 58 A3 82 00 00 83 00 00 ")
    assert text.endswith(" 91 00 00 92 00 00 93 60 03")
    for slot in range(2, 19):
        assert data[3 * slot : 3 * slot + 3] == bytes((0x80 | slot, 0, 0))


def test_upload_bytes_accepts_any_integer_sequence():
    import numpy as np

    image = np.array(spec_example_image(), dtype=np.uint16)
    assert uart.upload_bytes(image) == uart.upload_bytes(spec_example_image())


@pytest.mark.parametrize("length", [0, 19, 21])
def test_upload_bytes_rejects_wrong_length(length):
    with pytest.raises(InputError, match="20 words"):
        uart.upload_bytes([0] * length)


@pytest.mark.parametrize("word", [-1, 0x10000, 1.0, "1083", True])
def test_upload_bytes_rejects_non_words(word):
    image = spec_example_image()
    image[5] = word
    with pytest.raises(InputError, match="slot 5"):
        uart.upload_bytes(image)


def test_divisor_byte():
    assert uart.divisor_byte(0) == b"\x40"
    assert uart.divisor_byte(5) == b"\x45"
    assert uart.divisor_byte(63) == b"\x7f"


@pytest.mark.parametrize("n", [-1, 64, 2.0, True])
def test_divisor_byte_rejects_out_of_range(n):
    with pytest.raises(InputError, match="0..63"):
        uart.divisor_byte(n)


def test_format_bytes():
    assert uart.format_bytes(b"\x80\x0a\xff") == "80 0A FF"
    assert uart.format_bytes(b"") == ""


# --- port discovery ---------------------------------------------------------------------


def fake_port(device, description, hwid, vid=None):
    return SimpleNamespace(device=device, description=description, hwid=hwid, vid=vid)


def test_find_usb_port_picks_the_first_usb_port(monkeypatch):
    ports = [
        fake_port("/dev/ttyS0", "ttyS0", "PNP0501"),
        fake_port("/dev/ttyUSB0", "USB-Serial CH340", "USB VID:PID=1A86:7523 LOCATION=1-1", 0x1A86),
        fake_port("/dev/ttyUSB1", "USB-Serial CH340", "USB VID:PID=1A86:7523 LOCATION=1-2", 0x1A86),
    ]
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: ports)
    assert uart.find_usb_port() == "/dev/ttyUSB0"


def test_find_usb_port_goes_by_the_usb_vendor_id_not_the_labels(monkeypatch):
    ports = [
        fake_port("COM1", "USB? no: Communications Port (COM1)", "ACPI\\PNP0501\\1"),
        fake_port("COM7", "Serial device (COM7)", "usb vid:pid=0403:6001", 0x0403),
    ]
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: ports)
    assert uart.find_usb_port() == "COM7"


def test_find_usb_port_tolerates_missing_labels(monkeypatch):
    ports = [fake_port("/dev/ttyS0", None, None), fake_port("/dev/ttyACM0", None, None, 0x2E8A)]
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: ports)
    assert uart.find_usb_port() == "/dev/ttyACM0"


@pytest.mark.parametrize("ports", [[], [fake_port("/dev/ttyS0", "ttyS0", "PNP0501")]])
def test_find_usb_port_without_usb_ports_is_an_input_error(monkeypatch, ports):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: ports)
    with pytest.raises(InputError) as excinfo:
        uart.find_usb_port()
    assert str(excinfo.value) == (
        "no USB serial port found; name one with --port (a device such as /dev/ttyUSB0 or COM3)")


def test_send_without_a_port_uses_the_usb_port_search(monkeypatch):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: [])
    with pytest.raises(InputError, match="no USB serial port"):
        uart.send(b"\x45")


# --- sending ----------------------------------------------------------------------------


def test_open_port_configures_8n1_without_flow_control_and_dtr_low():
    connection = uart.open_port("loop://", baudrate=uart.BAUDRATE)
    try:
        assert connection.is_open
        assert connection.baudrate == 9600
        assert connection.bytesize == 8
        assert connection.parity == "N"
        assert connection.stopbits == 1
        assert not connection.xonxoff and not connection.rtscts and not connection.dsrdtr
        assert connection.dtr is False
    finally:
        connection.close()


def test_transmit_through_loop_url():
    data = uart.upload_bytes(spec_example_image()) + uart.divisor_byte(5)
    connection = uart.open_port("loop://", baudrate=uart.BAUDRATE)
    try:
        connection.timeout = 1.0
        uart.transmit(connection, data, settle_seconds=0)
        assert connection.read(len(data)) == data
    finally:
        connection.close()


def test_send_waits_settle_seconds_before_writing(monkeypatch):
    events = []
    monkeypatch.setattr(uart.time, "sleep", lambda seconds: events.append(("sleep", seconds)))

    class RecordingPort:
        port = "fake"

        def write(self, data):
            events.append(("write", bytes(data)))
            return len(data)

        def flush(self):
            events.append(("flush",))

        def close(self):
            events.append(("close",))

    monkeypatch.setattr(uart, "open_port", lambda port, baudrate, write_timeout: RecordingPort())
    assert uart.send(b"\x80\x12\x34", "fake") == "sent 3 bytes to fake"
    assert events == [("sleep", 0.1), ("write", b"\x80\x12\x34"), ("flush",), ("close",)]


def read_exactly(fd: int, count: int, deadline_seconds: float = 5.0) -> bytes:
    """Read ``count`` bytes from ``fd``, giving up after a bounded wait."""
    received = bytearray()
    deadline = time.monotonic() + deadline_seconds
    while len(received) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        ready, _, _ = select.select([fd], [], [], min(remaining, 0.1))
        if ready:
            received += os.read(fd, count - len(received))
    return bytes(received)


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX pseudo-terminals")
def test_send_through_a_pseudo_terminal():
    # Bytes a cooked terminal would alter (LF, CR, XON, XOFF, Ctrl-C, DEL) must pass unchanged.
    image = spec_example_image()
    image[2:8] = [0x0A0D, 0x1113, 0x0300, 0x7F04, 0xFFFF, 0x1A1C]
    data = uart.upload_bytes(image) + uart.divisor_byte(10)

    master, slave = os.openpty()
    errors: list[BaseException] = []
    summaries: list[str] = []

    def sender():
        try:
            summaries.append(uart.send(data, os.ttyname(slave), settle_seconds=0.01))
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    try:
        thread = threading.Thread(target=sender, daemon=True)
        thread.start()
        received = read_exactly(master, len(data))
        thread.join(timeout=5)
        assert not thread.is_alive(), "send() did not return"
        assert not errors, errors
        assert received == data
        assert summaries == [f"sent {len(data)} bytes to {os.ttyname(slave)}"]
    finally:
        os.close(master)
        os.close(slave)


def test_send_to_a_missing_port_is_an_input_error(tmp_path):
    port = str(tmp_path / "no-such-tty")
    with pytest.raises(InputError) as excinfo:
        uart.send(b"\x45", port, settle_seconds=0)
    assert str(excinfo.value).startswith(f"cannot open serial port {port}: ")
    assert "No such file or directory" in str(excinfo.value)


def test_send_to_an_unknown_url_is_an_input_error():
    with pytest.raises(InputError, match="^nosuch://x: unsupported port URL; use a device name, loop://"):
        uart.send(b"\x45", "nosuch://x", settle_seconds=0)
