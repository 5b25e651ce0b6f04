"""The Tiny Pixel Processor's UART upload protocol (spec/tpp.md section 9).

This module owns the bytes that reprogram a running TPP and the host side of
sending them: building the 60-byte program upload and the time-divisor
command, showing bytes as hex, and writing them to a serial port at 9600 baud
8N1, counting what was sent. Which port, and opening it, is
:mod:`.serial_ports`.

It knows nothing about assembly: it takes the 20-word program image as built
elsewhere (slot 19 is normally 0x6003, ``OUT R0``; the hardware ignores writes
to it, so whatever is there is sent as given).
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Sequence

from shaderkit.core.diagnostics import InputError

from .serial_ports import SERIAL_ERRORS, describe_error, find_usb_port, open_port, shown

__all__ = [
    "BAUDRATE",
    "SLOT_COUNT",
    "divisor_byte",
    "find_usb_port",
    "format_bytes",
    "open_port",
    "send",
    "transmit",
    "upload_bytes",
    "write_timeout",
]

SLOT_COUNT = 20
BAUDRATE = 9600
WRITE_COMMAND = 0x80
DIVISOR_COMMAND = 0x40
DIVISOR_MAX = 63
SETTLE_SECONDS = 0.1


def _is_integer(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def upload_bytes(image: Sequence[int]) -> bytes:
    """The standard upload of a 20-slot image: ``0x80 | slot, word >> 8, word & 0xFF`` per slot.

    Every slot is sent, in order, so an upload fully replaces the running program.
    """
    if len(image) != SLOT_COUNT:
        raise InputError(f"a TPP program image has {SLOT_COUNT} words, got {len(image)}")
    data = bytearray()
    for slot, word in enumerate(image):
        if not _is_integer(word) or not 0 <= word <= 0xFFFF:
            raise InputError(f"slot {slot}: {word!r} is not a 16-bit word (0..0xFFFF)")
        word = int(word)
        # Big-endian: the interpreter assembles (hi << 8) | lo from the two bytes after the command.
        data += bytes((WRITE_COMMAND | slot, word >> 8, word & 0xFF))
    return bytes(data)


def divisor_byte(n: int) -> bytes:
    """The one-byte command setting the time divisor N (rev B; rev A ignores it)."""
    if not _is_integer(n) or not 0 <= n <= DIVISOR_MAX:
        raise InputError(f"time divisor must be 0..{DIVISOR_MAX}, got {n!r}")
    return bytes((DIVISOR_COMMAND | int(n),))


def format_bytes(data: bytes) -> str:
    """Bytes as upper-case two-digit hex separated by single spaces: ``"80 10 83"``."""
    return " ".join(f"{byte:02X}" for byte in data)


def write_timeout(data: bytes, baudrate: int = BAUDRATE) -> float:
    """Seconds a write of ``data`` may take before the port counts as stuck."""
    # Ten bits per byte (start, eight data, stop) on the wire, four times over, plus slack
    # for an adapter that is slow to start; a hung port then fails instead of hanging.
    return 2.0 + 4 * 10 * len(data) / baudrate


def transmit(connection, data: bytes, *, settle_seconds: float = SETTLE_SECONDS) -> int:
    """Wait ``settle_seconds`` after opening, write all of ``data`` and wait until it has left.

    Returns the number of bytes written; raises InputError if the port fails or
    takes fewer than all of them.
    """
    # The pause gives a freshly opened adapter time to settle before the first
    # start bit (the upstream flasher waits 0.1 s too).
    if settle_seconds > 0:
        time.sleep(settle_seconds)
    name = shown(str(connection.port))
    try:
        written = connection.write(data)
        connection.flush()
    except SERIAL_ERRORS as error:
        raise InputError(f"cannot send to serial port {name}: {describe_error(error)}") from error
    # pyserial's rfc2217 port returns nothing from write (it sends everything or raises).
    written = len(data) if written is None else written
    if written != len(data):
        raise InputError(f"cannot send to serial port {name}: only {written} of {len(data)} bytes sent")
    return written


def send(
    data: bytes,
    port: str | None = None,
    *,
    baudrate: int = BAUDRATE,
    settle_seconds: float = SETTLE_SECONDS,
) -> str:
    """Send ``data`` over a serial port; ``port=None`` picks the first USB serial adapter.

    Returns a one-line summary such as ``"sent 60 bytes to /dev/ttyUSB0"``.
    """
    if port is None:
        port = find_usb_port()
    connection = open_port(port, baudrate=baudrate, write_timeout=write_timeout(data, baudrate))
    try:
        written = transmit(connection, data, settle_seconds=settle_seconds)
    except BaseException:
        _close_quietly(connection)
        raise
    name = shown(str(connection.port))
    try:
        connection.close()
    except SERIAL_ERRORS as error:
        raise InputError(f"cannot close serial port {name}: {describe_error(error)}") from error
    return f"sent {written} bytes to {name}"


def _close_quietly(connection) -> None:
    # The error that got us here is the one worth reporting.
    try:
        connection.close()
    except SERIAL_ERRORS:
        pass
