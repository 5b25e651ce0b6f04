"""The Tiny Pixel Processor's UART upload protocol (spec/tpp.md section 9).

This module owns the bytes that reprogram a running TPP and the host side of
sending them: building the 60-byte program upload and the time-divisor
command, showing bytes as hex, finding a USB serial adapter, and writing to a
serial port at 9600 baud 8N1.

It knows nothing about assembly: it takes the 20-word program image as built
elsewhere (slot 19 is normally 0x6003, ``OUT R0``; the hardware ignores writes
to it, so whatever is there is sent as given).
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Sequence

import serial
from serial.tools import list_ports

from shaderkit.core.diagnostics import InputError

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


def find_usb_port() -> str:
    """The device name of the first serial port whose description or hardware id mentions USB."""
    for port in list_ports.comports():
        # description and hwid can be None on some systems; they are free text.
        labels = f"{port.description or ''} {port.hwid or ''}"
        if "usb" in labels.lower():
            return port.device
    raise InputError("no USB serial port found; name one with --port")


def _reason(error: BaseException) -> str:
    # pyserial wraps the operating system's error in a SerialException whose text
    # repeats the port name; the underlying error says the same thing more briefly.
    cause = error.__cause__ or error.__context__
    if isinstance(cause, OSError) and not isinstance(cause, serial.SerialException) and cause.strerror:
        return cause.strerror
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def open_port(port: str, *, baudrate: int = BAUDRATE) -> serial.SerialBase:
    """Open ``port`` (a device name or pyserial URL) at 8N1, no flow control, DTR low.

    Raises InputError if the port cannot be opened.
    """
    try:
        connection = serial.serial_for_url(
            port,
            baudrate=baudrate,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=serial.STOPBITS_ONE,
            xonxoff=False,
            rtscts=False,
            dsrdtr=False,
            do_not_open=True,
        )
        # Set before opening so DTR never goes high, as with the upstream flasher:
        # adapters that wire DTR to a reset or boot line leave the board alone.
        connection.dtr = False
        connection.open()
    except (OSError, ValueError) as error:  # serial.SerialException is an OSError
        raise InputError(f"cannot open serial port {port}: {_reason(error)}") from error
    return connection


def transmit(connection: serial.SerialBase, data: bytes, *, settle_seconds: float = SETTLE_SECONDS) -> None:
    """Wait ``settle_seconds`` after opening, then write all of ``data`` and wait until it has left."""
    # The pause gives a freshly opened adapter time to settle before the first
    # start bit (the upstream flasher waits 0.1 s too).
    if settle_seconds > 0:
        time.sleep(settle_seconds)
    try:
        connection.write(data)
        connection.flush()
    except OSError as error:
        raise InputError(f"cannot send to serial port {connection.port}: {_reason(error)}") from error


def send(
    data: bytes,
    port: str | None = None,
    *,
    baudrate: int = BAUDRATE,
    settle_seconds: float = SETTLE_SECONDS,
) -> None:
    """Send ``data`` over a serial port; ``port=None`` picks the first USB serial port."""
    if port is None:
        port = find_usb_port()
    connection = open_port(port, baudrate=baudrate)
    try:
        transmit(connection, data, settle_seconds=settle_seconds)
    finally:
        connection.close()
