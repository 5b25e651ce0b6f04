"""The declaring comments of RSX assembly text: ``#const``, ``#var`` and ``#default`` (spec/rsx.md
5.1, as cgc and cgcomp write them), read as core comment directives.

* ``#const c[N] = x y z w`` gives constant ``c[N]`` a value (1 to 4 numbers, missing lanes 0).
* ``#var type name : semantic : c[N], count : paramno : referenced`` binds a uniform to
  ``c[N]`` … ``c[N + count - 1]``; ``#var samplerRECT name :  : texunit N : paramno :
  referenced`` (as cgc writes a sampler) names texture unit N's parameter record; other ``#var``
  lines (varyings, unbound uniforms) only inform.
* ``#default name = x y z w …`` gives a uniform its value, one vec4 per row.

A fragment program has no constant memory: reading ``c[N]`` reads the literal slot, whose words
are the constant's value (a uniform's default, else zero as cgcomp writes it). The names
``c[N]`` reach the descriptions as value names of the literal and of LOOP/REP counts
(:meth:`DeclaringComments.value_names`). Comments are read in both passes of the driver; the
second reads the whole program's declarations as the first found them, so a ``#const`` may
come after the statement that reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from shaderkit.core.asm_hooks import DirectiveCall, DirectiveHandler
from shaderkit.core.diagnostics import SourceError

from . import syntax
from .container import ProgramKind
from .description import FloatVector, literal_value, literal_words
from .instruction import words_to_floats

CONSTANT_READ = re.compile(r"\bc\[(\d+)\]")
_ITEM = re.compile(r"[^\s,]+")


@dataclass(frozen=True)
class Uniform:
    """A ``#var`` line bound to constant registers ``c[index] .. c[index + count - 1]``."""

    name: str
    type: str
    index: int
    count: int
    parameter_number: int | None
    referenced: int | None
    default: tuple[tuple[float, float, float, float], ...] | None = None


@dataclass(frozen=True)
class Sampler:
    """A ``#var`` line bound to texture unit ``unit`` (``texunit N``). The instructions, not the
    declared type, say how the unit is sampled; the line gives its parameter record a name."""

    name: str
    type: str
    unit: int
    parameter_number: int | None
    referenced: int | None


@dataclass
class Declared:
    """What the declaring comments of one pass gave, in line order (values as raw bits)."""

    constants: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    uniforms: list[Uniform] = field(default_factory=list)
    defaults: dict[str, list[int]] = field(default_factory=dict)
    samplers: list[Sampler] = field(default_factory=list)


class AnyConstant(Mapping[str, int]):
    """The first pass's value names: every ``c[N]`` reads (as zero), so an instruction takes its
    literal slot before a declaring comment further down is known."""

    def __getitem__(self, name: str) -> int:
        if name in self:
            return 0
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and CONSTANT_READ.fullmatch(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class DeclaringComments:
    """The comment directives of one assembly and what they declared, by pass."""

    def __init__(self, kind: ProgramKind):
        self.kind = kind
        self.passes = {False: Declared(), True: Declared()}  # by ``final``

    @property
    def first(self) -> Declared:
        """Everything the first pass read: the whole program's declarations."""
        return self.passes[False]

    @property
    def final(self) -> Declared:
        return self.passes[True]

    def handlers(self) -> dict[str, DirectiveHandler]:
        return {"#const": self._const, "#var": self._var, "#default": self._default}

    # -- the directives --

    def _const(self, call: DirectiveCall) -> None:
        found = re.fullmatch(r"\s*c\s*\[\s*(\d+)\s*\]\s*=\s*(.*?)\s*", call.argument)
        if found is None:
            raise SourceError("expected c[N] = x y z w", 1, max(1, len(call.argument)))
        items = list(_ITEM.finditer(found.group(2)))
        if not 1 <= len(items) <= 4:
            raise SourceError("expected 1 to 4 numbers", found.start(2) + 1, max(1, len(found.group(2))))
        index = syntax.small_decimal(found.group(1).lstrip("0") or "0")
        bits = tuple(number_bits(item.group(), found.start(2) + item.start() + 1) for item in items)
        bits += (0,) * (4 - len(items))
        constants = self.passes[call.final].constants
        if index is None or (index in constants and constants[index] != bits):
            raise SourceError(f"c[{found.group(1)}] is declared twice with different values", *_whole(call, "#const"))
        constants[index] = bits

    def _var(self, call: DirectiveCall) -> None:
        """``#var float4 name : semantic : c[N], count : paramno : referenced``."""
        parts = call.argument.split(":")
        head = parts[0].split()
        if len(head) < 2:
            raise SourceError("#var needs a type and a name", *_whole(call, "#var"))
        type_text, name = head[0], " ".join(head[1:])
        resource = parts[2].strip() if len(parts) > 2 else ""

        def number(position: int) -> int | None:
            text = parts[position].strip() if len(parts) > position else ""
            value = re.fullmatch(r"(-?)(\d+)", text)
            magnitude = syntax.small_decimal(value.group(2)) if value else None
            return None if magnitude is None else -magnitude if value.group(1) else magnitude

        texture_unit = re.fullmatch(r"texunit\s+(\d+)", resource)
        if texture_unit is not None:
            unit = syntax.small_decimal(texture_unit.group(1))
            if unit is None or unit >= syntax.TEXTURE_UNITS:
                raise SourceError(f"#var {name}: texunit {texture_unit.group(1)} is out of range "
                                  f"(0-{syntax.TEXTURE_UNITS - 1})", *_whole(call, "#var"))
            self.passes[call.final].samplers.append(Sampler(name, type_text, unit, number(3), number(4)))
            return
        found = re.fullmatch(r"c\[(\d+)\](?:\s*,\s*(\d+))?", resource)
        if found is None:
            return  # varyings, unbound uniforms: informative only
        index, count = syntax.small_decimal(found.group(1)), syntax.small_decimal(found.group(2) or "1")
        limit = syntax.VP_CONSTANTS if self.kind is ProgramKind.VERTEX else 1 << 16
        if index is None or count is None or count < 1 or index + count > limit:
            raise SourceError(f"#var {name}: c[{found.group(1)}], {found.group(2) or 1} is out of range",
                              *_whole(call, "#var"))
        self.passes[call.final].uniforms.append(Uniform(name, type_text, index, count, number(3), number(4)))

    def _default(self, call: DirectiveCall) -> None:
        name, equals, values = call.argument.partition("=")
        if not equals or not name.strip():
            raise SourceError("#default is written '#default name = x y z w …'", *_whole(call, "#default"))
        bits = [number_bits(item.group(), len(name) + 2 + item.start()) for item in _ITEM.finditer(values)]
        self.passes[call.final].defaults[name.strip()] = bits
        if call.final:  # every #var is known
            uniform = next((uniform for uniform in self.first.uniforms if uniform.name == name.strip()), None)
            if uniform is None:
                raise SourceError(f"#default for '{name.strip()}', which no #var declares", *_whole(call, "#default"))
            if len(bits) != 4 * uniform.count:
                raise SourceError(f"{uniform.name} needs {4 * uniform.count} default values", *_whole(call, "#default"))

    # -- what they declare --

    def value_names(self, final: bool) -> Mapping[str, Mapping[str, int]]:
        """The core ``value_names`` hook. FP: ``c[N]`` names the literal of each declared
        constant and uniform, and the loop counts it holds (the first pass reads any ``c[N]``)."""
        if self.kind is not ProgramKind.FRAGMENT:
            return {}
        if not final:
            return {"literal": AnyConstant(), "loop_counts": AnyConstant(), "loop_count": AnyConstant()}
        values: dict[int, tuple[int, ...]] = {}
        for uniform in self.first.uniforms:
            rows = _default_rows(self.first.defaults.get(uniform.name), uniform.count)
            for row in range(uniform.count):
                values[uniform.index + row] = rows[row] if rows else (0, 0, 0, 0)
        values.update(self.first.constants)
        names: dict[str, dict[str, int]] = {"literal": {}, "loop_counts": {}, "loop_count": {}}
        for index, bits in values.items():
            name = f"c[{index}]"
            names["literal"][name] = literal_value(bits)
            counts = words_to_floats(tuple(bits))[:3]
            if all(0 <= value <= 255 for value in counts):
                names["loop_counts"][name] = sum(int(value) << (8 * lane) for lane, value in enumerate(counts))
                names["loop_count"][name] = int(counts[0])
        return names

    def uniforms(self) -> list[Uniform]:
        """The final pass's uniforms with their defaults as floats."""
        uniforms = []
        for uniform in self.final.uniforms:
            rows = _default_rows(self.final.defaults.get(uniform.name), uniform.count)
            if rows is not None:
                uniform = replace(uniform, default=tuple(words_to_floats(row) for row in rows))
            uniforms.append(uniform)
        return uniforms


def number_bits(item: str, column: int) -> int:
    """The 32 bits of one number as a constant holds it (a float, or ``0x…`` raw bits)."""
    try:
        return literal_words(FloatVector().parse("{" + item + "}", None))[0]
    except SourceError as error:
        raise SourceError(error.message, column, len(item)) from None


def _whole(call: DirectiveCall, keyword: str) -> tuple[int, int]:
    """Column and length of the whole comment, from its ``#`` (columns count in the argument)."""
    return -len(keyword), len(call.argument) + len(keyword) + 1


def _default_rows(bits: list[int] | None, count: int) -> list[tuple[int, ...]] | None:
    if bits is None or len(bits) != 4 * count:
        return None
    return [tuple(bits[row * 4:row * 4 + 4]) for row in range(count)]
