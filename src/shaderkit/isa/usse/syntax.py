"""The pieces of USSE's assembly syntax (spec/usse.md §6.2), as core model bindings, and the
builder every form's declaration uses.

A statement reads ``[pred] mnemonic{.flag} dest.mask, src.swizzle, ...``:

* registers in 32-bit units after the form's doubling (§3.2): ``r``, ``o``, ``pa``, ``sa``,
  internal ``i0``–``i3``, constants ``c``/globals ``g``, ``idx``, immediates ``#n`` and indexed
  operands ``pa[idx1+3]``, each bank chosen by the operand's bank and extension fields (§3.1);
* source modifiers ``-r0``, ``|r0|``, ``-|r0|`` (§3.5);
* write masks and swizzles by channel, ``-`` at a disabled channel (``o4.x-z``), a swizzle shown
  at the channels the mask enables (:class:`~shaderkit.core.model.channels.Swizzle`);
* flags after the mnemonic in any order (``.skipinv.nosched.rpt3``).

:class:`FormSyntax` collects one form's operands under names of its own (``VMAD2_dest``) and,
at the end, gives every field of the form its operand text: fields the form's syntax does not
show yet print as trailing ``name=value`` operands, left out while 0, so every word a form
matches reads back as itself.
"""

from __future__ import annotations

from functools import cache

from ...core.model.assignments import Assignments
from ...core.model import (Case, Choice, Flags, Immediate, Operand, Registers, SubTable, Swizzle, bit_pattern, case,
                           field, form, mask_names)
from . import tables

MASK = Choice(mask_names())
IMMEDIATE = Immediate(prefix="#")
HEX_IMMEDIATE = Immediate(prefix="#", radix=16)


@cache
def register_names(bank: str, width: int, doubled: bool, internal_bits: int | None, index: int = 0) -> Registers:
    """The names of a ``width``-bit register number field in ``bank`` (§3.2): doubled numbers
    count 64-bit pairs; a temporary at or above the internal limit is ``i0``–``i3``."""
    names = {}
    for raw in range(1 << width):
        number = (raw << 1) & 0xFF if doubled else raw
        if bank == "special":
            names[raw] = (f"g{raw & 0x3F}" if raw & 0x40 else f"c{raw}",)
        elif bank == "indexed":
            names[raw] = (f"{tables.INDEXED_BANKS[raw >> 5 & 3]}[idx{index}+{raw & 31}]",)
        elif bank == "idx":
            names[raw] = (f"idx{raw}",)
        elif bank == "r" and internal_bits is not None and number >= _internal_limit(internal_bits, doubled):
            offset = number - _internal_limit(internal_bits, doubled)
            names[raw] = (f"i{offset >> 1 if doubled else offset}",)
        else:
            names[raw] = (f"{bank}{number}",)
    return Registers(names)


def _internal_limit(bits: int, doubled: bool) -> int:
    return (1 << bits) - (8 if doubled else 4)


class FormSyntax:
    """One form's declarations being built (one per fixed value of a selector field, sharing
    operands): the fields (spec §10 names plus ``_``-prefixed combinations) and the operand bindings."""

    def __init__(self, name: str, pattern: str, fields: dict[str, str], rest: str = "unused"):
        self.name = name
        self.pattern = pattern
        self.fields: dict[str, object] = dict(fields)
        self.operands: dict = {}
        self.pieces: dict[str, tuple[str, ...]] = {}  # combined field -> the fields it covers whole
        self.unused = _unused_layout(pattern, fields)
        self.rest = f"_{rest}"  # the field of the free bits, written as "<rest>=0x…"

    def width(self, name: str) -> int:
        declared = self.fields[name]
        return (field(declared) if isinstance(declared, str) else declared).width

    def bind(self, role: str, binding) -> str:
        """``{placeholder}`` for ``binding`` under a name of this form's own."""
        name = f"{self.name}_{role}"
        self.operands[name] = binding
        return name

    def slot(self, role: str, binding, optional: bool = False) -> str:
        return "{" + self.bind(role, binding) + ("?}" if optional else "}")

    def combined(self, name: str, *pieces: str, layout: str | None = None) -> str:
        """A ``_name`` field of the named fields' bits, most significant first (a swizzle code
        spread over several fields), or of ``layout`` when only some bits of a piece belong to
        it: a form showing the combination carries the pieces it covers whole."""
        self.fields[f"_{name}"] = field(layout or ",".join(self.fields[piece] for piece in pieces))
        self.pieces[f"_{name}"] = pieces
        return f"_{name}"

    # -- operands ----------------------------------------------------------------------------

    def register(self, role: str, *, banks: dict, bank: str, ext: str | None, number: str,
                 doubled: bool = False, internal_bits: int | None = None) -> str:
        """A register operand: one case per (bank field, extension bit) value of ``banks`` (only
        the extension-0 banks where the form has no extension bit)."""
        width = self.width(number)
        cases = []
        for (bank_value, ext_value), kind in banks.items():
            if ext is None and ext_value:
                continue
            fixed = {bank: bank_value}
            if ext is not None:
                fixed[ext] = ext_value
            cases.append(case("{" + self._number(role, kind, number, width, doubled, internal_bits) + "}", **fixed))
        # Where numbers count 64-bit pairs an odd register cannot be named: say so rather than
        # that the text is no register at all.
        refusals = ((r"(?:r|o|pa|sa)\d*[13579]", "register numbers here count 64-bit pairs: give an even number"),) \
            if doubled else ()
        return self.bind(role, SubTable(tuple(cases), title="register", order="first", refusals=refusals))

    def _number(self, role: str, kind: str, number: str, width: int, doubled: bool,
                internal_bits: int | None) -> str:
        if kind == "imm":
            return self.bind(f"{role}_imm", Operand(number, IMMEDIATE))
        # register_names applies the doubling only to the banks it concerns (§3.2).
        indexed = kind.startswith("indexed")
        registers = register_names("indexed" if indexed else kind, width, doubled, internal_bits,
                                   int(kind[-1]) if indexed else 0)
        return self.bind(f"{role}_{kind}", Operand(number, registers, title="register"))

    def gpi(self, role: str, number: str) -> str:
        """An internal register named by a 2-bit number (VMAD, VDP, VDUAL's GPI operands)."""
        return self.bind(role, Operand(number, Registers({n: (f"i{n}",) for n in range(4)}), title="register"))

    def modified(self, role: str, register: str, *, modifier: str | None = None, negate: str | None = None,
                 absolute: str | None = None) -> str:
        """``register`` with its source modifier (§3.5): a 2-bit field (none, -, |x|, -|x|), or
        separate negate and absolute bits (either may be absent)."""
        negate = negate if negate in self.fields else None  # VDP's gpi0 has an absolute bit only
        absolute = absolute if absolute in self.fields else None
        inner = "{" + register + "}"
        spellings = {(False, False): inner, (True, False): "-" + inner, (False, True): f"|{inner}|",
                     (True, True): f"-|{inner}|"}
        cases: list[Case] = []
        if modifier is not None:
            width = self.width(modifier)
            meanings = tables.MODIFIERS if width == 2 else ((False, False), (False, True))
            cases = [case(spellings[meaning], **{modifier: value}) for value, meaning in enumerate(meanings)]
        else:
            for negated in (False, True) if negate else (False,):
                for absolute_value in (False, True) if absolute else (False,):
                    fixed = {}
                    if negate:
                        fixed[negate] = int(negated)
                    if absolute:
                        fixed[absolute] = int(absolute_value)
                    cases.append(case(spellings[negated, absolute_value], **fixed))
        return self.bind(role, SubTable(tuple(cases), title="source", order="first"))

    def write_mask(self, field_name: str) -> str:
        return self.bind("mask", Operand(field_name, MASK, title="write mask"))

    def swizzle(self, role: str, code: str, table, mask: str | None, title: str = "swizzle") -> str:
        return self.bind(role, Swizzle(code, tuple(table), mask, title=title))

    def choice(self, role: str, field_name: str, names) -> str:
        return self.bind(role, Operand(field_name, Choice(dict(enumerate(names)) if not isinstance(names, dict)
                                                          else names)))

    def flags(self, *entries: tuple[str, str, int], role: str = "flags") -> str:
        """A flag set: (flag, field, value) entries."""
        return self.bind(role, Flags(tuple((flag, (field_name, value)) for flag, field_name, value in entries)))

    # -- the form -----------------------------------------------------------------------------

    def build(self, template: str, *, shown: set[str] | None = None, **fixed: int):
        """The form: ``template`` plus a trailing operand of ``name=value`` assignments for the
        fields no operand of it reads and the pattern's free bits (``_unused``), each shown when not 0."""
        read = set(fixed)
        placeholders = [name for name in self.operands if "{" + name in template]
        for name in placeholders:
            read |= set(self._fields_of(self.operands[name]))
        carries = [piece for name in self.pieces if name in read for piece in self.pieces[name]]
        read |= set(carries)
        extras = [field_name for field_name in self.fields if field_name not in read and not field_name.startswith("_")]
        if self.unused:
            self.fields[self.rest] = field(self.unused, in_place=True)
            extras.append(self.rest)
        if extras:
            binding = self.bind(f"raw_{'_'.join(extras)}", Assignments(tuple(extras)))
            words = template.split()
            mnemonic = next(index for index, word in enumerate(words) if not word.startswith("{"))
            template += (", " if len(words) > mnemonic + 1 else " ") + "{" + binding + "?}"
        return form(template, name=self.name, pattern=bit_pattern(self.pattern), fields=self.fields,
                    carries=tuple(dict.fromkeys(carries)), **fixed)

    def _fields_of(self, binding) -> list[str]:
        names = []
        if isinstance(binding, SubTable):
            for row in binding.cases:
                names += [name for name, _ in row.fixed]
                for slot in row.token.slots:
                    names += self._fields_of(self.operands[slot.name])
        elif isinstance(binding, Flags):
            names += [name for _, (name, _) in binding.entries]
        else:
            names.append(binding.field)
        if isinstance(binding, Swizzle) and binding.mask:
            names.append(binding.mask)
        return names


def _unused_layout(pattern: str, fields: dict) -> str:
    """The layout of the bits of ``pattern`` that are neither fixed nor in a field ('' if none)."""
    mask, _ = bit_pattern(pattern)
    for layout in fields.values():
        mask |= field(layout).mask if isinstance(layout, str) else layout.mask
    return ",".join(str(bit) for bit in range(63, -1, -1) if not mask >> bit & 1)
