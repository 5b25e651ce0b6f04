"""The description model of an instruction set, and what is derived from it.

An ISA is described once as a :class:`Description`: named bit fields, named operands
(a field read through an :class:`OperandKind`) and one :class:`Form` per instruction,
declared the way it reads in assembly::

    form("ADD{cond} {rsd} {rs}", op=3)

From that declaration the description derives the decoder (fixed bits → form), the
encoder (form + values → words), the printer (template filled with values) and the
parser (text → form + values). It also knows which bits each form leaves unused, and
the decoder reports words that set them.

Decoding is total: a word no form accepts, or one that sets bits its form ignores,
decodes to a *data* item (``.word 0x…``) whose note says what it is, so the
disassembly always re-assembles to the same words.

Parse errors name the mistake the way a user would: an operand count ("'ADD' takes 2
operands"), a form another revision has ("is rev B only"), and for an unknown
mnemonic, register or symbol the nearest known name ("did you mean ADD?").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, reduce

from .bits import BitField, combine_words, split_words
from .diagnostics import SourceError
from .expr import evaluate
from .suggest import did_you_mean

# --------------------------------------------------------------------------------------
# Operand kinds: how one field value reads and prints


class ParseContext:
    """What a parser may consult: symbols, unlocked permissions, and the pass."""

    def __init__(self, symbols: Mapping[str, int] | None = None, unlocked: set[str] | None = None,
                 final: bool = True):
        self.symbols = dict(symbols or {})
        self.unlocked = set(unlocked or ())
        # In the first pass of a two-pass assembly, symbols defined later read as 0.
        self.final = final

    def lookup(self, name: str) -> int | None:
        if name in self.symbols:
            return self.symbols[name]
        return None if self.final else 0


class OperandKind:
    """Reads and prints one field value. ``parse`` raises SourceError (column within text)."""

    def parse(self, text: str, context: ParseContext) -> int:
        raise NotImplementedError

    def format(self, value: int) -> str:
        raise NotImplementedError

    def pattern(self) -> str:
        """Regular expression for this operand inside a token (used for mnemonic suffixes)."""
        return r".+?"

    def spellings(self) -> tuple[str, ...]:
        """The names this kind reads (register names, modifiers): candidates for "did you mean"."""
        return ()


_NAME = re.compile(r"[A-Za-z_.$][\w.$]*\Z")


def suggest_for_undefined(error: SourceError, text: str, context: ParseContext,
                          names: Sequence[str] = ()) -> SourceError:
    """``error`` with a "did you mean" added when it points at an undefined name in ``text``.

    The candidates are ``names`` and the symbols defined so far; the error is returned
    unchanged when the name it points at is defined (the problem is elsewhere) or
    nothing is close.
    """
    word = text[error.col - 1:error.col - 1 + error.length]
    if not _NAME.match(word) or context.lookup(word) is not None:
        return error
    hint = did_you_mean(word, [*names, *context.symbols])
    return SourceError(error.message + hint, error.col, error.length) if hint else error


@dataclass(frozen=True)
class Registers(OperandKind):
    """A register file: number → names, the canonical (printed) name first."""

    names: Mapping[int, tuple[str, ...]]
    case_sensitive: bool = False
    # How numbers without a name read and print (e.g. THEIA's 65,536 data addresses,
    # of which only some are named); None means only the names are valid.
    unnamed: OperandKind | None = None

    @cached_property
    def _lookup(self) -> dict[str, int]:
        return {self._key(name): number for number, names in self.names.items() for name in names}

    def _key(self, name: str) -> str:
        return name if self.case_sensitive else name.upper()

    def parse(self, text: str, context: ParseContext) -> int:
        number = self._lookup.get(self._key(text.strip()))
        if number is not None:
            return number
        if self.unnamed is not None:
            try:
                return self.unnamed.parse(text, context)
            except SourceError as error:
                raise suggest_for_undefined(error, text, context, self.spellings()) from None
        hint = did_you_mean(text.strip(), self.spellings())
        # A near miss is worth more than the whole list; without one, the list helps.
        if not hint:
            hint = f" (expected one of {', '.join(names[0] for names in self.names.values())})"
        raise SourceError(f"unknown register '{text.strip()}'{hint}", 1, len(text))

    def spellings(self) -> tuple[str, ...]:
        return tuple(name for names in self.names.values() for name in names)

    def format(self, value: int) -> str:
        if value not in self.names and self.unnamed is not None:
            return self.unnamed.format(value)
        return self.names[value][0]

    def pattern(self) -> str:
        return "|".join(re.escape(name) for names in self.names.values() for name in names)


@dataclass(frozen=True)
class Immediate(OperandKind):
    """A number written as an expression, with an optional prefix such as ``#``."""

    prefix: str = ""
    radix: int = 10

    def parse(self, text: str, context: ParseContext) -> int:
        body = text
        if self.prefix:
            if not text.startswith(self.prefix):
                raise SourceError(f"expected an immediate starting with '{self.prefix}', got '{text}'", 1, len(text))
            body = text[len(self.prefix):]
        try:
            return evaluate(body, context.lookup)
        except SourceError as error:
            error = suggest_for_undefined(error, body, context)
            raise SourceError(error.message, error.col + len(self.prefix), error.length) from None

    def format(self, value: int) -> str:
        if self.radix == 16:
            return f"{self.prefix}{'-' if value < 0 else ''}0x{abs(value):x}"
        return f"{self.prefix}{value}"


@dataclass(frozen=True)
class CodeAddress(Immediate):
    """A jump target: an expression (usually a label) that listings print as a label."""


@dataclass(frozen=True)
class Choice(OperandKind):
    """A small enumeration, e.g. a condition written as a mnemonic suffix ('' = default)."""

    names: Mapping[int, str]
    case_sensitive: bool = False

    def parse(self, text: str, context: ParseContext) -> int:
        for value, name in self.names.items():
            if name == text or (not self.case_sensitive and name.upper() == text.upper()):
                return value
        hint = did_you_mean(text, self.spellings())
        if not hint:
            hint = f" (expected one of {', '.join(self.spellings())})"
        raise SourceError(f"unknown modifier '{text}'{hint}", 1, len(text))

    def spellings(self) -> tuple[str, ...]:
        return tuple(name for name in self.names.values() if name)

    def format(self, value: int) -> str:
        return self.names[value]

    def pattern(self) -> str:
        # Longest first so that a suffix never stops at a shorter prefix of another.
        return "|".join(re.escape(name) for name in sorted(self.names.values(), key=len, reverse=True))

    @property
    def default(self) -> int | None:
        return next((value for value, name in self.names.items() if name == ""), None)


@dataclass(frozen=True)
class Operand:
    """A field read through a kind; ``allowed`` limits values unless ``unlock`` is granted."""

    field: str
    kind: OperandKind
    allowed: frozenset[int] | None = None
    unlock: str | None = None
    refusal: str = "value not allowed here"
    title: str = ""  # how messages name it ("condition"); the field name by default


# --------------------------------------------------------------------------------------
# Instructions

DATA = ".word"


@dataclass(frozen=True)
class Instruction:
    """An immutable decoded or parsed instruction.

    ``form`` is the name of the form it is an instance of (``.word`` for data), ``values``
    its operand values (name → value) and ``fields`` the raw bit fields it sets (name →
    raw value, fixed fields included). Two instructions are equal when they mean the same
    thing: same form and same operand values. ``address``, ``words``, ``fields`` and
    ``note`` describe where it came from and do not count.
    """

    mnemonic: str
    values: tuple[tuple[str, int], ...]
    declaration: Form | None = field(default=None, compare=False, repr=False)
    form: str = ""
    address: int = field(default=0, compare=False)
    words: tuple[int, ...] = field(default=(), compare=False)
    note: str = field(default="", compare=False)
    fields: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    length: int = field(default=1, compare=False)  # words the instruction occupies

    @property
    def is_data(self) -> bool:
        return self.declaration is None

    def value(self, name: str) -> int:
        return dict(self.values)[name]

    @property
    def operands(self) -> tuple[int, ...]:
        return tuple(value for _, value in self.values)


def data_item(words: Sequence[int], address: int = 0, note: str = "") -> Instruction:
    return Instruction(DATA, tuple(("value", w) for w in words), None, DATA, address, tuple(words), note,
                       length=len(words))


# --------------------------------------------------------------------------------------
# Forms

# ``{name}`` is an operand; ``{name?}`` one that may be left out (it then reads as 0)
# and that the printer leaves out when it is 0 and nothing after it is printed.
_PLACEHOLDER = re.compile(r"\{(\w+)\??\}")
_TRAILING_OPTIONAL = re.compile(r"[\s,]*\{(\w+)\?\}\s*\Z")


@dataclass(frozen=True)
class Form:
    """One instruction: its assembly template and the fields it fixes. ``name`` (default:
    the mnemonic, or the template where several forms share a mnemonic) is what decoded
    instructions report as their ``form``."""

    template: str
    fixed: tuple[tuple[str, int], ...]
    name: str = ""

    @property
    def mnemonic(self) -> str:
        return _PLACEHOLDER.sub("", self.template.split()[0])

    @property
    def placeholders(self) -> tuple[str, ...]:
        return tuple(_PLACEHOLDER.findall(self.template))

    @property
    def optional(self) -> frozenset[str]:
        return frozenset(re.findall(r"\{(\w+)\?\}", self.template))

    @property
    def mnemonic_placeholders(self) -> tuple[str, ...]:
        return tuple(_PLACEHOLDER.findall(self.template.split()[0]))

    @property
    def operand_text(self) -> str:
        """The template after the mnemonic token."""
        parts = self.template.split(None, 1)
        return parts[1] if len(parts) > 1 else ""


def form(template: str, *, name: str = "", **fixed: int) -> Form:
    return Form(template, tuple(fixed.items()), name)


def _named(forms: Sequence[Form]) -> list[Form]:
    """``forms`` each with a name: its own, else its mnemonic, else (where forms share a
    mnemonic) its template."""
    mnemonics = [f.mnemonic for f in forms]
    return [f if f.name else replace(f, name=f.mnemonic if mnemonics.count(f.mnemonic) == 1 else f.template)
            for f in forms]


@dataclass
class _CompiledForm:
    form: Form
    mask: int
    match: int
    used: int
    mnemonic_regex: re.Pattern[str]


# --------------------------------------------------------------------------------------
# The description


class Description:
    """Everything the generic tools need to know about one instruction set (one revision).

    ``describe_unknown(value)`` gives the note printed for a word no form accepts;
    ``annotate(instruction, value)`` an optional remark on a decoded one.
    ``trailing_modifier`` names a mnemonic placeholder that may instead be written as
    an extra last token (TPP's datasheet form ``ADD R0 RT LT``).
    ``unavailable`` lists forms of related revisions that this one lacks, each with the
    reason the parser gives when one is used (``"is rev B only"``).
    """

    def __init__(self, name: str, *, word_bits: int, fields: Mapping[str, BitField],
                 operands: Mapping[str, Operand], forms: Sequence[Form],
                 words_per_instruction: int = 1, first_word_most_significant: bool = True,
                 operand_separator: str = r"\s+", case_sensitive: bool = False,
                 trailing_modifier: str | None = None, lenient_operand_count: bool = False,
                 unavailable: Sequence[tuple[Form, str]] = (),
                 describe_unknown: Callable[[int], str] | None = None,
                 annotate: Callable[[Instruction, int], str] | None = None):
        self.name = name
        self.word_bits = word_bits
        self.words_per_instruction = words_per_instruction
        self.first_word_most_significant = first_word_most_significant
        self.instruction_bits = word_bits * words_per_instruction
        self.fields = dict(fields)
        self.operands = dict(operands)
        self.forms = _named(forms)
        self.operand_separator = re.compile(operand_separator)
        self.case_sensitive = case_sensitive
        self.trailing_modifier = trailing_modifier
        # Upstream-tool compatibility (THEIA): every missing operand reads as 0 and
        # operands beyond the template are ignored (the ISA may warn about them).
        self.lenient_operand_count = lenient_operand_count
        self.describe_unknown = describe_unknown or (lambda value: "unknown instruction")
        # A remark about a cleanly decoded instruction (e.g. a revision that executes it differently).
        self.annotate = annotate or (lambda instruction, value: "")
        self._compiled = [self._compile(f) for f in self.forms]
        self._unavailable = [(self._compile(f), reason) for f, reason in zip(_named([f for f, _ in unavailable]),
                                                                                   (r for _, r in unavailable))]
        self._check_unambiguous()
        self._buckets = self._bucket_by_common_bits()

    # -- derivation ---------------------------------------------------------------------

    def _compile(self, declared: Form) -> _CompiledForm:
        mask = match = 0
        for name, value in declared.fixed:
            bitfield = self.fields[name]
            mask |= bitfield.mask
            match = bitfield.insert(match, value)
        used = mask
        for placeholder in declared.placeholders:
            operand = self.operands[placeholder]
            used |= self.fields[operand.field].mask
        head = declared.template.split()[0]
        pieces = []
        position = 0
        for found in _PLACEHOLDER.finditer(head):
            pieces.append(re.escape(head[position:found.start()]))
            name = found.group(1)
            pieces.append(f"(?P<{name}>{self.operands[name].kind.pattern()})")
            position = found.end()
        pieces.append(re.escape(head[position:]))
        flags = 0 if self.case_sensitive else re.IGNORECASE
        return _CompiledForm(declared, mask, match, used, re.compile("".join(pieces) + r"\Z", flags))

    def _check_unambiguous(self) -> None:
        seen: dict[tuple[int, int], str] = {}
        for compiled in self._compiled:
            key = (compiled.mask, compiled.match)
            if key in seen:
                raise ValueError(f"{self.name}: forms {seen[key]!r} and {compiled.form.template!r} share an encoding")
            seen[key] = compiled.form.template

    def _bucket_by_common_bits(self) -> dict[int, list[_CompiledForm]]:
        self._common_mask = reduce(lambda a, b: a & b, (c.mask for c in self._compiled), (1 << self.instruction_bits) - 1)
        buckets: dict[int, list[_CompiledForm]] = {}
        for compiled in self._compiled:
            buckets.setdefault(compiled.match & self._common_mask, []).append(compiled)
        for candidates in buckets.values():
            candidates.sort(key=lambda c: bin(c.mask).count("1"), reverse=True)
        return buckets

    def unused_bits(self, template: str) -> int:
        """Bits of the instruction that form ``template`` neither fixes nor reads."""
        compiled = next(c for c in self._compiled if c.form.template == template)
        return ((1 << self.instruction_bits) - 1) & ~compiled.used

    # -- decode / encode ----------------------------------------------------------------

    def decode(self, words: Sequence[int], address: int = 0) -> Instruction:
        """The instruction at the start of ``words``; never raises for in-range words."""
        count = self.words_per_instruction
        taken = tuple(words[:count])
        if len(taken) < count:
            return data_item(taken, address, f"truncated: {count} words needed")
        value = combine_words(taken, self.word_bits, self.first_word_most_significant)
        for compiled in self._buckets.get(value & self._common_mask, ()):
            if value & compiled.mask != compiled.match:
                continue
            instruction = self._instruction_from_value(compiled, value, address, taken)
            stray = value & ~compiled.used & ((1 << self.instruction_bits) - 1)
            remark = self.annotate(instruction, value)
            if stray:
                note = f"= {self.format(instruction)}, unused bits set (0x{stray:x})"
                return data_item(taken, address, f"{note}; {remark}" if remark else note)
            return replace(instruction, note=remark) if remark else instruction
        return data_item(taken, address, self.describe_unknown(value))

    def _instruction_from_value(self, compiled: _CompiledForm, value: int, address: int,
                                words: tuple[int, ...]) -> Instruction:
        values = tuple((name, self.fields[self.operands[name].field].extract(value))
                       for name in compiled.form.placeholders)
        return Instruction(compiled.form.mnemonic, values, compiled.form, compiled.form.name, address, words,
                           fields=self._raw_fields(compiled.form, value), length=self.words_per_instruction)

    def _raw_fields(self, declared: Form, value: int) -> dict[str, int]:
        """The raw values of the fields ``declared`` fixes or reads, from the instruction value."""
        names = [name for name, _ in declared.fixed] + [self.operands[p].field for p in declared.placeholders]
        return {name: self.fields[name].extract(value) & ((1 << self.fields[name].width) - 1)
                for name in dict.fromkeys(names)}

    def encode(self, instruction: Instruction) -> tuple[int, ...]:
        if instruction.is_data:
            return tuple(value for _, value in instruction.values)
        compiled = next(c for c in self._compiled if c.form is instruction.declaration)
        value = compiled.match
        for name, field_value in instruction.values:
            value = self.fields[self.operands[name].field].insert(value, field_value)
        return split_words(value, self.words_per_instruction, self.word_bits, self.first_word_most_significant)

    # -- print --------------------------------------------------------------------------

    def format(self, instruction: Instruction, labels: Mapping[int, str] | None = None) -> str:
        """Assembly text; jump targets found in ``labels`` (address → name) print as names."""
        if instruction.is_data:
            hex_digits = (self.word_bits + 3) // 4
            return " ".join([DATA] + [f"0x{w:0{hex_digits}x}" for w in instruction.operands])
        values = dict(instruction.values)
        template = instruction.declaration.template
        while (optional := _TRAILING_OPTIONAL.search(template)) and values[optional.group(1)] == 0:
            template = template[:optional.start()]
        return _PLACEHOLDER.sub(lambda m: self._format_operand(m.group(1), values[m.group(1)], labels), template)

    def _format_operand(self, name: str, value: int, labels: Mapping[int, str] | None) -> str:
        kind = self.operands[name].kind
        if labels and isinstance(kind, CodeAddress) and value in labels:
            return labels[value]
        return kind.format(value)

    def jump_targets(self, instruction: Instruction) -> list[int]:
        """The values of the instruction's code-address operands."""
        if instruction.is_data:
            return []
        return [value for name, value in instruction.values
                if isinstance(self.operands[name].kind, CodeAddress)]

    # -- parse --------------------------------------------------------------------------

    def parse(self, text: str, context: ParseContext | None = None) -> Instruction:
        """One statement (no label, no comment) → Instruction; SourceError on bad text."""
        context = context or ParseContext()
        tokens = split_statement(text, self.operand_separator)
        if not tokens:
            raise SourceError("expected an instruction", 1)
        head, head_column = tokens[0]
        if head == DATA:
            return self._parse_data(tokens[1:], context)
        candidates = [(c, m) for c in self._compiled if (m := c.mnemonic_regex.match(head))]
        if not candidates:
            raise self._unknown_mnemonic(head, head_column)
        first_error: SourceError | None = None
        for compiled, match in candidates:
            try:
                return self._parse_with(compiled, match, tokens, context)
            except SourceError as error:
                first_error = first_error or error
        raise first_error

    def _unknown_mnemonic(self, head: str, column: int) -> SourceError:
        for compiled, reason in self._unavailable:
            if compiled.mnemonic_regex.match(head):
                return SourceError(f"'{compiled.form.mnemonic}' {reason}", column, len(head))
        # Bare mnemonics listed first win ties: ADX suggests ADD rather than ADDEQ.
        hint = did_you_mean(head, [DATA, *(c.form.mnemonic for c in self._compiled), *self._spelled_mnemonics])
        return SourceError(f"unknown instruction '{head}'{hint}", column, len(head))

    @cached_property
    def _spelled_mnemonics(self) -> list[str]:
        """Every way a mnemonic token can be written, modifiers such as ``ADDLT`` included."""
        spelled = []
        for compiled in self._compiled:
            heads = [""]
            for piece in re.split(r"(\{\w+\??\})", compiled.form.template.split()[0]):
                placeholder = _PLACEHOLDER.fullmatch(piece)
                options = ("", *self.operands[placeholder.group(1)].kind.spellings()) if placeholder else (piece,)
                heads = [head + option for head in heads for option in options]
            spelled.extend(heads)
        return spelled

    def _parses_as(self, name: str, text: str, context: ParseContext) -> bool:
        try:
            self.operands[name].kind.parse(text, context)
        except SourceError:
            return False
        return True

    def _takes_modifier_token(self, tokens: list[tuple[str, int]], templates: list[str],
                              context: ParseContext) -> bool:
        """Whether the last operand token is the trailing modifier (``ADD R0 RT LT``).

        With one token more than the template it is, unless it reads as no modifier but as
        some other operand (``ADD R0 R1 R2``: an operand too many). With exactly as many
        tokens, a modifier name that cannot be the last operand means one is missing
        (``ADD R0 LT``).
        """
        trailing = self.trailing_modifier
        if not tokens or len(tokens) not in (len(templates), len(templates) + 1):
            return False
        text = tokens[-1][0]
        if self._parses_as(trailing, text, context):
            if len(tokens) == len(templates) + 1:
                return True
            last = _PLACEHOLDER.fullmatch(templates[-1])
            return last is not None and not self._parses_as(last.group(1), text, context)
        if len(tokens) == len(templates):
            return False
        others = {name for name in self.operands if name != trailing}
        return not any(self._parses_as(name, text, context) for name in others)

    def _parse_with(self, compiled: _CompiledForm, match: re.Match[str],
                    tokens: list[tuple[str, int]], context: ParseContext) -> Instruction:
        declared = compiled.form
        head = tokens[0][0]
        values = {name: self.operands[name].kind.parse(text, context)
                  for name, text in match.groupdict().items()}
        operand_tokens = tokens[1:]
        templates = [t for t, _ in split_operands(declared.operand_text, self.operand_separator)]
        trailing = self.trailing_modifier
        if trailing in values and self._takes_modifier_token(operand_tokens, templates, context):
            text, column = operand_tokens.pop()
            kind = self.operands[trailing].kind
            if values[trailing] != getattr(kind, "default", None):
                title = self.operands[trailing].title or trailing
                raise SourceError(f"'{head}' already carries a {title}; "
                                  f"give it either as a suffix or as a last operand", column, len(text))
            values[trailing] = self._parse_operand(trailing, text, column, context)
        required = len(templates) - len(declared.optional)
        if self.lenient_operand_count:
            operand_tokens = operand_tokens[:len(templates)]
            required = 0
        if not required <= len(operand_tokens) <= len(templates):
            raise self._operand_count_error(declared, templates, required, operand_tokens, tokens[0])
        for position, template in enumerate(templates):
            name = _PLACEHOLDER.fullmatch(template)
            if name is None:
                raise NotImplementedError(f"operand template {template!r}: only plain placeholders are supported")
            if position < len(operand_tokens):
                text, column = operand_tokens[position]
                values[name.group(1)] = self._parse_operand(name.group(1), text, column, context)
            else:
                values[name.group(1)] = 0
        ordered = tuple((name, values[name]) for name in declared.placeholders)
        parsed = Instruction(declared.mnemonic, ordered, declared, declared.name, length=self.words_per_instruction)
        value = combine_words(self.encode(parsed), self.word_bits, self.first_word_most_significant)
        return replace(parsed, fields=self._raw_fields(declared, value))

    def _operand_count_error(self, declared: Form, templates: list[str], required: int,
                             operand_tokens: list[tuple[str, int]], head: tuple[str, int]) -> SourceError:
        """"'ADD' takes 2 operands (ADD rd rs), got 3", at the first extra operand if any."""
        count = f"{required} to {len(templates)}" if required != len(templates) else str(len(templates))
        if templates:
            # Operand names without the template's braces: "ADD rd rs".
            expected = " ".join([declared.mnemonic, *(_PLACEHOLDER.sub(r"\1", t) for t in templates)])
            takes = f"{count} operand{'' if count == '1' else 's'} ({expected})"
        else:
            takes = "no operands"
        if len(operand_tokens) > len(templates):
            column, length = operand_tokens[len(templates)][1], len(operand_tokens[len(templates)][0])
        else:
            column, length = head[1], len(head[0])
        return SourceError(f"'{declared.mnemonic}' takes {takes}, got {len(operand_tokens)}", column, length)

    def _parse_operand(self, name: str, text: str, column: int, context: ParseContext) -> int:
        operand = self.operands[name]
        try:
            value = operand.kind.parse(text, context)
        except SourceError as error:
            raise SourceError(error.message, column + error.col - 1, error.length) from None
        bitfield = self.fields[operand.field]
        if not bitfield.fits(value):
            raise SourceError(f"{value} is out of range ({bitfield.minimum} to {bitfield.maximum})",
                              column, len(text))
        if (context.final and operand.allowed is not None and value not in operand.allowed
                and operand.unlock not in context.unlocked):
            raise SourceError(operand.refusal.format(text=text), column, len(text))
        return value

    def _parse_data(self, tokens: list[tuple[str, int]], context: ParseContext) -> Instruction:
        if not tokens:
            raise SourceError(f"'{DATA}' needs at least one value", 1)
        limit = (1 << self.word_bits) - 1
        words = []
        for text, column in tokens:
            try:
                value = evaluate(text, context.lookup)
            except SourceError as error:
                raise SourceError(error.message, column + error.col - 1, error.length) from None
            if not -(limit + 1) // 2 <= value <= limit:
                raise SourceError(f"{value} does not fit in a {self.word_bits}-bit word", column, len(text))
            words.append(value & limit)
        return data_item(words)


def split_statement(text: str, separator: re.Pattern[str]) -> list[tuple[str, int]]:
    """(token, column) pairs: the mnemonic (up to the first blank), then the operands."""
    head = re.match(r"\s*(\S+)\s*", text)
    if head is None:
        return []
    rest = split_operands(text[head.end():], separator)
    return [(head.group(1), head.start(1) + 1)] + [(token, column + head.end()) for token, column in rest]


def split_operands(text: str, separator: re.Pattern[str]) -> list[tuple[str, int]]:
    """Split a statement into (token, column) pairs; separators inside brackets don't split."""
    tokens: list[tuple[str, int]] = []
    depth = 0
    start: int | None = None
    position = 0
    while position < len(text):
        character = text[position]
        if depth == 0 and (match := separator.match(text, position)) and match.end() > position:
            if start is not None:
                tokens.append((text[start:position], start + 1))
                start = None
            position = match.end()
            continue
        if start is None:
            start = position
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth = max(0, depth - 1)
        position += 1
    if start is not None:
        tokens.append((text[start:].rstrip(), start + 1))
    return tokens
