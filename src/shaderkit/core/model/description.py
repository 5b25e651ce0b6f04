"""The description of one instruction set, and the decoder, encoder and printer derived from it.

A :class:`Description` holds named :mod:`fields <.fields>`, named operand
:mod:`bindings <.operands>` and one :class:`~.instruction.Form` per instruction, declared the
way it reads in assembly (``form("ADD{cond} {rd} {rs}", op=3)``). From that it derives:

* the **decoder** — total: words no form accepts, or (by :mod:`policy <.policies>`) words
  that set bits their form does not claim, decode to a ``.word`` data item whose note says
  what they are, so a listing always re-assembles to the same words;
* the **encoder** — form + raw fields → words, of the form's length plus the words its
  chosen sub-table cases add;
* the **printer** — the template filled in from the bits;
* the **parser** (:mod:`.parser`) — text → form + fields, from the same template.

A form may issue several operations at once (a vector and a scalar unit sharing one
instruction): with ``issue_separator`` (``"+"``) its template is the operations' templates
joined by it (``"MUL {vdst}, {s0}, {s1} + RCP {sdst}, {s2}"``); each operation has its own
mnemonic and operands, and a placeholder used by two operations (a shared source) must read
the same in both.

Instructions of several words are handled as one integer: with
``first_word_most_significant`` the first word holds the high bits (TPP, THEIA); otherwise
word k holds bits ``k·word_bits`` and up, so a field keeps its place whatever the
instruction's length (variable-length instructions need this order).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, reduce

from ..bits import BitField, combine_words, split_words
from .fields import Field, as_field
from .instruction import DATA, Form, Instruction, data_item, named_forms
from ..diagnostics import SourceError
from .kinds import CodeAddress, ParseContext
from .operands import Binding, Operand, Reading
from .parser import StatementParser
from .policies import AS_DATA, FEWEST_LOST, FIRST_MATCH, MOST_SPECIFIC, Annotate, AsData, Bundler
from .templates import Slot, Template, Token, compile_expression, compile_predicate, parse_template, split_operands

__all__ = ["Description"]


@dataclass
class CompiledForm:
    form: Form
    mask: int
    match: int
    template: Template  # the first (usually only) operation, parsed with the description's separator
    predicates: dict  # conditional slot name → predicate on raw fields
    length: int
    parts: tuple[Template, ...] = ()  # every operation of a co-issued form, in text order
    implied: tuple = ()  # (field name, expression on raw fields)
    extra_words: object = None  # expression on raw fields
    fields: Mapping = None  # the description's fields with the form's own over them
    scope: object = None  # the description as this form sees it (its fields); set after compiling

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(slot for part in self.parts for slot in part.slots)

    @property
    def tokens(self) -> tuple[Token, ...]:
        return tuple(token for part in self.parts for token in part.tokens)


class Description(StatementParser):
    """Everything the generic tools need to know about one instruction set (one variant).

    Beyond fields, operands and forms:

    * ``describe_unknown(value)`` — the note of a word no form accepts;
    * ``annotate(instruction, value)`` — an optional remark on a decoded one;
    * ``unavailable`` — forms of related variants this one lacks, each with the reason the
      parser gives when one is used (``"is rev B only"``);
    * ``modifier_as_operand`` — a placeholder of the mnemonic token (a condition suffix) that
      may instead be written as an extra last operand, the alternative spelling of
      assemblers that take conditions as operands (``ADD R0 RT LT`` = ``ADDLT R0 RT``);
    * ``missing_operands`` (``"error"`` or ``"zero"``: missing operands read as 0) and
      ``extra_operands`` (``"error"`` or ``"ignore"``) — the operand-count policy of the
      upstream assembler the ISA follows;
    * ``order`` — :data:`~.policies.MOST_SPECIFIC`, :data:`~.policies.FIRST_MATCH` or
      :data:`~.policies.FEWEST_LOST`;
    * ``issue_separator`` — the text joining co-issued operations of one form (module docstring);
    * ``unknown_bits`` — :data:`~.policies.AS_DATA` or :class:`~.policies.Annotate`;
    * ``bundles`` — how an instruction stream groups into bundles (:func:`~.policies.rank_runs`);
    * ``max_length`` — the longest instruction in words, when cases add words;
    * ``overlapping_operands`` — ``"last wins"`` (default: of two fields a text sets that share
      bits, the later one's bits stand, as RSX's hint fields over its operands) or ``"must agree"``
      (a text whose operands give shared bits different values is refused: USSE's VPCK selector
      bit inside a register number);
    * ``data_separator`` — what separates the words of a printed ``.word`` item (``", "`` where
      operands are comma-separated);
    * ``instruction_noun`` — how messages name a statement (``"unknown fragment program
      instruction 'FOO'"``).
    """

    def __init__(self, name: str, *, word_bits: int, fields: Mapping[str, Field | BitField],
                 operands: Mapping[str, Binding], forms: Sequence[Form],
                 words_per_instruction: int = 1, first_word_most_significant: bool = True,
                 operand_separator: str = r"\s+", case_sensitive: bool = False,
                 modifier_as_operand: str | None = None, missing_operands: str = "error",
                 extra_operands: str = "error", unavailable: Sequence[tuple[Form, str]] = (),
                 describe_unknown: Callable[[int], str] | None = None,
                 annotate: Callable[[Instruction, int], str] | None = None,
                 order: str = MOST_SPECIFIC, unknown_bits: AsData | Annotate = AS_DATA,
                 bundles: Bundler | None = None, max_length: int | None = None,
                 issue_separator: str | None = None, instruction_noun: str = "instruction",
                 overlapping_operands: str = "last wins", data_separator: str = " "):
        self.name = name
        self.instruction_noun = instruction_noun
        if overlapping_operands not in ("last wins", "must agree"):
            raise ValueError(f"{name}: unknown overlapping-operand policy {overlapping_operands!r}")
        self.overlapping_operands = overlapping_operands
        self.data_separator = data_separator
        self.word_bits = word_bits
        self.words_per_instruction = words_per_instruction
        self.max_length = max_length or words_per_instruction
        self.first_word_most_significant = first_word_most_significant
        if self.max_length > words_per_instruction and first_word_most_significant:
            raise ValueError(f"{name}: variable-length instructions need word 0 as the least significant word")
        self.instruction_bits = word_bits * words_per_instruction
        self.fields = {field_name: as_field(declared) for field_name, declared in fields.items()}
        self.operands = dict(operands)
        self.forms = named_forms(forms)
        self.operand_separator = re.compile(operand_separator)
        self.issue_separator = issue_separator
        self._issue_pattern = re.compile(r"\s*" + re.escape(issue_separator) + r"\s*") if issue_separator else None
        self.case_sensitive = case_sensitive
        if missing_operands not in ("error", "zero") or extra_operands not in ("error", "ignore"):
            raise ValueError(f"{name}: unknown operand-count policy")
        self.modifier_as_operand = modifier_as_operand
        self.missing_operands = missing_operands
        self.extra_operands = extra_operands
        self.describe_unknown = describe_unknown or (lambda value: "unknown instruction")
        # A remark about a cleanly decoded instruction (e.g. a variant that executes it differently).
        self.annotate = annotate or (lambda instruction, value: "")
        if order not in (MOST_SPECIFIC, FIRST_MATCH, FEWEST_LOST):
            raise ValueError(f"{name}: unknown match order {order!r}")
        self.order = order
        self.unknown_bits = unknown_bits
        self.bundles = bundles
        self._compiled = [self._compile(f) for f in self.forms]
        self._by_form = {id(compiled.form): compiled for compiled in self._compiled}
        self._by_template: dict[str, CompiledForm] = {}
        for compiled in self._compiled:
            self._by_template.setdefault(compiled.form.template, compiled)
        self._unavailable = [(self._compile(f), reason)
                             for f, reason in zip(named_forms([f for f, _ in unavailable]), (r for _, r in unavailable))]
        if order == MOST_SPECIFIC:
            self._check_unambiguous()
        self._buckets = self._bucket_by_common_bits()
        super().__init__()
        self._scope_forms()  # last: each scope is a copy of the finished description

    # -- derivation ---------------------------------------------------------------------

    def _compile(self, declared: Form) -> CompiledForm:
        fields = {**self.fields, **{name: as_field(local) for name, local in declared.fields}}
        mask, match = declared.pattern
        for field_name, value in declared.fixed:
            declared_field = fields[field_name]
            mask |= declared_field.mask
            match = declared_field.write(match, value)
        parts = tuple(parse_template(text, self.operand_separator) for text, _ in self.operations(declared.template))
        predicates = {}
        known = set(fields)
        for slot in (slot for part in parts for slot in part.slots):
            if slot.name not in self.operands:
                raise ValueError(f"{self.name}: {declared.template!r} names no operand {slot.name!r}")
            if slot.conditional:
                predicates[slot.name] = compile_predicate(slot.condition_text, known)
        for name in (*(name for name, _ in declared.implied), *declared.carries):
            if name not in fields:
                raise ValueError(f"{self.name}: {declared.template!r} implies or carries no field {name!r}")
        if not set(declared.overrides) <= {name for name, _ in declared.implied}:
            raise ValueError(f"{self.name}: {declared.template!r} overrides a field it does not imply")
        implied = tuple((name, _expression(expression, known)) for name, expression in declared.implied)
        return CompiledForm(declared, mask, match, parts[0], predicates, declared.length or self.words_per_instruction,
                            parts, implied, _expression(declared.extra_words, known), fields)

    def _scope_forms(self) -> None:
        """Give each form the description it reads its bits through: this one, or for a form
        with fields of its own a copy whose ``fields`` hold them (the rest is shared), so every
        operand and rule finds a field name in the form's own namespace first."""
        for compiled in self._compiled:
            if compiled.form.fields:
                scope = copy.copy(self)
                scope.fields = compiled.fields
                compiled.scope = scope
            else:
                compiled.scope = self

    def operations(self, text: str) -> list[tuple[str, int]]:
        """(operation text, column) pairs of a statement or template: one unless the
        description co-issues operations (brackets and placeholders never split)."""
        if self._issue_pattern is None:
            return [(text, 1)]
        return split_operands(text, self._issue_pattern, protect_placeholders=True) or [(text, 1)]

    def _check_unambiguous(self) -> None:
        seen: dict[tuple[int, int], str] = {}
        for compiled in self._decodable():
            key = (compiled.mask, compiled.match)
            if key in seen:
                raise ValueError(f"{self.name}: forms {seen[key]!r} and {compiled.form.template!r} share an encoding")
            seen[key] = compiled.form.template

    def _bucket_by_common_bits(self) -> dict[int, list[CompiledForm]]:
        full = (1 << (self.word_bits * self.max_length)) - 1
        self._common_mask = reduce(lambda a, b: a & b, (c.mask for c in self._decodable()), full)
        buckets: dict[int, list[CompiledForm]] = {}
        for compiled in self._decodable():
            buckets.setdefault(compiled.match & self._common_mask, []).append(compiled)
        for candidates in buckets.values():
            if self.order == MOST_SPECIFIC:
                candidates.sort(key=lambda c: bin(c.mask).count("1"), reverse=True)
            candidates.sort(key=_preference)  # stable: fallback forms last, the most specific first
        return buckets

    def _decodable(self) -> list[CompiledForm]:
        """The forms the decoder may choose (not the spelling-only ones)."""
        return [compiled for compiled in self._compiled if not compiled.form.spelling_only]

    def compiled(self, declared: Form) -> CompiledForm:
        """The compiled form of ``declared`` (one of this description's forms, or an equal one)."""
        return self._by_form.get(id(declared)) or self._by_template[declared.template]

    def unused_bits(self, template: str) -> int:
        """Bits of an instruction of form ``template`` that it neither fixes nor reads (for a
        form whose sub-tables pick cases, the fields of every case count as read)."""
        compiled = self._by_template[template]
        if compiled.scope is not self:
            return compiled.scope.unused_bits(template)
        used = compiled.mask | compiled.form.ignore
        for field_name in (*(name for name, _ in compiled.implied), *compiled.form.carries):
            used |= self.fields[field_name].mask
        for slot in compiled.slots:
            for field_name in self.operands[slot.name].fields_set(self):
                used |= self.fields[field_name].mask
        return ((1 << (self.word_bits * compiled.length)) - 1) & ~used

    # -- decode -------------------------------------------------------------------------

    def _value(self, words: Sequence[int]) -> int:
        return combine_words(words, self.word_bits, self.first_word_most_significant)

    def _words(self, value: int, count: int) -> tuple[int, ...]:
        return split_words(value, count, self.word_bits, self.first_word_most_significant)

    def decode(self, words: Sequence[int], address: int = 0, labels: Mapping[int, str] | None = None,
               names: Mapping[str, Mapping[int, str]] | None = None) -> Instruction:
        """The instruction at the start of ``words`` (``.length`` says how many it takes);
        never raises for in-range words. ``labels`` and ``names`` are the ones it will be
        printed with (a jump target without a label may print as a stand-in)."""
        base = self.words_per_instruction
        available = tuple(words[:self.max_length])
        if len(available) < base:
            return data_item(available, address, f"truncated: {base} words needed")
        value = self._value(available if self.max_length > base else available[:base])
        best = None
        for compiled in self._buckets.get(value & self._common_mask, ()):
            if value & compiled.mask != compiled.match:
                continue
            preference = _preference(compiled)
            if best is not None and preference > best[0][0]:
                break  # a fallback, or a less specific one, is only for words nothing better fits
            found = self._decoded(compiled, value, address, available, labels, names)
            if self.order != FEWEST_LOST:
                return self._kept(*found)
            # A reading longer than the words at hand (truncated) loses to any that fits.
            rank = (preference, found[0].is_data, self._cost(found[1]))
            if best is None or rank < best[0]:
                best = (rank, found)
            if rank == (preference, False, 0):
                break
        if best is not None:
            return self._kept(*best[1])
        return data_item(available[:base], address, self.describe_unknown(self._value(available[:base])))

    def _decoded(self, compiled: CompiledForm, value: int, address: int, available: tuple[int, ...],
                 labels=None, names=None) -> tuple[Instruction, int, int, str]:
        """The instruction of ``compiled``'s form at ``value``, the bits its text loses, the
        value and a remark (or a data item and 0 when the words are too few)."""
        if compiled.scope is not self:
            return compiled.scope._decoded(compiled, value, address, available, labels, names)
        reading = Reading(self, value, address, labels, names)
        self.claim(compiled, reading)
        length = compiled.length + reading.extra_words + self._extra_words(compiled, value)
        if len(available) < length:
            return data_item(available, address, f"truncated: {compiled.form.mnemonic} needs {length} words"), 0, 0, ""
        taken = available[:length]
        value &= (1 << (self.word_bits * length)) - 1
        reading.original &= (1 << (self.word_bits * length)) - 1
        instruction = self._instance(compiled, reading, address, taken, length)
        shown = self._with_implied(compiled, reading)
        used = compiled.mask | compiled.form.ignore | reduce(
            lambda bits_used, name: bits_used | self.fields[name].mask,
            (*reading.used, *(name for name, _ in compiled.implied), *compiled.form.carries), 0)
        whole = (1 << (self.word_bits * length)) - 1
        if getattr(self.unknown_bits, "unclaimed_only", False):
            stray = value & ~used & whole
        else:
            stray = (value & ~used | (value ^ shown) & used) & whole
        return instruction, stray, value, self.annotate(instruction, value)

    def _extra_words(self, compiled: CompiledForm, value: int) -> int:
        """Words the form's ``extra_words`` expression adds for this instruction value."""
        if not compiled.form.extra_words:
            return 0
        return compiled.extra_words(_Fields(self, value))

    def _cost(self, lost: int) -> int:
        """How much a text loses: the reporting fields it touches (see Annotate), else bits."""
        reported = getattr(self.unknown_bits, "fields", ())
        if reported:
            return sum(1 for name in reported if lost & self.fields[name].mask)
        return bin(lost).count("1")

    def _with_implied(self, compiled: CompiledForm, reading: Reading) -> int:
        """What the text of a decoded instruction stands for: its shown value with the fields
        of operands it leaves out at their defaults, and every implied field its operands did
        not read (and every overriding one) at the value its form implies."""
        shown = reading.value
        implied = {field_name for field_name, _ in compiled.implied}
        absent = [slot for slot in compiled.slots
                  if slot.conditional and not compiled.predicates[slot.name](reading)]
        if absent:
            # Bits the operands the text shows hold keep their value: the parser writes an
            # absent operand's default first and the shown operands over it (a loop register in
            # the low bits of an absent condition destination).
            absent_names = {slot.name for slot in absent}
            shown_bits = 0
            for slot in compiled.slots:
                if slot.name not in absent_names:
                    for field_name in self.operands[slot.name].fields_set(self):
                        shown_bits |= self.fields[field_name].mask
            before = shown
            for slot in absent:
                # An operand the text leaves out reads back at its fields' defaults (as the parser
                # fills them in), whatever let the decoder leave it out.
                for field_name in self.operands[slot.name].fields_set(self):
                    if field_name not in implied:
                        shown = self.fields[field_name].write(shown, self.fields[field_name].default or 0)
            shown = shown & ~shown_bits | before & shown_bits
        overrides = compiled.form.overrides
        for field_name, expression in compiled.implied:
            if (field_name not in reading.used or field_name in overrides) and field_name not in compiled.form.carries:
                shown = self.fields[field_name].write(shown, expression(_Fields(self, shown)))
        return shown

    def _kept(self, instruction: Instruction, stray: int, value: int, remark: str) -> Instruction:
        """``instruction`` as the unknown-bit policy keeps it."""
        if instruction.is_data:
            return instruction
        address, taken = instruction.address, instruction.words
        if stray and isinstance(self.unknown_bits, AsData):
            note = f"= {self.format(instruction)}, unused bits set (0x{stray:x})"
            return data_item(taken, address, f"{note}; {remark}" if remark else note)
        if isinstance(self.unknown_bits, AsData) and self.unknown_bits.verify:
            note = self._reads_back_otherwise(instruction)
            if note:
                return data_item(taken, address, f"{note}; {remark}" if remark else note)
        if stray and isinstance(self.unknown_bits, Annotate) and stray & self.unknown_bits.mask:
            instruction = replace(instruction, unknown_bits=stray & self.unknown_bits.mask)
        return replace(instruction, note=remark) if remark else instruction

    def _reads_back_otherwise(self, instruction: Instruction) -> str:
        """Why the text of ``instruction`` does not stand for its words ('' when it does): the
        words it assembles to instead, or that it does not read back at all."""
        text = self.format(instruction)
        try:
            again = self.encode(self.parse(text, ParseContext(address=instruction.address)))
        except SourceError as error:
            return f"= {text}, which does not read back ({error.message})"
        if tuple(again) == tuple(instruction.words):
            return ""
        hex_digits = (self.word_bits + 3) // 4
        return f"= {text}, which assembles to " + " ".join(f"0x{word:0{hex_digits}x}" for word in again)

    def _instance(self, compiled: CompiledForm, reading: Reading, address: int,
                  words: tuple[int, ...], length: int) -> Instruction:
        """The instruction as ``reading`` (already rendered) found it: the fields it claims —
        fixed ones and those its rendering read — in declaration order, so a parsed and a
        decoded instruction of the same meaning compare equal."""
        values = tuple(dict.fromkeys((slot.name, value) for slot in compiled.slots
                                     if (value := self.operands[slot.name].value(reading)) is not None))
        claimed = ({field_name for field_name, _ in compiled.form.fixed} | reading.used
                   | {field_name for field_name, _ in compiled.implied} | set(compiled.form.carries))
        raw = tuple((field_name, declared.read(reading.original))
                    for field_name, declared in self.fields.items() if field_name in claimed)
        return Instruction(compiled.form.mnemonic, raw, compiled.form, compiled.form.name, address, words,
                           values=values, length=length, unknown_operand=reading.unknown_operand)

    # -- encode -------------------------------------------------------------------------

    def encode(self, instruction: Instruction) -> tuple[int, ...]:
        if instruction.is_data:
            return tuple(instruction.operands)
        compiled = self.compiled(instruction.declaration)
        value = compiled.match
        for field_name, raw in instruction.raw:
            value = compiled.fields[field_name].write(value, raw)
        return self._words(value, instruction.length)

    # -- print --------------------------------------------------------------------------

    def format(self, instruction: Instruction, labels: Mapping[int, str] | None = None,
               names: Mapping[str, Mapping[int, str]] | None = None) -> str:
        """Assembly text; jump targets found in ``labels`` (address → name) print as names, and
        so do values of other operands found in ``names`` (field → value → name)."""
        if instruction.is_data:
            hex_digits = (self.word_bits + 3) // 4
            return f"{DATA} " + self.data_separator.join(f"0x{w:0{hex_digits}x}" for w in instruction.operands)
        compiled = self.compiled(instruction.declaration)
        value = self._value(self.encode(instruction))
        return self.render(compiled, Reading(compiled.scope, value, instruction.address, labels, names))

    def render(self, compiled: CompiledForm, reading: Reading) -> str:
        """The text of an instruction of ``compiled``'s form with the bits ``reading`` holds."""
        texts = [self._render_part(compiled, part, reading) for part in compiled.parts]
        return f" {self.issue_separator} ".join(texts) if self.issue_separator else texts[0]

    def _render_part(self, compiled: CompiledForm, part: Template, reading: Reading) -> str:
        printed: list[tuple[Token, str]] = []
        for token in part.tokens:
            condition = token.conditional
            if condition is not None and not compiled.predicates[condition.name](reading):
                continue
            rendered = self.render_token(token, reading)
            if rendered:  # an optional prefix or flag set with nothing to show
                printed.append((token, rendered))
        # A trailing optional operand left at its default is left out.
        while printed and self._omissible(printed[-1][0], reading):
            printed.pop()
        text = ""
        operands = set(map(id, part.operands))
        first_operand = True
        for index, (token, rendered) in enumerate(printed):
            separator = token.separator
            if id(token) in operands:
                # The first operand shown follows the mnemonic as the template's first operand
                # does, whichever operands before it are left out.
                if first_operand and part.operands:
                    separator = part.operands[0].separator
                first_operand = False
            text += (separator if index else "") + rendered
        return text

    def claim(self, compiled: CompiledForm, reading: Reading) -> None:
        """What :meth:`render` reads, without building the text: the fields the instruction
        claims (``reading.used``) and the words its cases add (``reading.extra_words``)."""
        for token in compiled.tokens:
            condition = token.conditional
            if condition is not None and not compiled.predicates[condition.name](reading):
                continue
            for slot in token.slots:
                self.operands[slot.name].claim(reading)

    def _omissible(self, token: Token, reading: Reading) -> bool:
        slot = token.single_slot
        return slot is not None and slot.optional and self.operands[slot.name].is_default(reading)

    def render_token(self, token: Token, reading: Reading) -> str:
        return "".join(piece if isinstance(piece, str) else self.operands[piece.name].render(reading)
                       for piece in token.pieces)

    def jump_targets(self, instruction: Instruction) -> list[int]:
        """The values of the instruction's code-address operands."""
        if instruction.is_data:
            return []
        return [value for name, value in instruction.values
                if isinstance(self.operands[name], Operand) and isinstance(self.operands[name].kind, CodeAddress)]

    def group(self, instructions: Sequence[Instruction]) -> list[list[Instruction]]:
        """The bundles of an instruction stream (each instruction alone without a bundle rule)."""
        return self.bundles(instructions) if self.bundles else [[instruction] for instruction in instructions]


def _preference(compiled: CompiledForm) -> tuple[int, int]:
    """Regular forms first; then fallback forms, the one fixing the most bits first."""
    if not compiled.form.fallback:
        return (0, 0)
    return (1, -bin(compiled.mask).count("1"))


@lru_cache(maxsize=None)
def _cached_expression(expression: str | int, known: frozenset[str]):
    return compile_expression(expression, set(known))


def _expression(expression: str | int, known: set[str]):
    # Generated tables repeat the same few implied values across hundreds of forms.
    return _cached_expression(expression, frozenset(known))


class _Fields(Mapping):
    """The raw fields of an instruction value, as implied-value expressions read them."""

    def __init__(self, description: Description, value: int):
        self._description = description
        self._value = value

    def __getitem__(self, name: str) -> int:
        return self._description.fields[name].read(self._value)

    def __iter__(self):
        return iter(self._description.fields)

    def __len__(self) -> int:
        return len(self._description.fields)
