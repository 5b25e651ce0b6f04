"""Issue 10, the TPP flasher at its edges: ports that hang up mid-transfer, pyserial URLs
with bad options, TCP servers that drop the upload, pattern ports and auto-detection that
must never pick a console, and the command line showing one line with exit code 2 for
each failure."""

from __future__ import annotations

import os
import socket
import sys
import threading
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from shaderkit.cli import main
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.tpp import serial_ports, uart
from conftest import assert_one_line_error

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX pseudo-terminals")
UPLOAD = uart.upload_bytes([0x1083, 0x58A3] + [0x0000] * 17 + [0x6003]) + uart.divisor_byte(5)


def flash(*arguments: str):
    """Run ``shaderkit flash -m tpp --time-divisor 5`` in-process; the result has .stderr."""
    return CliRunner().invoke(main, ["flash", "-m", "tpp", "--time-divisor", "5", *arguments])


# --- a port that hangs up mid-transfer ---------------------------------------------------


@pytest.fixture
def pseudo_terminal():
    """(master fd, slave device name); the test may close the master to hang up."""
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)
    state = SimpleNamespace(master=master, name=name)

    def hang_up():
        if state.master is not None:
            os.close(state.master)
            state.master = None

    state.hang_up = hang_up
    yield state
    hang_up()


@POSIX_ONLY
def test_hang_up_between_write_and_drain_is_an_input_error(pseudo_terminal):
    # The bytes reach the terminal, then the other side goes away before tcdrain:
    # termios raises termios.error, which is not an OSError.
    connection = uart.open_port(pseudo_terminal.name, baudrate=uart.BAUDRATE)
    real_write = connection.write

    def write_then_hang_up(data):
        written = real_write(data)
        pseudo_terminal.hang_up()
        return written

    connection.write = write_then_hang_up
    try:
        with pytest.raises(InputError) as excinfo:
            uart.transmit(connection, UPLOAD, settle_seconds=0)
    finally:
        connection.close()
    assert str(excinfo.value) == f"cannot send to serial port {pseudo_terminal.name}: Input/output error"


@POSIX_ONLY
def test_hang_up_before_the_write_is_an_input_error(pseudo_terminal, monkeypatch):
    # The settling pause is where the other side goes away.
    monkeypatch.setattr(uart.time, "sleep", lambda seconds: pseudo_terminal.hang_up())
    with pytest.raises(InputError, match=f"^cannot send to serial port {pseudo_terminal.name}: "):
        uart.send(UPLOAD, pseudo_terminal.name)


@POSIX_ONLY
def test_flash_to_a_port_that_hangs_up_is_one_line_and_exit_2(pseudo_terminal, monkeypatch):
    monkeypatch.setattr(uart.time, "sleep", lambda seconds: pseudo_terminal.hang_up())
    assert_one_line_error(flash("--port", pseudo_terminal.name), f"serial port {pseudo_terminal.name}")


class FailingPort:
    """A connection whose ``failing`` method raises ``error``; records calls."""

    port = "/dev/ttyFAKE0"

    def __init__(self, failing: str, error: BaseException, written: int | None = None):
        self.failing, self.error, self.written, self.calls = failing, error, written, []

    def _call(self, name, result=None):
        self.calls.append(name)
        if name == self.failing:
            raise self.error
        return result

    def write(self, data):
        return self._call("write", len(data) if self.written is None else self.written)

    def flush(self):
        self._call("flush")

    def close(self):
        self._call("close")


def termios_error(code: int, text: str) -> BaseException:
    import termios

    return termios.error(code, text)


@POSIX_ONLY
@pytest.mark.parametrize("failing, error, message", [
    ("flush", lambda: termios_error(5, "Input/output error"), "cannot send to serial port /dev/ttyFAKE0: Input/output error"),
    ("write", lambda: serial_ports.serial.SerialTimeoutException("Write timeout"),
     "cannot send to serial port /dev/ttyFAKE0: Write timeout"),
    ("close", lambda: termios_error(5, "Input/output error"), "cannot close serial port /dev/ttyFAKE0: Input/output error"),
])
def test_serial_and_termios_errors_become_one_line_input_errors(monkeypatch, failing, error, message):
    port = FailingPort(failing, error())
    monkeypatch.setattr(uart, "open_port", lambda name, baudrate, write_timeout: port)
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, "/dev/ttyFAKE0", settle_seconds=0)
    assert str(excinfo.value) == message
    assert port.calls[-1] == "close"


def test_a_short_write_is_an_error_naming_the_count(monkeypatch):
    port = FailingPort("nothing", OSError(), written=7)
    monkeypatch.setattr(uart, "open_port", lambda name, baudrate, write_timeout: port)
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, "/dev/ttyFAKE0", settle_seconds=0)
    assert str(excinfo.value) == f"cannot send to serial port /dev/ttyFAKE0: only 7 of {len(UPLOAD)} bytes sent"


def test_the_write_timeout_grows_with_the_upload():
    assert uart.write_timeout(b"") == 2.0
    # 61 bytes at 9600 baud take 64 ms on the wire; the limit allows four times that.
    assert uart.write_timeout(UPLOAD) == pytest.approx(2.0 + 4 * 10 * len(UPLOAD) / 9600)


# --- pyserial URLs with bad options --------------------------------------------------------


@pytest.mark.parametrize("port, message", [
    ("loop://?bogus=1", "loop://?bogus=1: loop:// takes no options"),
    ("loop://?logging=bogus", "loop:// takes no options"),
    ("loop://?logging=debug", "loop:// takes no options"),
    ("socket://127.0.0.1:7?logging=x", "socket:// takes no options"),
    ("socket://127.0.0.1:99999", "expected socket://HOST:PORT with PORT 1..65535"),
    ("socket://127.0.0.1:0", "expected socket://HOST:PORT with PORT 1..65535"),
    ("socket://host:abc", "expected socket://HOST:PORT with PORT 1..65535"),
    ("socket://", "expected socket://HOST:PORT with PORT 1..65535"),
    ("socket://127.0.0.1", "expected socket://HOST:PORT with PORT 1..65535"),
    ("rfc2217://127.0.0.1:7?bogus", "unknown option 'bogus' (rfc2217:// takes ign_set_control, poll_modem"),
    ("rfc2217://127.0.0.1:7?logging=bogus", "unknown option 'logging'"),
    ("rfc2217://127.0.0.1:7?timeout=x", "timeout= needs a number of seconds above 0, got 'x'"),
    ("rfc2217://127.0.0.1:7?timeout=nan", "timeout= needs a number of seconds above 0"),
    ("rfc2217://127.0.0.1:7?timeout=-1", "timeout= needs a number of seconds above 0"),
    ("rfc2217://127.0.0.1:abc", "expected rfc2217://HOST:PORT with PORT 1..65535"),
    ("hwgrep://(", "hwgrep://(: bad pattern: missing )"),
    ("hwgrep://.*&n=x", "n= needs a whole number from 1, got 'x'"),
    ("hwgrep://.*&n=0", "n= needs a whole number from 1, got '0'"),
    ("hwgrep://.*&n=²", "n= needs a whole number from 1"),
    ("hwgrep://.*&skip_busy", "unknown option 'skip_busy' (hwgrep:// takes only n=N)"),
    ("spy://loop://", "spy://loop://: unsupported port URL; use a device name, loop://"),
    ("spy://loop://?file=out.txt", "unsupported port URL"),
    ("alt://loop://?class=x", "unsupported port URL"),
    ("cp2110://x", "unsupported port URL"),
    ("", "no serial port: --port was given an empty name"),
    ("a\0b", "the name contains a null byte"),
])
def test_bad_port_names_are_input_errors(port, message, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # where spy's file= would have written
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: [])
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, port, settle_seconds=0)
    assert message in str(excinfo.value)
    assert "\n" not in str(excinfo.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("port", ["loop://?bogus=1", "loop://?logging=debug", "spy://loop://",
                                  "socket://127.0.0.1:99999", "hwgrep://(", "rfc2217://h:1?logging=debug"])
def test_flash_with_a_bad_port_url_is_one_line_and_exit_2(port, monkeypatch):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: [])
    assert_one_line_error(flash("--port", port), port)


def test_a_port_name_with_a_line_break_stays_on_one_line(tmp_path):
    port = str(tmp_path / "tty\nUSB0")
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, port, settle_seconds=0)
    assert "\n" not in str(excinfo.value)
    assert repr(port) in str(excinfo.value)


@pytest.mark.parametrize("kind", ["directory", "regular file", "fifo"])
def test_a_port_that_is_not_a_terminal_device_is_refused_untouched(tmp_path, kind):
    path = tmp_path / "port"
    if kind == "directory":
        path.mkdir()
    elif kind == "regular file":
        path.write_bytes(b"keep")
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, str(path), settle_seconds=0)
    assert str(excinfo.value) == f"cannot open serial port {path}: not a terminal device"
    if kind == "regular file":
        assert path.read_bytes() == b"keep"


def test_loop_url_without_options_still_works():
    assert uart.send(UPLOAD, "loop://", settle_seconds=0) == f"sent {len(UPLOAD)} bytes to loop://"


# --- TCP ports ---------------------------------------------------------------------------


class LoopbackServer:
    """A one-connection TCP server on 127.0.0.1.

    ``behaviour`` is "close at once" (accept, then close), "close unread" (wait until
    data has arrived, then close without reading it) or "read everything".
    """

    def __init__(self, behaviour: str):
        self.behaviour = behaviour
        self.received = bytearray()
        self.closed = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(10)
        self.url = f"socket://127.0.0.1:{self.listener.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        try:
            connection.settimeout(10)
            if self.behaviour == "close unread":
                connection.recv(1, socket.MSG_PEEK)
            elif self.behaviour == "read everything":
                while chunk := connection.recv(4096):
                    self.received += chunk
        except OSError:
            pass
        finally:
            connection.close()
            self.closed.set()

    def stop(self):
        self.listener.close()
        self.thread.join(timeout=15)
        assert not self.thread.is_alive(), "loopback server did not stop"


@pytest.fixture
def loopback_server():
    servers = []

    def start(behaviour):
        servers.append(LoopbackServer(behaviour))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def test_a_tcp_port_that_closes_at_once_is_an_error_not_a_success(loopback_server, monkeypatch):
    server = loopback_server("close at once")
    # The settling pause lasts until the server has closed: nothing can be sent.
    monkeypatch.setattr(uart.time, "sleep", lambda seconds: server.closed.wait(10))
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, server.url)
    assert str(excinfo.value) == (
        f"cannot send to serial port {server.url}: the other end closed the connection; 0 of {len(UPLOAD)} bytes sent")


def test_a_tcp_port_that_closes_without_reading_is_an_error(loopback_server, monkeypatch):
    # The server's system acknowledges the bytes, then the server closes without reading
    # them, which resets the connection; the lingering look must see that.
    monkeypatch.setattr(serial_ports, "DELIVERY_LINGER_SECONDS", 5.0)
    server = loopback_server("close unread")
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, server.url, settle_seconds=0)
    assert str(excinfo.value).startswith(
        f"cannot send to serial port {server.url}: the other end dropped the connection")
    assert server.closed.is_set()


def test_a_tcp_port_that_reads_everything_reports_the_bytes_sent(loopback_server):
    server = loopback_server("read everything")
    summary = uart.send(UPLOAD, server.url, settle_seconds=0)
    assert summary == f"sent {len(UPLOAD)} bytes to {server.url}"
    server.thread.join(timeout=10)  # our close ends its read loop
    assert bytes(server.received) == UPLOAD


@pytest.mark.parametrize("behaviour", ["close at once", "close unread"])
def test_flash_to_a_tcp_port_that_drops_the_upload_is_one_line_and_exit_2(loopback_server, behaviour):
    server = loopback_server(behaviour)
    assert_one_line_error(flash("--port", server.url), server.url, "the other end")


def test_flash_to_a_tcp_port_that_reads_everything_succeeds(loopback_server):
    server = loopback_server("read everything")
    result = flash("--port", server.url)
    assert result.exit_code == 0, result.output
    server.thread.join(timeout=10)
    assert bytes(server.received) == uart.divisor_byte(5)


def test_a_refused_tcp_connection_is_an_input_error():
    with socket.socket() as bound_but_not_listening:
        bound_but_not_listening.bind(("127.0.0.1", 0))
        url = f"socket://127.0.0.1:{bound_but_not_listening.getsockname()[1]}"
        with pytest.raises(InputError, match=f"^cannot open serial port {url}: Connection refused$"):
            uart.send(UPLOAD, url, settle_seconds=0)


# --- pattern ports and auto-detection ----------------------------------------------------


def port_info(device, description="n/a", hwid="n/a", vid=None):
    return SimpleNamespace(device=device, description=description, hwid=hwid, vid=vid)


CONSOLE_AND_ADAPTER = [
    # Drivers may put anything in the free text; only the vendor id marks a USB device.
    port_info("/dev/ttyS0", "ttyS0 USB-looking console", "PNP0501 USB"),
    port_info("/dev/ttyUSB0", "CP2102 USB to UART Bridge", "USB VID:PID=10C4:EA60 LOCATION=1-1", 0x10C4),
]


class RecordingSerial:
    """Stands in for pyserial's port: remembers its name and what was written."""

    def __init__(self, port):
        self.port, self.dtr, self.written = port, True, bytearray()

    def open(self):
        assert self.dtr is False, "DTR must be low before opening"

    def write(self, data):
        self.written += data
        return len(data)

    def flush(self):
        pass

    def close(self):
        pass


@pytest.fixture
def opened_ports(monkeypatch):
    """The device names serial_for_url is asked to open (nothing real is opened)."""
    names = []

    def recording_serial_for_url(name, **settings):
        names.append(name)
        return RecordingSerial(name)

    monkeypatch.setattr(serial_ports.serial, "serial_for_url", recording_serial_for_url)
    monkeypatch.setattr(serial_ports, "_check_device", lambda name: None)
    return names


def test_hwgrep_match_all_picks_the_usb_adapter_not_the_console(monkeypatch, opened_ports):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: CONSOLE_AND_ADAPTER)
    assert uart.send(UPLOAD, "hwgrep://.*", settle_seconds=0) == f"sent {len(UPLOAD)} bytes to /dev/ttyUSB0"
    assert opened_ports == ["/dev/ttyUSB0"]


@pytest.mark.parametrize("pattern", ["hwgrep://.*", "hwgrep://ttyS", "hwgrep://usb", "hwgrep://PNP0501"])
def test_hwgrep_never_matches_a_console(monkeypatch, opened_ports, pattern):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: CONSOLE_AND_ADAPTER[:1])
    with pytest.raises(InputError) as excinfo:
        uart.send(UPLOAD, pattern, settle_seconds=0)
    assert str(excinfo.value) == (
        f"no USB serial port matches {pattern}; name one with --port (a device such as /dev/ttyUSB0 or COM3)")
    assert opened_ports == []


def test_hwgrep_searches_device_description_and_hwid_case_insensitively(monkeypatch):
    ports = [port_info("/dev/ttyUSB1", "FT232R", "USB VID:PID=0403:6001", 0x0403),
             port_info("/dev/ttyACM0", "Pico", "USB VID:PID=2E8A:000A", 0x2E8A)]
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: ports)
    assert serial_ports.match_usb_port("hwgrep://ft232") == "/dev/ttyUSB1"
    assert serial_ports.match_usb_port("hwgrep://2e8a") == "/dev/ttyACM0"
    assert serial_ports.match_usb_port("hwgrep://ttyusb") == "/dev/ttyUSB1"
    # Matches are taken in device-name order; n= counts them from 1.
    assert serial_ports.match_usb_port("hwgrep://USB") == "/dev/ttyACM0"
    assert serial_ports.match_usb_port("hwgrep://USB&n=1") == "/dev/ttyACM0"
    assert serial_ports.match_usb_port("hwgrep://USB&n=2") == "/dev/ttyUSB1"
    with pytest.raises(InputError, match=r"^only 2 USB serial port\(s\) match hwgrep://USB&n=3; name one"):
        serial_ports.match_usb_port("hwgrep://USB&n=3")


def test_auto_detection_picks_the_usb_adapter(monkeypatch, opened_ports):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: CONSOLE_AND_ADAPTER)
    assert uart.send(UPLOAD, settle_seconds=0) == f"sent {len(UPLOAD)} bytes to /dev/ttyUSB0"
    assert opened_ports == ["/dev/ttyUSB0"]


@pytest.mark.parametrize("device", ["/dev/ttyS0", "/dev/ttyS12", "/dev/console", "/dev/tty", "/dev/tty1"])
def test_auto_detection_never_picks_a_console_even_with_a_vendor_id(monkeypatch, opened_ports, device):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: [port_info(device, "USB", "USB", 0x1234)])
    with pytest.raises(InputError, match="^no USB serial port found; name one with --port"):
        uart.send(UPLOAD, settle_seconds=0)
    assert opened_ports == []


def test_flash_without_a_usb_adapter_says_how_to_name_a_port(monkeypatch, opened_ports):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: CONSOLE_AND_ADAPTER[:1])
    assert_one_line_error(flash(), "no USB serial port found", "--port")
    assert opened_ports == []


def test_flash_with_a_pattern_matching_only_a_console_is_one_line_and_exit_2(monkeypatch, opened_ports):
    monkeypatch.setattr(serial_ports.list_ports, "comports", lambda: CONSOLE_AND_ADAPTER[:1])
    assert_one_line_error(flash("--port", "hwgrep://.*"), "no USB serial port matches hwgrep://.*")
    assert opened_ports == []


def test_a_failing_port_listing_is_an_input_error(monkeypatch):
    def broken_listing():
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(serial_ports.list_ports, "comports", broken_listing)
    with pytest.raises(InputError, match="^cannot list serial ports: Permission denied$"):
        serial_ports.find_usb_port()


@pytest.mark.filterwarnings("error::DeprecationWarning")  # pyserial's own must not reach the user
def test_an_rfc2217_port_on_a_plain_tcp_server_is_a_bounded_one_line_error(loopback_server):
    # pyserial negotiates for timeout= seconds, then gives up; the server never answers.
    server = loopback_server("read everything")
    url = server.url.replace("socket://", "rfc2217://") + "?timeout=0.5"
    result = flash("--port", url)
    assert_one_line_error(result, f"cannot open serial port {url}: ", "RFC2217")
