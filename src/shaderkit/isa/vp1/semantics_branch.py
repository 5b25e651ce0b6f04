"""What every VP1 branch-unit opcode (0xe0–0xff) does: one function per mnemonic (spec §9).

Each function is ``op(state, word, pending, address)`` (``address`` = the word address of the
branch, for relative targets): it records its ``$l`` and ``$c`` writes in ``pending`` and
describes its effect on control flow as a :class:`Flow` in ``pending.flow``. Whether a
conditional branch is *taken*, when it takes effect (delay slots) and where calls keep their
return addresses are the machine's business (:mod:`.machine`), because several of those rules
are unknown (§13) and configurable there; a :class:`Flow` carries the facts they need.
``BRANCH_OPS[opcode - 0xe0]`` is the function for an opcode byte.
"""

from __future__ import annotations

from .fields import FIELDS

COND = FIELDS["cond"].read
SLCT = FIELDS["slct"].read
CDST = FIELDS["cdst"].read
IMM16 = FIELDS["imm16"].read
BTARG = FIELDS["btarg"]
ABTARG = FIELDS["abtarg"]

LOOP_FLAG = 1 << 13  # $c bit 13, "lzf"

JUMP, CALL, RETURN, EXIT, UNKNOWN = "jump", "call", "return", "exit", "unknown"


class Flow:
    """What a branch word asks of control flow.

    ``kind`` is ``jump``, ``call``, ``return``, ``exit`` or ``unknown`` (an undocumented opcode);
    ``condition`` whether its predicate P holds (True for unconditional ones); ``loop`` for loop
    branches the ``$l`` counter byte before and after the update; ``target`` the word address
    of a jump or call; ``code``/``interrupt`` those of ``exit``.
    """

    __slots__ = ("kind", "condition", "target", "loop", "code", "interrupt")

    def __init__(self, kind: str, *, condition: bool = True, target: int | None = None,
                 loop: tuple[int, int] | None = None, code: int = 0, interrupt: bool = False):
        self.kind, self.condition, self.target, self.loop = kind, condition, target, loop
        self.code, self.interrupt = code, interrupt

    def __repr__(self) -> str:
        fields = [f"{name}={getattr(self, name)!r}" for name in self.__slots__[1:]
                  if getattr(self, name) not in (None, 0, False, True) or name == "condition"]
        return f"Flow({self.kind}, {', '.join(fields)})"


def predicate(state, word: int) -> bool:
    """P: bit SLCT of ``$c[COND]`` (the short form has COND 0, SLCT 15 = ``true``)."""
    return bool(state.c[COND(word)] >> SLCT(word) & 1)


def relative_target(word: int, address: int) -> int:
    """``(address & ~3) + sext15(bits 9–23) · 4``."""
    return BTARG.value(BTARG.read(word), address)


def set_loop_flag(word: int, pending, value: bool = True) -> None:
    """``[c]``: ``$c[bits 0–1]`` bit 13 takes ``value`` iff bit 2 is 0."""
    cdst = CDST(word)
    if not cdst & 4:
        pending.branch_c = (cdst & 3, LOOP_FLAG, LOOP_FLAG if value else 0)


def step_loop(state, word: int, pending) -> tuple[int, int]:
    """The loop register update (§9): ``v = $l[bits 3–4]``; a non-zero counter byte counts down,
    a zero one reloads from the high byte; ``$l[bits 0–1] = v`` and ``[c]`` bit 13 = counter
    now zero. Returns the counter byte before and after."""
    value, before, after = loop_step(state.l[COND(word)])
    pending.branch_l = (word & 3, value)
    set_loop_flag(word, pending, after == 0)
    return before, after


def loop_step(value: int) -> tuple[int, int, int]:
    """One loop register update (a plain integer rule, which the compiled loop runs too): the
    new ``$l`` value and the counter byte before and after."""
    before = value & 0xFF
    value = value - 1 if before else value | value >> 8
    return value, before, value & 0xFF


def conditional(state, word: int, pending, address: int, kind: str, negate: bool) -> None:
    set_loop_flag(word, pending)
    pending.flow = Flow(kind, condition=predicate(state, word) != negate, target=relative_target(word, address))


def looping(state, word: int, pending, address: int, kind: str, negate: bool) -> None:
    loop = step_loop(state, word, pending)
    pending.flow = Flow(kind, condition=predicate(state, word) != negate, target=relative_target(word, address),
                        loop=loop)


def bra(state, word, pending, address):
    """e0 ``bra [c] P TARGET``: branch if P is set."""
    conditional(state, word, pending, address, JUMP, False)


def bra_not(state, word, pending, address):
    """e2 ``bra [c] not P TARGET``: branch if P is clear."""
    conditional(state, word, pending, address, JUMP, True)


def bra_loop(state, word, pending, address):
    """e1 ``bra loop $lD [c] $lS P TARGET``: loop register update, branch as the machine's loop
    rule says."""
    looping(state, word, pending, address, JUMP, False)


def bra_loop_not(state, word, pending, address):
    """e3 ``bra loop … not P TARGET``."""
    looping(state, word, pending, address, JUMP, True)


def call(state, word, pending, address):
    """e4 ``call [c] P TARGET``: call if P is set."""
    conditional(state, word, pending, address, CALL, False)


def call_not(state, word, pending, address):
    """e6 ``call [c] not P TARGET``: call if P is clear."""
    conditional(state, word, pending, address, CALL, True)


def call_loop(state, word, pending, address):
    """e5 ``call loop …``: loop register update, call as the loop rule says."""
    looping(state, word, pending, address, CALL, False)


def call_loop_not(state, word, pending, address):
    """e7 ``call loop … not P``."""
    looping(state, word, pending, address, CALL, True)


def ret(state, word, pending, address):
    """e8 ``ret [c]``: return to the address the last call saved."""
    set_loop_flag(word, pending)
    pending.flow = Flow(RETURN)


def abra(state, word, pending, address):
    """ea ``abra ABS``: jump to word ``bits 0–15 × 4``; no ``$c``."""
    pending.flow = Flow(JUMP, target=ABTARG.value(ABTARG.read(word)))


def bnop(state, word, pending, address):
    """ef: no operation, bits 0–23 ignored."""


def mov_loop(state, word, pending, address):
    """f0 ``mov $lI $cI IMM16`` (I = bits 19–20): ``$l[I] = IMM16``; ``$c[I]`` bit 13 = counter
    byte zero."""
    index = word >> 19 & 3
    value = IMM16(word)
    pending.branch_l = (index, value)
    pending.branch_c = (index, LOOP_FLAG, LOOP_FLAG if value & 0xFF == 0 else 0)


def exit_(state, word, pending, address):
    """ff ``exit [intr] IMM16``: stop; the code goes to EXIT_CODE, ``intr`` (bit 16) raises the
    interrupt."""
    pending.flow = Flow(EXIT, code=IMM16(word), interrupt=bool(word >> 16 & 1))


def undocumented(state, word, pending, address):
    """e9, eb–ee, f1–fe: only their ``$c`` effect is known (bit 13 set by ``[c]``); what they do
    to control flow is not."""
    set_loop_flag(word, pending)
    pending.flow = Flow(UNKNOWN)


def _table():
    table = [undocumented] * 32
    for opcode, function in {0xE0: bra, 0xE1: bra_loop, 0xE2: bra_not, 0xE3: bra_loop_not, 0xE4: call,
                             0xE5: call_loop, 0xE6: call_not, 0xE7: call_loop_not, 0xE8: ret, 0xEA: abra,
                             0xEF: bnop, 0xF0: mov_loop, 0xFF: exit_}.items():
        table[opcode - 0xE0] = function
    return tuple(table)


BRANCH_OPS = _table()  # indexed by opcode - 0xe0
