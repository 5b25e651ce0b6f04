"""The VP1 processor model: bundles executed exactly, and programs run from a flat word array.

:class:`Vp1Machine` owns the execution model: a bundle's four units read the state as it was
before the bundle (§2.2), their results are committed in the write priorities of §2.3
(:func:`commit`), two units sharing a read port read the same register (§2.4), and the scalar
unit hands the vector unit the s2v value (§6). The unit semantics are in the
``semantics_*`` modules, the register files in :mod:`.state`, the data store in
:mod:`.datastore` and bundle formation in :mod:`.bundles`.

The single-bundle interface is the one the golden vectors check (``load_state``,
``execute_bundle``, ``dump_state``, ``data_store``); :meth:`Vp1Machine.run` runs a program.

Choices where the hardware is unknown (spec §13), all constructor keywords:

* ``loop_taken`` — when a loop branch (e1/e3/e5/e7) is taken, P holding in every case:
  ``"before"`` (default, the spec's hypothesis) while the counter byte *before* the update is
  non-zero, so a loop with counter N runs its body N + 1 times and leaves ``$l`` reloaded;
  ``"after"`` while the counter after the update is non-zero; ``"always"`` whenever P holds.
* ``return_stack_depth`` (default 4) — calls push the return address on a stack of this many
  entries; a call on a full stack and a ``ret`` on an empty one stop the program with an error.
  ``$uc0`` (MMIO 0xf500, where the hardware test reads the return address) shows the latest
  return address pushed.
* ``ret_delay_slot`` (default True) — ``ret`` takes effect after one more bundle, like a branch.
* ``exit_delay_slot`` (default False) — ``exit`` stops after its own bundle; with True, after
  one more bundle.
* ``empty_scalar_word`` (default ``0x4fffffff``, ``snop``) — what the scalar unit runs in a
  bundle without a scalar word. Only the s2v path shows it (§13: a vector op consuming s2v
  factors with no scalar word has no ground truth); this ``snop`` reads ``$r31`` = 0, so such a
  vector op sees four zero factors, zero masks and no ``$vc`` selection.
* Program mode refuses what has no model: DMA (c3 c7 ce cf), opcode db, the FIFO (``$f``),
  ``mov`` with file field 4–7 and branch opcodes e9, eb–ee, f1–fe (:class:`~.state.NotModelled`,
  naming the word and its address). Single bundles (``execute_bundle``) carry out the register
  effects the hardware model gives the undocumented branch opcodes and file fields 4–7 (G80).
* ``$tick`` (``$sr30``) counts executed bundles; ``$sr``, ``$mi``, ``$uc`` and ``$d`` are plain
  storage.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.diagnostics import InputError
from .bundles import NOPS, SCALAR, bundle_length, slots
from .datastore import DataStore
from .semantics_address import ADDRESS_OPS
from .semantics_branch import BRANCH_OPS, CALL, EXIT, JUMP, RETURN, UNKNOWN
from .semantics_scalar import RFILE, SCALAR_OPS, SRC1, bilinear_registers
from .semantics_vector import VECTOR_OPS
from .state import C_ALWAYS_ONE, C_ALWAYS_ZERO, TICK, NotModelled, Pending, Vp1State, check_chip

LOOP_RULES = ("before", "after", "always")
V_STORES = frozenset({0xC4, 0xC5, 0xD4, 0xD5, 0xDC, 0xDD, 0xD7})  # address ops that read a $v to store (or ldr)
R_STORES = frozenset({0xC6, 0xD6, 0xDE})  # address ops that store a $r
UNDOCUMENTED_BRANCHES = frozenset({0xE9, *range(0xEB, 0xEF), *range(0xF1, 0xFF)})


class ProgramError(InputError):
    """A program that cannot go on: it ran off its words, or its calls and returns do not
    match the return stack."""


class BundleLimit(InputError):
    """A program that did not exit within its bundle budget."""


def commit(state: Vp1State, store: DataStore, pending: Pending) -> None:
    """Apply one bundle's writes. Each register file's writers are applied lowest priority
    first, so the higher one overwrites (§2.3):

    * ``$r``: scalar result > address-unit load > scalar ``mov`` from ``$c``/``$v``/``$a``/``$l``;
    * ``$v``: vector result > address-unit load > scalar ``mov`` to a ``$v`` word;
    * ``$a``: scalar ``mov`` > address-unit result;
    * ``$l``: branch unit > scalar ``mov``.

    ``$c`` writers own different bits (scalar 0–7, address 8–10, branch 13), so they merge.
    """
    r = state.r
    for write in (pending.scalar_r_move, pending.address_r, pending.scalar_r):
        if write is not None:
            r[write[0]] = write[1]
    r[31] = 0
    if pending.scalar_v_word is not None:
        index, word_index, value = pending.scalar_v_word
        state.v[index][4 * word_index:4 * word_index + 4] = value.to_bytes(4, "little")
    for write in (pending.address_v, pending.vector_v):
        if write is not None:
            state.v[write[0]] = list(write[1])
    if pending.address_vx is not None:
        state.vx = list(pending.address_vx)
    if pending.vector_va is not None:
        state.va = pending.vector_va
    if pending.vector_vc is not None:
        state.vc[pending.vector_vc[0]] = pending.vector_vc[1]
    for write in (pending.address_a, pending.scalar_a):
        if write is not None:
            state.a[write[0]] = write[1]
    c = state.c
    for write in (pending.address_c, pending.scalar_c, pending.branch_c):
        if write is not None:
            index, mask, bits = write
            c[index] = (((c[index] & ~mask) | (bits & mask)) & ~C_ALWAYS_ZERO) | C_ALWAYS_ONE
    for write in (pending.scalar_l, pending.branch_l):
        if write is not None:
            state.l[write[0]] = write[1]
    if pending.scalar_other is not None:
        name, index, value = pending.scalar_other
        getattr(state, name)[index] = value
    data = store.data
    for place, value in pending.stores:
        data[place] = value
    state.sr[TICK] = (state.sr[TICK] + 1) & 0xFFFFFFFF


class RunResult:
    """How a program run ended: ``bundles`` executed, ``exit_code`` and ``interrupt`` of the
    ``exit`` that stopped it, and ``pc`` after it."""

    __slots__ = ("bundles", "exit_code", "interrupt", "pc")

    def __init__(self, bundles: int, exit_code: int, interrupt: bool, pc: int):
        self.bundles, self.exit_code, self.interrupt, self.pc = bundles, exit_code, interrupt, pc

    def __repr__(self) -> str:
        return f"RunResult(bundles={self.bundles}, exit_code={self.exit_code:#x}, interrupt={self.interrupt})"


class Vp1Machine:
    """One VP1: register files, data store, and a program (``image``: words, or little-endian
    bytes) run from word 0. See the module docstring for the keyword choices."""

    def __init__(self, image=None, *, chip: str = "g80", loop_taken: str = "before", return_stack_depth: int = 4,
                 ret_delay_slot: bool = True, exit_delay_slot: bool = False,
                 empty_scalar_word: int = NOPS[SCALAR]):
        if loop_taken not in LOOP_RULES:
            raise ValueError(f"loop_taken must be one of {', '.join(LOOP_RULES)}, not {loop_taken!r}")
        if return_stack_depth < 1:
            raise ValueError("return_stack_depth must be at least 1")
        if not 0 <= empty_scalar_word >> 24 < 0x80:
            raise ValueError(f"empty_scalar_word {empty_scalar_word:#x} is not a scalar-unit word")
        self.chip = check_chip(chip)
        self.loop_taken = loop_taken
        self.return_stack_depth = return_stack_depth
        self.ret_delay_slot = ret_delay_slot
        self.exit_delay_slot = exit_delay_slot
        self.empty_scalar_word = empty_scalar_word
        self.state = Vp1State(chip)
        self.store = DataStore()
        self.program: list[int] = []
        self.load_program(image)

    # --- the single-bundle interface ----------------------------------------------------------

    def load_state(self, before: dict[str, list[str]], data_store: bytes | bytearray | None = None) -> None:
        """Set every register file from a golden state's ``before`` (file → hex strings) and,
        when given, the 8,192-byte data store (layout of :mod:`.datastore`)."""
        self.state.load(before)
        if data_store is not None:
            self.store.load(data_store)

    def dump_state(self) -> dict[str, list[str]]:
        """The register files in the shape of ``before``: same keys, widths, lowercase hex."""
        return self.state.dump()

    @property
    def data_store(self) -> bytes:
        """A ``bytes`` snapshot of the 8,192-byte data store: the byte of bank b at cell byte k
        is at offset 16·k + b."""
        return bytes(self.store.data)

    @data_store.setter
    def data_store(self, image: bytes | bytearray) -> None:
        self.store.load(image)

    def execute_bundle(self, words, address: int = 0):
        """Run one bundle: 1 to 4 words in A, S, V, B order. ``address`` is where it sits (for
        relative branch targets). Returns the branch unit's :class:`~.semantics_branch.Flow`,
        or None; control flow itself is :meth:`run`'s business. DMA, opcode db and ``$f``
        raise :class:`~.state.NotModelled`."""
        if not 1 <= len(words) <= 4:
            raise ValueError(f"a bundle has 1 to 4 words, not {len(words)}")
        return self._execute(slots([int(word) & 0xFFFFFFFF for word in words]), address)

    def _execute(self, units, address: int):
        address_word, scalar_word, vector_word, branch_word = units
        state = self.state
        pending = Pending()
        if branch_word is not None:
            pending.exit_in_bundle = branch_word >> 24 == 0xFF
        if scalar_word is None:
            scalar_word = self.empty_scalar_word
        elif address_word is not None:
            share_read_ports(state, pending, address_word, scalar_word)
        SCALAR_OPS[scalar_word >> 24](state, scalar_word, pending)
        if address_word is not None:
            ADDRESS_OPS[(address_word >> 24) - 0xC0](state, self.store, address_word, pending)
        if vector_word is not None:
            VECTOR_OPS[(vector_word >> 24) - 0x80](state, vector_word, pending)
        if branch_word is not None:
            BRANCH_OPS[(branch_word >> 24) - 0xE0](state, branch_word, pending, address)
        commit(state, self.store, pending)
        return pending.flow

    # --- programs -----------------------------------------------------------------------------

    def load_program(self, image) -> None:
        """Take the program words (ints, little-endian bytes, or an object with ``words``) and
        reset control flow to word 0; the registers and data store stay."""
        self.program = program_words(image)
        self._prepared: dict[int, tuple[int, list[int], list]] = {}  # pc → (length, words, slots)
        self.reset_flow()

    def reset_flow(self) -> None:
        self.pc = 0
        self.redirect: int | None = None  # where the bundle after the current delay slot goes
        self.redirect_is_call = False
        self.return_stack: list[int] = []
        self.stop_after_next = False
        self.exited = False
        self.exit_code = 0
        self.interrupt = False
        self.bundles = 0

    def step(self) -> list[int]:
        """Run the bundle at ``pc`` and move ``pc`` on; returns the bundle's words."""
        if self.exited:
            raise ProgramError("the program has exited")
        pc, program = self.pc, self.program
        if not 0 <= pc < len(program):
            raise ProgramError(f"word {pc:#x}: past the end of the program ({len(program)} words) without exit"
                               if pc >= 0 else f"branch to a negative word address {pc:#x}")
        prepared = self._prepared.get(pc)
        if prepared is None:
            prepared = self._prepared[pc] = self._prepare(pc)
        length, bundle, units = prepared
        try:
            flow = self._execute(units, pc)
        except NotModelled as error:
            raise error.at(pc + bundle.index(error.word)) from None
        self.bundles += 1
        sequential = pc + length
        next_pc = sequential
        if self.stop_after_next:
            self.exited = True
        if self.redirect is not None:  # this bundle was a delay slot
            next_pc = self.redirect
            if self.redirect_is_call:
                self._push_return(sequential, pc)
            self.redirect = None
        if flow is not None:
            next_pc = self._flow(flow, next_pc, pc)
        self.pc = next_pc
        return bundle

    def _prepare(self, pc: int) -> tuple[int, list[int], list]:
        """The bundle at ``pc``, formed and checked once: its length, words and unit slots."""
        program = self.program
        length = bundle_length(program, pc)
        bundle = program[pc:pc + length]
        for offset, word in enumerate(bundle):
            reason = program_refusal(word, self.chip)
            if reason:
                raise NotModelled(word, reason, pc + offset)
        return length, bundle, slots(bundle)

    def _flow(self, flow, next_pc: int, pc: int) -> int:
        if flow.kind == EXIT:
            self.exit_code, self.interrupt = flow.code, flow.interrupt
            if self.exit_delay_slot:
                self.stop_after_next = True
            else:
                self.exited = True
        elif flow.kind in (JUMP, CALL):
            if flow.condition and (flow.loop is None or self._loop_continues(flow.loop)):
                self.redirect, self.redirect_is_call = flow.target, flow.kind == CALL
        elif flow.kind == RETURN:
            if not self.return_stack:
                raise ProgramError(f"word {pc:#x}: ret with an empty return stack")
            target = self.return_stack.pop()
            if self.ret_delay_slot:
                self.redirect, self.redirect_is_call = target, False
            else:
                next_pc = target
        elif flow.kind == UNKNOWN:  # only reachable when program_refusal lets it through
            raise ProgramError(f"word {pc:#x}: undocumented branch opcode")
        return next_pc

    def _loop_continues(self, loop: tuple[int, int]) -> bool:
        before, after = loop
        if self.loop_taken == "before":
            return before != 0
        if self.loop_taken == "after":
            return after != 0
        return True

    def _push_return(self, address: int, pc: int) -> None:
        if len(self.return_stack) >= self.return_stack_depth:
            raise ProgramError(f"word {pc:#x}: call with the return stack full "
                               f"({self.return_stack_depth} entries, return_stack_depth)")
        self.return_stack.append(address)
        self.state.uc[0] = address

    def run(self, max_bundles: int = 1_000_000, trace: Callable | None = None) -> RunResult:
        """Run from the current ``pc`` until ``exit``; :class:`BundleLimit` after
        ``max_bundles`` bundles. ``trace(address, words, before)`` is called after each bundle
        with a copy of the state from before it."""
        start = self.bundles
        while not self.exited:
            if self.bundles - start >= max_bundles:
                raise BundleLimit(f"stopped after {max_bundles:,} bundles without exit (at word {self.pc:#x}); "
                                  "raise --max-bundles if the program needs more")
            address = self.pc
            before = self.state.copy() if trace is not None else None
            before_store = self.data_store if trace is not None else None
            words = self.step()
            if trace is not None:
                trace(address, words, before, before_store)
        return RunResult(self.bundles - start, self.exit_code, self.interrupt, self.pc)


def share_read_ports(state: Vp1State, pending: Pending, address_word: int, scalar_word: int) -> None:
    """§2.4: where the scalar and address units read the same file through one port, the
    register one of them names is read by both."""
    scalar_op, address_op = scalar_word >> 24, address_word >> 24
    if address_op == 0xD7 and not address_word & 1:
        stores_v = True  # ldr reads its index vector through the port
    else:
        stores_v = address_op in V_STORES
    if scalar_op == 0x6B and RFILE(scalar_word) < 4 and stores_v:
        pending.port_v_store = SRC1(scalar_word)
    if address_op in R_STORES:
        if scalar_op == 0x6A:
            pending.port_r_move = SRC1(address_word)
        elif scalar_op in (0x04, 0x05):
            pending.port_r_store = bilinear_registers(state, scalar_word)[1]


def program_refusal(word: int, chip: str) -> str | None:
    """Why a program may not run ``word``, or None: DMA, opcode db, the FIFO, ``mov`` file
    fields 4–7 and the undocumented branch opcodes have no model (§13)."""
    opcode = word >> 24
    if opcode in (0xC3, 0xC7, 0xCE, 0xCF):
        return {0xC3: "the DMA load xdld", 0xC7: "the DMA store xdst", 0xCE: "the DMA barrier xdbar",
                0xCF: "the DMA wait xdwait"}[opcode]
    if opcode == 0xDB:
        return "the undocumented address opcode 0xdb"
    if opcode in (0x6A, 0x6B):
        rfile = RFILE(word)
        if rfile == 23:
            return "the FIFO register file $f"
        if 4 <= rfile < 8:
            return f"mov with register file field {rfile} (undocumented)"
    if opcode in UNDOCUMENTED_BRANCHES:
        return f"the undocumented branch opcode {opcode:#x}"
    return None


def program_words(image) -> list[int]:
    """Program words from a list of ints, little-endian bytes, or an object with ``words``."""
    if image is None:
        return []
    if hasattr(image, "words"):
        image = image.words
    if isinstance(image, (bytes, bytearray, memoryview)):
        data = bytes(image)
        if len(data) % 4:
            raise InputError(f"a VP1 program is whole 32-bit words; {len(data)} bytes is not")
        return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    return [int(word) & 0xFFFFFFFF for word in image]


__all__ = ["Vp1Machine", "RunResult", "ProgramError", "BundleLimit", "NotModelled", "commit"]
