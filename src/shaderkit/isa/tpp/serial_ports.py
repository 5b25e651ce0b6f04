"""Which serial port a TPP upload goes to, and opening it.

This module owns the meaning of ``flash --port``: a device name (``/dev/ttyUSB0``,
``COM3``), or one of the pyserial URLs the flasher accepts (``loop://``,
``socket://HOST:PORT``, ``rfc2217://HOST:PORT``, ``hwgrep://PATTERN``), and the
search for a USB serial adapter when no port is named. It also owns the
translation of everything pyserial, termios and the socket layer raise into a
one-line :class:`InputError`.

Two rules keep an upload away from the wrong device:

* only USB serial adapters (ports with a USB vendor id) are ever *chosen*, by the
  automatic search or by a ``hwgrep://`` pattern; a built-in UART or a console
  (``/dev/ttyS0``, ``/dev/console``, ``/dev/tty``) is used only when named;
* URLs are checked here before pyserial sees them: pyserial's own option parsing
  raises KeyError on bad options, and its ``logging``/``spy://`` features print
  traces on stderr, so those are refused.

A ``socket://`` port is driven here rather than by pyserial, so that the upload
counts as sent only when the other end has acknowledged it (a server that
closes at once must not look like a success).
"""

from __future__ import annotations

import errno
import math
import os
import re
import select
import socket
import stat
import struct
import time
import warnings
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlsplit

import serial
from serial.tools import list_ports

from shaderkit.core.diagnostics import InputError

try:  # termios exists on POSIX only; tcdrain and tcsetattr raise its error, which is no OSError.
    import termios
except ImportError:  # pragma: no cover - Windows
    termios = None

__all__ = [
    "SERIAL_ERRORS",
    "TcpPort",
    "describe_error",
    "find_usb_port",
    "is_usb_serial",
    "match_usb_port",
    "open_port",
    "shown",
    "usb_serial_ports",
]

# Everything the serial, termios and socket layers raise for a port that is missing,
# busy, misnamed or hung up. serial.SerialException and socket errors are OSErrors.
SERIAL_ERRORS: tuple[type[BaseException], ...] = (OSError, ValueError) + ((termios.error,) if termios else ())

# Devices that are consoles or built-in UARTs however their port info reads.
CONSOLE_DEVICE = re.compile(r"/dev/(console|tty|tty\d+|ttyS\d+)")

NAMING_HINT = "name one with --port (a device such as /dev/ttyUSB0 or COM3)"
ACCEPTED_PORTS = "a device name, loop://, socket://HOST:PORT, rfc2217://HOST:PORT or hwgrep://PATTERN"
RFC2217_OPTIONS = ("ign_set_control", "poll_modem", "timeout")

CONNECT_SECONDS = 5.0
DELIVERY_SECONDS = 5.0
DELIVERY_POLL_SECONDS = 0.01
DELIVERY_LINGER_SECONDS = 0.25


def shown(port: str) -> str:
    """``port`` as it can appear inside a one-line message."""
    return port if port.isprintable() else repr(port)


def describe_error(error: BaseException) -> str:
    """The shortest honest text for an error raised while using a port."""
    # pyserial wraps the operating system's error in a SerialException whose text
    # repeats the port name; the underlying error says the same thing more briefly.
    cause = error.__cause__ or error.__context__
    if isinstance(cause, OSError) and not isinstance(cause, serial.SerialException) and cause.strerror:
        return cause.strerror
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if termios is not None and isinstance(error, termios.error) and len(error.args) == 2:
        return str(error.args[1])  # termios.error carries (errno, text)
    text = " ".join(str(error).split())
    return text or type(error).__name__


# --- choosing a USB adapter ------------------------------------------------------------


def is_usb_serial(port_info: object) -> bool:
    """Whether a ``list_ports`` entry is a USB serial adapter (and not a console)."""
    # pyserial fills vid only for USB devices; descriptions and hwids are free text that
    # a built-in UART's driver may fill with anything, so they decide nothing.
    if getattr(port_info, "vid", None) is None:
        return False
    return not CONSOLE_DEVICE.fullmatch(str(getattr(port_info, "device", "")))


def usb_serial_ports() -> list:
    """The USB serial adapters present, in ``list_ports`` order."""
    try:
        ports = list(list_ports.comports())
    except SERIAL_ERRORS as error:
        raise InputError(f"cannot list serial ports: {describe_error(error)}") from error
    return [port for port in ports if is_usb_serial(port)]


def find_usb_port() -> str:
    """The device name of the first USB serial adapter; never a console or built-in UART."""
    ports = usb_serial_ports()
    if not ports:
        raise InputError(f"no USB serial port found; {NAMING_HINT}")
    return ports[0].device


def _labels(port_info: object) -> Iterable[str]:
    for attribute in ("device", "description", "hwid"):
        value = getattr(port_info, attribute, None)
        if value:
            yield str(value)


def match_usb_port(url: str) -> str:
    """The USB serial adapter a ``hwgrep://PATTERN[&n=N]`` URL picks.

    As in pyserial, PATTERN is a case-insensitive regular expression searched in
    each port's device name, description and hardware id, ports are taken in
    device-name order and ``n=N`` picks the Nth match (from 1). Unlike pyserial,
    only USB serial adapters can match.
    """
    pattern, *options = url[len("hwgrep://"):].split("&")
    wanted = 1
    for option in options:
        name, _, value = option.partition("=")
        if name != "n":
            raise InputError(f"{shown(url)}: unknown option {name!r} (hwgrep:// takes only n=N)")
        if not value.isascii() or not value.isdigit() or int(value) < 1:
            raise InputError(f"{shown(url)}: n= needs a whole number from 1, got {value!r}")
        wanted = int(value)
    try:
        expression = re.compile(pattern, re.IGNORECASE)
    except (re.error, OverflowError, RecursionError) as error:
        raise InputError(f"{shown(url)}: bad pattern: {error}") from error
    matches = sorted(
        (port for port in usb_serial_ports() if any(expression.search(label) for label in _labels(port))),
        key=lambda port: str(port.device),
    )
    if len(matches) < wanted:
        found = f"only {len(matches)} USB serial port(s) match" if matches else "no USB serial port matches"
        raise InputError(f"{found} {shown(url)}; {NAMING_HINT}")
    return matches[wanted - 1].device


# --- checking URLs before pyserial sees them -------------------------------------------


def _host_and_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    try:
        number = parts.port
    except ValueError:
        number = None
    if not parts.hostname or number is None or not 1 <= number <= 65535 or parts.path not in ("", "/"):
        scheme = parts.scheme or url.partition("://")[0]
        raise InputError(f"{shown(url)}: expected {scheme}://HOST:PORT with PORT 1..65535")
    return parts.hostname, number


def _check_url(url: str) -> str:
    """Refuse URLs the flasher does not accept; return the lower-case scheme."""
    scheme = url.partition("://")[0].lower()
    query = urlsplit(url).query if scheme in ("loop", "socket", "rfc2217") else ""
    if scheme == "loop":
        if url.lower() not in ("loop://", "loop:///"):
            raise InputError(f"{shown(url)}: loop:// takes no options")
    elif scheme == "socket":
        _host_and_port(url)
        if query:
            raise InputError(f"{shown(url)}: socket:// takes no options")
    elif scheme == "rfc2217":
        _host_and_port(url)
        for name, value in parse_qsl(query, keep_blank_values=True):
            if name not in RFC2217_OPTIONS:
                raise InputError(
                    f"{shown(url)}: unknown option {name!r} (rfc2217:// takes {', '.join(RFC2217_OPTIONS)}=SECONDS)")
            if name == "timeout" and not _is_positive_seconds(value):
                raise InputError(f"{shown(url)}: timeout= needs a number of seconds above 0, got {value!r}")
    elif scheme != "hwgrep":
        raise InputError(f"{shown(url)}: unsupported port URL; use {ACCEPTED_PORTS}")
    return scheme


def _is_positive_seconds(text: str) -> bool:
    try:
        seconds = float(text)
    except ValueError:
        return False
    return math.isfinite(seconds) and 0 < seconds <= 3600


def _check_device(port: str) -> None:
    if "\0" in port:
        raise InputError(f"cannot open serial port {shown(port)}: the name contains a null byte")
    if os.name != "posix":
        return
    try:
        mode = os.stat(port).st_mode
    except OSError:
        return  # pyserial reports a missing device in its own words
    if not stat.S_ISCHR(mode):
        raise InputError(f"cannot open serial port {shown(port)}: not a terminal device")


# --- opening ---------------------------------------------------------------------------


def open_port(port: str, *, baudrate: int, write_timeout: float | None = None):
    """Open ``port`` (a device name or accepted URL) at 8N1, no flow control, DTR low.

    Returns an open connection with ``port``, ``write``, ``flush`` and ``close``;
    its ``port`` is the device actually opened (the match of a ``hwgrep://``
    pattern). Raises InputError if the name is refused or the port cannot be opened.
    """
    if not port.strip():
        raise InputError("no serial port: --port was given an empty name")
    scheme = _check_url(port) if "://" in port else ""
    if scheme == "hwgrep":
        port = match_usb_port(port)
        scheme = ""
    if not scheme:
        _check_device(port)
    if scheme == "socket":
        return TcpPort.connect(port, write_timeout=write_timeout)
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
            write_timeout=write_timeout,
            do_not_open=True,
        )
        # Set before opening so DTR never goes high, as with the upstream flasher:
        # adapters that wire DTR to a reset or boot line leave the board alone.
        connection.dtr = False
        with warnings.catch_warnings():
            # pyserial's rfc2217 port starts its reader with Thread.setDaemon, deprecated
            # since Python 3.10; the warning is pyserial's business, not the user's.
            warnings.simplefilter("ignore", DeprecationWarning)
            connection.open()
    except SERIAL_ERRORS as error:
        raise InputError(f"cannot open serial port {shown(port)}: {describe_error(error)}") from error
    return connection


def _unacknowledged_bytes(sock: socket.socket) -> int | None:
    """Bytes sent but not yet acknowledged by the other end, where the system says (Linux)."""
    request = getattr(termios, "TIOCOUTQ", None) if termios else None
    if request is None or not hasattr(os, "uname") or os.uname().sysname != "Linux":
        return None
    import fcntl

    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), request, struct.pack("i", 0)))[0]
    except OSError:
        return None


class TcpPort:
    """A raw TCP serial server (``socket://HOST:PORT``, as ser2net offers).

    ``write`` refuses to start when the other end has already closed, and
    ``flush`` waits (boundedly) until the other end has acknowledged every byte,
    so that a server which drops the connection is an error, not a silent success.
    """

    def __init__(self, url: str, sock: socket.socket, write_timeout: float | None):
        self.port = url
        self._socket = sock
        self._write_timeout = write_timeout
        self._written = 0

    @classmethod
    def connect(cls, url: str, *, write_timeout: float | None = None) -> TcpPort:
        host, number = _host_and_port(url)
        try:
            sock = socket.create_connection((host, number), timeout=CONNECT_SECONDS)
        except (OSError, UnicodeError, OverflowError) as error:
            raise InputError(f"cannot open serial port {shown(url)}: {describe_error(error)}") from error
        # Non-blocking from here on: every wait below goes through select with a deadline.
        sock.setblocking(False)
        return cls(url, sock, write_timeout)

    def _peer_state(self) -> str:
        """'open', 'closed' (orderly end of stream) or 'reset' (the connection failed)."""
        if self._socket.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            return "reset"
        readable, _, _ = select.select([self._socket], [], [], 0)
        if not readable:
            return "open"
        try:
            return "closed" if self._socket.recv(1, socket.MSG_PEEK) == b"" else "open"
        except BlockingIOError:
            return "open"
        except OSError:
            return "reset"

    def write(self, data: bytes) -> int:
        """Send ``data``; return how many bytes the system took. Raises OSError on failure."""
        if self._peer_state() != "open":
            raise ConnectionResetError(
                errno.ECONNRESET, f"the other end closed the connection; 0 of {len(data)} bytes sent")
        view = memoryview(data)
        deadline = None if self._write_timeout is None else time.monotonic() + self._write_timeout
        while self._written < len(data):
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            _, writable, _ = select.select([], [self._socket], [], remaining)
            if not writable:
                raise TimeoutError(
                    errno.ETIMEDOUT, f"write timed out; {self._written} of {len(data)} bytes sent")
            try:
                self._written += self._socket.send(view[self._written:])
            except BlockingIOError:
                continue
        return self._written

    def flush(self) -> None:
        """Wait until the other end has acknowledged everything; OSError if it did not.

        An acknowledgement only says the bytes reached the other system: a server
        that closes without reading them resets the connection instead, so the
        wait goes on for DELIVERY_LINGER_SECONDS after it to catch that.
        """
        deadline = time.monotonic() + DELIVERY_SECONDS
        pending = _unacknowledged_bytes(self._socket)
        acknowledged_at = None
        while True:
            state = self._peer_state()
            if state == "reset":
                # After a reset the system forgets its queue, so count from the last look.
                acknowledged = f"; {self._written - pending} of {self._written} bytes acknowledged" if pending else ""
                raise ConnectionResetError(errno.ECONNRESET, f"the other end dropped the connection{acknowledged}")
            if not pending:
                # Without an acknowledgement count (not Linux) only a reset can be seen.
                now = time.monotonic()
                acknowledged_at = acknowledged_at or now
                # An orderly close once everything is acknowledged means it was read.
                if state == "closed" or now - acknowledged_at >= DELIVERY_LINGER_SECONDS:
                    return
            elif time.monotonic() >= deadline:
                raise TimeoutError(
                    errno.ETIMEDOUT, f"{pending} of {self._written} bytes not acknowledged after {DELIVERY_SECONDS:g} s")
            time.sleep(DELIVERY_POLL_SECONDS)
            pending = _unacknowledged_bytes(self._socket)

    def close(self) -> None:
        self._socket.close()
