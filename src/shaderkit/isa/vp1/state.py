"""The VP1 register files (spec §3) and their exchange format.

:class:`Vp1State` owns every register file as plain Python lists (small, fixed-size, indexed
by register number), and converts them to and from the golden vectors' state format: a dict
``file name → list of lowercase hex strings`` with the widths of
``tests/golden/vp1/bundles/README.md`` (``uccfg r v vx va vc a c l m x``).

Representation:

* ``r a m x sr mi uc d`` — ints of the file's width; ``uc[16]`` is ``$uccfg``;
* ``v`` — 32 lists of 16 byte values (component 0 first), ``vx`` one such list;
* ``va`` — 16 raw 28-bit two's-complement values (0 … 2**28 − 1);
* ``vc`` — 4 × 32 bits (sign flags in bits 0–15, zero flags in bits 16–31);
* ``c`` — 4 × 16 bits, ``l`` — 4 × 16 bits.

The files the golden format leaves out (``$sr``, ``$mi``, ``$uc`` other than ``$uccfg``, ``$d``)
are plain storage here, as spec §13 suggests; ``$f`` (FIFO) is not modelled.

Chip variants (§13): ``g80`` (default) has ``$x``, ``$d`` and the scalar flags 6–7; ``nv41`` and
``nv44`` have none of them, and their :meth:`Vp1State.dump` has no ``x`` key.
"""

from __future__ import annotations

from ...core.diagnostics import InputError

CHIPS = ("nv41", "nv44", "g80")

UCCFG = 16  # $uccfg is $uc16
TICK = 30  # $tick is $sr30, counted here in executed bundles
VA_BITS = 28
VA_MASK = (1 << VA_BITS) - 1

# file → (entries, hex digits per entry) in the golden state format, in its key order.
EXCHANGE_FILES = {
    "uccfg": (1, 8),
    "r": (32, 8),
    "v": (32, 32),
    "vx": (1, 32),
    "va": (16, 7),
    "vc": (4, 8),
    "a": (32, 8),
    "c": (4, 4),
    "l": (4, 4),
    "m": (64, 8),
    "x": (16, 8),
}

# $c bits that always read as given, whatever is written (§3.2): 11, 12, 14 are 0, 15 is 1.
C_ALWAYS_ZERO = (1 << 11) | (1 << 12) | (1 << 14)
C_ALWAYS_ONE = 1 << 15


def check_chip(chip: str) -> str:
    if chip not in CHIPS:
        raise ValueError(f"unknown VP1 chip {chip!r}: one of {', '.join(CHIPS)}")
    return chip


class Vp1State:
    """Every register file of one VP1; see the module docstring for the representation."""

    __slots__ = ("chip", "g80", "r", "v", "vx", "va", "vc", "a", "c", "l", "m", "x", "d", "sr", "mi", "uc")

    def __init__(self, chip: str = "g80"):
        self.chip = check_chip(chip)
        self.g80 = chip == "g80"
        self.r = [0] * 32
        self.v = [[0] * 16 for _ in range(32)]
        self.vx = [0] * 16
        self.va = [0] * 16
        self.vc = [0] * 4
        self.a = [0] * 32
        self.c = [C_ALWAYS_ONE] * 4
        self.l = [0] * 4
        self.m = [0] * 64
        self.x = [0] * 16
        self.d = [0] * 8
        self.sr = [0] * 32
        self.mi = [0] * 32
        self.uc = [0] * 32

    @property
    def scalar_flag_mask(self) -> int:
        """The scalar flag bits of a ``$c`` register this chip has: 0–7 on G80, 0–5 before."""
        return 0xFF if self.g80 else 0x3F

    def exchange_files(self) -> dict[str, tuple[int, int]]:
        """The files of the exchange format this chip has (pre-G80 has no ``x``)."""
        return {name: shape for name, shape in EXCHANGE_FILES.items() if self.g80 or name != "x"}

    def load(self, before: dict[str, list[str]]) -> None:
        """Set every register file from a golden state's ``before``: each file of this chip
        must be present with its full length; ``x`` is accepted and ignored before G80."""
        for name, (count, digits) in self.exchange_files().items():
            if name not in before:
                raise ValueError(f"the state has no {name!r} register file")
            values = before[name]
            if len(values) != count:
                raise ValueError(f"register file {name!r} has {len(values)} entries, not {count}")
            numbers = [_hex(value, name, digits) for value in values]
            self._set_file(name, numbers)
        unknown = set(before) - set(EXCHANGE_FILES)
        if unknown:
            raise ValueError(f"unknown register files in the state: {', '.join(sorted(unknown))}")

    def update(self, settings: dict) -> None:
        """Set some registers: ``settings`` maps file names of the exchange format to lists
        (registers from 0; shorter than the file is fine) of ints or hex strings (``0x``
        optional) that fit the file's width. Files not named keep their values. ValueError
        names what is wrong."""
        files = self.exchange_files()
        for name, values in settings.items():
            if name not in files:
                raise ValueError(f"unknown register file {name!r} (one of {', '.join(files)})")
            count, digits = files[name]
            if not isinstance(values, list) or len(values) > count:
                raise ValueError(f"register file {name!r} takes a list of at most {count} values")
            numbers = self._current(name)
            for index, value in enumerate(values):
                numbers[index] = _number(value, f"{name}[{index}]", 4 * digits)
            self._set_file(name, numbers)

    def _current(self, name: str) -> list[int]:
        """A file's values as numbers, in the exchange format's order."""
        return [int(text, 16) for text in self.dump()[name]]

    def _set_file(self, name: str, numbers: list[int]) -> None:
        if name == "uccfg":
            self.uc[UCCFG] = numbers[0]
        elif name == "v":
            self.v = [list(number.to_bytes(16, "big")) for number in numbers]
        elif name == "vx":
            self.vx = list(numbers[0].to_bytes(16, "big"))
        elif name == "r":
            numbers[31] = 0  # $r31 reads as zero
            self.r = numbers
        elif name == "c":
            absent = C_ALWAYS_ZERO | (0 if self.g80 else 0xC0)  # pre-G80: no scalar flags 6–7
            self.c = [(number & ~absent) | C_ALWAYS_ONE for number in numbers]
        else:
            setattr(self, name, numbers)

    def dump(self) -> dict[str, list[str]]:
        """Every register file in the exchange format, lowercase, zero-padded, in its key order."""
        out = {}
        for name, (_count, digits) in self.exchange_files().items():
            if name == "uccfg":
                numbers = [self.uc[UCCFG]]
            elif name == "v":
                numbers = [int.from_bytes(bytes(value), "big") for value in self.v]
            elif name == "vx":
                numbers = [int.from_bytes(bytes(self.vx), "big")]
            else:
                numbers = getattr(self, name)
            out[name] = [f"{number:0{digits}x}" for number in numbers]
        return out

    def copy(self) -> Vp1State:
        twin = Vp1State(self.chip)
        for name in ("r", "vx", "va", "vc", "a", "c", "l", "m", "x", "d", "sr", "mi", "uc"):
            setattr(twin, name, list(getattr(self, name)))
        twin.v = [list(value) for value in self.v]
        return twin


def _number(value, where: str, bits: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"{where}: {value!r} is not a number or a hex string")
    if isinstance(value, str):
        text = value.strip().lower().removeprefix("0x")
        try:
            value = int(text, 16)
        except ValueError:
            raise ValueError(f"{where}: {value!r} is not hexadecimal") from None
    if not 0 <= value < 1 << bits:
        raise ValueError(f"{where}: {value:#x} does not fit in {bits} bits")
    return value


def _hex(text: str, name: str, digits: int) -> int:
    if not isinstance(text, str) or len(text) != digits:
        raise ValueError(f"register file {name!r}: {text!r} is not {digits} hex digits")
    try:
        return int(text, 16)
    except ValueError:
        raise ValueError(f"register file {name!r}: {text!r} is not hexadecimal") from None


class Pending:
    """Everything one bundle will write, kept apart by writer until every unit has read.

    The units' semantics functions read :class:`Vp1State` and record their results here; the
    machine then commits them in the priority order of spec §2.3 (see
    :func:`shaderkit.isa.vp1.machine.commit`). A field is None (or empty) when its writer
    writes nothing. Index/value pairs are tuples; ``$c`` writes are ``(index, mask, bits)``.

    The ``port_*`` fields are set by the machine before the units run: they redirect a unit's
    register read through another unit's read port (§2.4).
    """

    __slots__ = (
        # scalar unit
        "scalar_r",        # (index, value): a scalar result (incl. mov from $m/$x), wins over all
        "scalar_r_move",   # (index, value): mov from $c/$v/$a/$l, loses to an address load
        "scalar_c",        # (index, mask, bits) of the scalar flag bits
        "scalar_v_word",   # (register, word 0–3, value)
        "scalar_a",        # (index, value)
        "scalar_l",        # (index, value)
        "scalar_other",    # (file name, index, value): $m $x $sr $mi $uc $d
        "s2v",             # the s2v value for the vector unit
        # address unit
        "address_r", "address_v", "address_vx", "address_a", "address_c",
        "stores",          # [(data-store offset, byte)]
        # vector unit
        "vector_v", "vector_va", "vector_vc",
        # branch unit
        "branch_l", "branch_c",
        "flow",            # None, or what the branch unit does to control flow (machine.Flow)
        # shared read ports (§2.4), set by the machine
        "port_v_store",    # $v index an address store/ldr reads instead of its own field
        "port_r_move",     # $r index a scalar 6a reads instead of its SRC1
        "port_r_store",    # $r index an address scalar store reads instead of its SRC1
        "exit_in_bundle",  # the bundle's branch word is exit (0xff)
    )

    def __init__(self):
        self.scalar_r = self.scalar_r_move = self.scalar_c = self.scalar_v_word = None
        self.scalar_a = self.scalar_l = self.scalar_other = self.s2v = None
        self.address_r = self.address_v = self.address_vx = self.address_a = self.address_c = None
        self.stores = []
        self.vector_v = self.vector_va = self.vector_vc = None
        self.branch_l = self.branch_c = self.flow = None
        self.port_v_store = self.port_r_move = self.port_r_store = None
        self.exit_in_bundle = False


def mangled_index(c_value: int, slct: int, index: int) -> int:
    """The register a mangled source names (spec §4.3): with SLCT 4, ``index`` rotated inside its
    aligned quad by bits 4–5 of ``c_value``; otherwise ``index`` with bit 0 flipped by the
    selected ``$c`` bit (SLCT 14 = ``false`` leaves it, 15 = ``true`` always flips)."""
    if slct == 4:
        return (index & ~3) | ((index + ((c_value >> 4) & 3)) & 3)
    return index ^ ((c_value >> slct) & 1)


def quad_register(base: int, rotation: int, element: int) -> int:
    """Element ``element`` of the quad at ``base`` rotated by ``rotation`` (spec §4.4)."""
    return (base & 0x1C) | ((base + rotation + element) & 3)


class NotModelled(InputError):
    """A word whose behaviour nobody has documented (DMA, FIFO, undocumented opcodes): the
    emulator stops rather than guess. ``word`` and ``address`` (None outside a program) say
    which."""

    def __init__(self, word: int, what: str, address: int | None = None):
        self.word, self.what, self.address = word, what, address
        where = "" if address is None else f" at word {address:#x}"
        super().__init__(f"{word:08x}{where}: {what} is not modelled by the VP1 emulator")

    def at(self, address: int) -> NotModelled:
        return NotModelled(self.word, self.what, address)
