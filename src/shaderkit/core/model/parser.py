"""Statement text → instruction, derived from the same templates the printer fills in.

A statement is cut the way its template is (:mod:`.templates`): prefix words, the mnemonic
word, then operands at the separator. The forms whose mnemonic token matches are tried in
order; for each, the operand tokens are *aligned* with the template's tokens (optional and
conditional ones may be absent), each token is read by its binding, and the first form that
reads the whole statement wins. The first form's error is reported otherwise, with the
column of the token at fault, phrased as a user would: an operand count ("'ADD' takes 2
operands (ADD rd rs), got 3"), a form another variant has ("is rev B only"), or a near miss
("did you mean ADD?").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cached_property

from ..diagnostics import SourceError
from ..expr import evaluate
from ..suggest import did_you_mean
from .instruction import DATA, Instruction, data_item
from .kinds import ParseContext
from .operands import Reading, SubTable
from .templates import Mismatch, Slot, Token, most_specific, moved, split_statement

__all__ = ["StatementParser"]


class StatementParser:
    """The parsing half of :class:`~.description.Description` (it relies on its attributes)."""

    def __init__(self):
        self._token_regexes: dict[Token, re.Pattern[str]] = {}
        self._max_prefixes = max((len(c.template.prefixes) for c in self._compiled), default=0)
        # The one-operation forms by the first letter their mnemonic is written with, in table
        # order, each list holding too the forms whose head starts with a placeholder (which
        # may read any letter; alone under ""): a statement is matched against few heads.
        single = [(self._initial(compiled), compiled) for compiled in self._compiled if len(compiled.parts) == 1]
        self._by_initial: dict[str, list] = {
            letter: [compiled for initial, compiled in single if initial in (letter, "")]
            for letter in {*(initial for initial, _ in single), ""}}

    def _initial(self, compiled) -> str:
        first = compiled.template.head.pieces[0] if compiled.template.head.pieces else None
        return self._mnemonic_key(first[0]) if isinstance(first, str) and first else ""

    def _heads_for(self, head: str) -> list:
        """The one-operation forms whose mnemonic may read ``head``, in table order."""
        return self._by_initial.get(self._mnemonic_key(head[:1]), self._by_initial[""])

    # -- tokens -------------------------------------------------------------------------

    def token_pattern(self, token: Token, named: bool = False) -> str:
        """A regular expression for ``token``: its literal text, and each slot's pattern
        (as a named group, with ``named``)."""
        parts = []
        for piece in token.pieces:
            if isinstance(piece, str):
                parts.append(re.escape(piece))
            else:
                inner = self.operands[piece.name].pattern(self)
                parts.append(f"(?P<{piece.name}>{inner})" if named else f"(?:{inner})")
        return "".join(parts)

    def token_regex(self, token: Token) -> re.Pattern[str]:
        """The whole-text regular expression of ``token`` (named groups per slot), compiled
        once per token: mnemonic tokens and sub-table cases are matched for every statement."""
        found = self._token_regexes.get(token)
        if found is None:
            flags = re.DOTALL | (0 if self.case_sensitive else re.IGNORECASE)
            found = self._token_regexes[token] = re.compile(self.token_pattern(token, named=True) + r"\Z", flags)
        return found

    def read_token(self, token: Token, text: str, context: ParseContext) -> dict[str, int]:
        """Raw fields for ``text`` read as ``token``; SourceError (columns within ``text``)."""
        slot = token.single_slot
        if slot is not None:
            return self.operands[slot.name].read(text, context, self)
        match = self.token_regex(token).match(text)
        if match is None:
            message, hint = self._mismatch(token, text)
            raise Mismatch(message, 1, max(1, len(text)), hint)
        fields: dict[str, int] = {}
        for name, part in match.groupdict().items():
            try:
                fields.update(self.operands[name].read(part, context, self))
            except SourceError as error:
                raise moved(error, match.start(name) + error.col) from None
        return fields

    def _mismatch(self, token: Token, text: str) -> tuple[str, Callable[[], str] | None]:
        """Why ``text`` does not read as ``token`` — not a valid <what its first operand is>
        when the token starts with one, else the token's spelling (placeholders as <title>) —
        and what may be added to that: a "did you mean" from the operand's names."""
        first = token.pieces[0] if token.pieces else None
        if first is not None and not isinstance(first, str):
            operand = self.operands[first.name]

            def hint() -> str:
                return did_you_mean(text, operand.names(self) if isinstance(operand, SubTable) else operand.spellings())

            return f"'{text}' is not a valid {getattr(operand, 'title', '') or first.name}", hint
        return f"'{text}' does not read as '{self._spelled(token)}'", None

    def _spelled(self, token: Token) -> str:
        """A token with its placeholders written as ``<title>`` (for messages)."""
        return "".join(piece if isinstance(piece, str) else
                       f"<{getattr(self.operands[piece.name], 'title', '') or piece.name}>" for piece in token.pieces)

    def _read_at(self, token: Token, text: str, column: int, context: ParseContext) -> dict[str, int]:
        try:
            return self.read_token(token, text, context)
        except SourceError as error:
            raise moved(error, column + error.col - 1) from None

    # -- statements ---------------------------------------------------------------------

    def parse(self, text: str, context: ParseContext | None = None) -> Instruction:
        """One statement (no label, no comment) → Instruction; SourceError on bad text."""
        context = context or ParseContext()
        tokens = split_statement(text, self.operand_separator)
        if not tokens:
            raise SourceError("expected an instruction", 1)
        if tokens[0][0] == DATA:
            return self._parse_data(tokens[1:], context)
        operations = self.operations(text)
        if len(operations) > 1:
            return self._parse_co_issued(operations, context)
        candidates = []
        for prefix_count in range(self._max_prefixes + 1):
            cut = split_statement(text, self.operand_separator, prefix_count + 1)
            if len(cut) <= prefix_count:
                break
            head = cut[prefix_count][0]
            for compiled in self._heads_for(head):
                if len(compiled.template.prefixes) >= prefix_count:
                    match = self.token_regex(compiled.template.head).match(head)
                    if match:
                        candidates.append((compiled, match, cut, prefix_count))
        if not candidates:
            raise self._unknown_mnemonic(tokens[0][0], tokens[0][1], context)
        errors: list[SourceError] = []
        for compiled, match, cut, prefix_count in candidates:
            try:
                return self._parse_with(compiled, [(compiled.template, match, cut, prefix_count)], context)
            except SourceError as error:
                errors.append(error)
        raise most_specific(errors)

    def _parse_co_issued(self, operations: list[tuple[str, int]], context: ParseContext) -> Instruction:
        """A statement of several operations joined by the issue separator: the forms with as
        many operations whose mnemonics all match are tried in order."""
        cuts = []
        for text, column in operations:
            cut = [(token, token_column + column - 1) for token, token_column in split_statement(text, self.operand_separator)]
            if not cut:
                raise SourceError(f"an empty operation around '{self.issue_separator}'", column)
            cuts.append(cut)
        errors: list[SourceError] = []
        for compiled in self._compiled:
            if len(compiled.parts) != len(cuts):
                continue
            heads = []
            for part, cut in zip(compiled.parts, cuts):
                match = self.token_regex(part.head).match(cut[0][0])
                if match is None or part.prefixes:
                    break
                heads.append((part, match, cut, 0))
            else:
                try:
                    return self._parse_with(compiled, heads, context)
                except SourceError as error:
                    errors.append(error)
        if errors:
            raise most_specific(errors)
        for cut in cuts:  # name the operation no form has
            if not any(self.token_regex(part.head).match(cut[0][0]) for c in self._compiled for part in c.parts):
                raise self._unknown_mnemonic(*cut[0], context)
        heads = " + ".join(cut[0][0] for cut in cuts)
        raise SourceError(f"'{heads}' cannot issue together", cuts[0][0][1], len(cuts[0][0][0]))

    def _unknown_mnemonic(self, head: str, column: int, context: ParseContext) -> SourceError:
        for compiled, reason in self._unavailable:
            if self.token_regex(compiled.template.head).match(head):
                return SourceError(f"'{compiled.form.mnemonic}' {reason}", column, len(head))
        # A known mnemonic whose token wants more (a suffix no spelling leaves out): "did you
        # mean ADD?" for 'ADD' would be false, so name what is missing.
        written = self._mnemonic_key(head)
        for compiled in self._compiled:
            if self._mnemonic_key(compiled.form.mnemonic) == written:
                return self._missing_suffix(compiled, head, column)
        # Bare mnemonics listed first win ties: ADX suggests ADD rather than ADDEQ (a bare
        # mnemonic only where it reads by itself, so the suggestion is never refused).
        spelled = self._spelled_mnemonics
        readable = set(spelled)
        bare = [c.form.mnemonic for c in self._compiled if c.form.mnemonic in readable]
        hint = did_you_mean(head, [DATA, *bare, *spelled, *context.keywords])
        return SourceError(f"unknown {self.instruction_noun} '{head}'{hint}", column, len(head))

    def _missing_suffix(self, compiled, head: str, column: int) -> SourceError:
        """"'ADD' is missing its precision (ADD{precision}{cc})": the placeholders of the
        first form's mnemonic token that cannot be left empty."""
        token = compiled.template.head
        missing = [self.operands[slot.name].title or slot.name for slot in token.slots
                   if not self._reads_as(slot.name, "", ParseContext(final=False))]
        written = "".join(piece if isinstance(piece, str) else f"{{{piece.name}}}" for piece in token.pieces)
        what = f"is missing its {' and '.join(missing)}" if missing else "does not read"
        return SourceError(f"'{head}' {what} ({written})", column, len(head))

    def _mnemonic_key(self, text: str) -> str:
        return text if self.case_sensitive else text.upper()

    @cached_property
    def _spelled_mnemonics(self) -> list[str]:
        """Every way a mnemonic token can be written, modifiers such as ``ADDLT`` included
        (a modifier left out only where it may be)."""
        spelled = []
        empty = ParseContext(final=False)
        for compiled in self._compiled:
            heads = [""]
            for piece in compiled.template.head.pieces:
                if isinstance(piece, str):
                    options = (piece,)
                else:
                    omitted = ("",) if self._reads_as(piece.name, "", empty) else ()
                    options = (*omitted, *self.operands[piece.name].spellings())
                heads = [head + option for head in heads for option in options]
            spelled.extend(heads)
        return spelled

    def _reads_as(self, name: str, text: str, context: ParseContext) -> bool:
        try:
            self.operands[name].read(text, context, self)
        except SourceError:
            return False
        return True

    def _takes_modifier_token(self, tokens: list[tuple[str, int]], templates: Sequence[Token],
                              context: ParseContext) -> bool:
        """Whether the last operand token is the mnemonic's modifier written as an operand.

        With one token more than the template it is, unless it reads as no modifier but as
        some other operand (``ADD R0 R1 R2``: an operand too many). With exactly as many
        tokens, a modifier name that cannot be the last operand means one is missing
        (``ADD R0 LT``).
        """
        modifier = self.modifier_as_operand
        if not tokens or len(tokens) not in (len(templates), len(templates) + 1):
            return False
        text = tokens[-1][0]
        if self._reads_as(modifier, text, context):
            if len(tokens) == len(templates) + 1:
                return True
            last = templates[-1].single_slot if templates else None
            return last is not None and not self._reads_as(last.name, text, context)
        if len(tokens) == len(templates):
            return False
        others = {name for name in self.operands if name != modifier}
        return not any(self._reads_as(name, text, context) for name in others)

    def _parse_with(self, compiled, heads: list, context: ParseContext) -> Instruction:
        """The statement read as ``compiled``: ``heads`` holds, per operation of the form, its
        template, the match of its mnemonic token, the statement's tokens and how many of them
        are prefixes. Every way of aligning the tokens with the templates is tried; the error
        of the attempt that read the most tokens is reported when none reads."""
        if compiled.scope is not self:  # a form with fields of its own reads through its scope
            return compiled.scope._parse_with(compiled, heads, context)
        options = [list(self._operation_options(compiled, *head, context)) for head in heads]
        best: tuple[int, SourceError] | None = None
        for combination in itertools.product(*options):
            progress = sum(option[0] for option in combination)
            try:
                fields: dict[str, int] = dict(compiled.form.fixed)
                present: set[str] = set()
                for (_, error, part_fields, part_present), (part, _, tokens, prefix_count) in zip(combination, heads):
                    if error is not None:
                        raise error
                    for name, raw in part_fields.items():
                        if name in fields and fields[name] != raw and name not in dict(compiled.form.fixed):
                            head, column = tokens[prefix_count]
                            raise SourceError(f"'{head}' and the operation before it share one "
                                              f"{name.replace('_', ' ')} but give it different values", column,
                                              len(head))
                    fields.update(part_fields)
                    present |= part_present
                head = heads[0][2][heads[0][3]]
                return self._finished(compiled, fields, present, context, head)
            except SourceError as error:
                if best is None or progress > best[0]:
                    best = (progress, error)
        raise best[1]

    def _operation_options(self, compiled, template, match: re.Match[str], tokens: list[tuple[str, int]],
                           prefix_count: int, context: ParseContext):
        """(tokens read, error or None, fields, present slot names) for each alignment of one
        operation's tokens with its template."""
        declared = compiled.form
        head, head_column = tokens[prefix_count]
        fields: dict[str, int] = dict(declared.fixed)
        try:
            for name, part in match.groupdict().items():
                try:
                    fields.update(self.operands[name].read(part, context, self))
                except SourceError as error:
                    raise moved(error, head_column + match.start(name) + error.col - 1) from None
            present: set[str] = {slot.name for slot in template.head.slots}
            operand_tokens = tokens[prefix_count + 1:]
            templates = template.operands
            modifier = self.modifier_as_operand
            if modifier in match.groupdict() and self._takes_modifier_token(operand_tokens, templates, context):
                text, column = operand_tokens.pop()
                if match.group(modifier):
                    title = self.operands[modifier].title or modifier
                    raise SourceError(f"'{head}' already carries a {title}; "
                                      f"give it either as a suffix or as a last operand", column, len(text))
                fields.update(self._read_at(self._bare(modifier), text, column, context))
            if self.extra_operands == "ignore":
                operand_tokens = operand_tokens[:len(templates)]
            absentable = [token.may_be_absent or self.missing_operands == "zero" for token in templates]
            alignments = list(_alignments(absentable, len(operand_tokens)))
            if not alignments:
                required = absentable.count(False)
                raise self._operand_count_error(declared, templates, required, operand_tokens, (head, head_column))
        except SourceError as error:
            yield 0, error, {}, set()
            return
        prefix_alignments = list(_alignments([True] * len(template.prefixes), prefix_count))
        for prefixes_present, operands_present in itertools.product(prefix_alignments, alignments):
            attempt = dict(fields)
            attempt_present = set(present)
            progress = 0
            try:
                for template_tokens, text_tokens, chosen in (
                        (template.prefixes, tokens[:prefix_count], prefixes_present),
                        (templates, operand_tokens, operands_present)):
                    given = iter(text_tokens)
                    for template_token, is_present in zip(template_tokens, chosen):
                        if is_present:
                            text, column = next(given)
                            read = self._read_at(template_token, text, column, context)
                            self._check_agreement(read, attempt, declared, text, column)
                            attempt.update(read)
                            attempt_present.update(slot.name for slot in template_token.slots)
                            progress += 1
            except SourceError as error:
                yield progress, error, {}, set()
                continue
            yield progress, None, attempt, attempt_present

    def _check_agreement(self, read: dict[str, int], earlier: dict[str, int], declared, text: str,
                         column: int) -> None:
        """SourceError when the operand ``text``, read as ``read``, sets a field that an earlier
        part of the same operation (its mnemonic token, an operand before it) set to another
        value: the instruction holds one such field (two sources reading different inputs
        through one input index). Fields the form fixes are the form's, not the text's."""
        fixed = dict(declared.fixed)
        for name, raw in read.items():
            if name in earlier and earlier[name] != raw and name not in fixed:
                raise SourceError(f"'{text}' disagrees with an earlier part of the statement: the instruction has "
                                  f"one {self._field_title(name)}", column, len(text))

    def _field_title(self, name: str) -> str:
        """How messages name field ``name``: the title of an operand reading it, else "<name> field"."""
        titles = (binding.title for binding in self.operands.values()
                  if getattr(binding, "field", None) == name and binding.title)
        return next(titles, f"{name} field")

    @staticmethod
    def _bare(name: str) -> Token:
        return Token((Slot(name),))

    def _finished(self, compiled, fields: dict[str, int], present: set[str], context: ParseContext,
                  head: tuple[str, int]) -> Instruction:
        """The instruction with ``fields`` (absent operands at their defaults), checked
        against the template's presence conditions and read back as the decoder would."""
        if self.overlapping_operands == "must agree":
            self._check_shared_bits(compiled, fields, head)
        reading = self._reading(compiled, fields, context.address)
        for slot in compiled.slots:
            if slot.conditional and (slot.name in present) != compiled.predicates[slot.name](reading):
                wanted = "cannot be given" if slot.name in present else "must be given"
                title = self.operands[slot.name].title or slot.name
                raise SourceError(f"'{compiled.form.mnemonic}': the {title} {wanted} here", head[1], len(head[0]))
        return self._read_back(compiled, reading)

    def _check_shared_bits(self, compiled, fields: dict[str, int], head: tuple[str, int]) -> None:
        """SourceError when two fields the statement sets overlap and give their shared bits
        different values (a register number whose low bit is also a selector bit): the bits
        can hold only one of them."""
        written: list[tuple[str, int, int]] = []
        for name, raw in fields.items():
            declared = self.fields[name]
            bits = declared.write(0, raw)
            for earlier, earlier_bits, earlier_mask in written:
                shared = declared.mask & earlier_mask
                if shared and (bits ^ earlier_bits) & shared:
                    raise SourceError(f"'{compiled.form.mnemonic}': operands disagree about bits 0x{shared:x} "
                                      f"({self._field_title(earlier)} and {self._field_title(name)})",
                                      head[1], len(head[0]))
            written.append((name, bits, declared.mask))

    def _reading(self, compiled, fields: dict[str, int], address: int) -> Reading:
        """The bits of an instruction of ``compiled``'s form with ``fields``; each implied field
        the text did not set at the value its form implies, and every other field its slots
        own or its presence conditions read at its default (or 0)."""
        declared_fields = self.fields
        for name, expression in compiled.implied:
            if name not in fields or name in compiled.form.overrides:
                fields[name] = expression(_WithDefaults(fields, declared_fields)) & ((1 << declared_fields[name].width) - 1)
        owned = [name for slot in compiled.slots for name in self.operands[slot.name].fields_set(self)]
        owned += [name for predicate in compiled.predicates.values() for name in sorted(predicate.fields)]
        # Defaults go in first: a field left at its default never overwrites bits the statement
        # set through a field overlapping it (a branch operand over a source's index).
        defaults = {name: declared_fields[name].default or 0 for name in owned if name not in fields}
        value = compiled.match
        for name, raw in [*defaults.items(), *fields.items()]:
            value = declared_fields[name].write(value, raw)
        return Reading(self, value, address)

    def _read_back(self, compiled, reading: Reading) -> Instruction:
        self.claim(compiled, reading)
        length = compiled.length + reading.extra_words + self._extra_words(compiled, reading.value)
        return self._instance(compiled, reading, reading.address, (), length)

    def instance(self, declared, fields: dict[str, int] | None = None, address: int = 0) -> Instruction:
        """An instruction of form ``declared`` with these raw ``fields`` (the others at their
        defaults), as if it had been parsed at ``address``."""
        compiled = self.compiled(declared)
        if compiled.scope is not self:
            return compiled.scope.instance(declared, fields, address)
        return self._read_back(compiled, self._reading(compiled, dict(declared.fixed) | dict(fields or {}), address))

    def with_fields(self, instruction: Instruction, values: dict[str, int]) -> Instruction:
        """``instruction`` (of this description, not data) with raw ``values`` written over its
        bits, still of its form: a value wins over every field it overlaps (a whole source over
        its parts), each field reads again from the bits, and the length follows the form's
        extra words (a literal slot a source now reads)."""
        compiled = self.compiled(instruction.declaration)
        if compiled.scope is not self:
            return compiled.scope.with_fields(instruction, values)
        before = self._value(self.encode(instruction))
        after = before
        for name, raw in values.items():
            after = self.fields[name].write(after, raw)
        names = dict.fromkeys([*(name for name, _ in instruction.raw), *values])
        raw_fields = tuple((name, self.fields[name].read(after)) for name in self.fields if name in names)
        length = instruction.length + self._extra_words(compiled, after) - self._extra_words(compiled, before)
        changed = replace(instruction, raw=raw_fields, length=length)
        return replace(changed, words=tuple(self.encode(changed)))

    def _operand_count_error(self, declared, templates: Sequence[Token], required: int,
                             operand_tokens: list[tuple[str, int]], head: tuple[str, int]) -> Mismatch:
        """"'ADD' takes 2 operands (ADD rd rs), got 3", at the first extra operand if any."""
        count = f"{required} to {len(templates)}" if required != len(templates) else str(len(templates))
        if templates:
            expected = " ".join([declared.mnemonic, *(self._described(token) for token in templates)])
            takes = f"{count} operand{'' if count == '1' else 's'} ({expected})"
        else:
            takes = "no operands"
        if len(operand_tokens) > len(templates):
            column, length = operand_tokens[len(templates)][1], len(operand_tokens[len(templates)][0])
        else:
            column, length = head[1], len(head[0])
            if not self.operand_separator.match(" "):
                # Operands written with blanks where the separator belongs read as one.
                for text, text_column in operand_tokens:
                    blank = re.search(r"\S(\s+)(?=\S)", text)
                    if blank is not None:
                        word = text[blank.end(1):].split()[0]
                        return Mismatch(f"expected ',' between operands, found '{word}' ('{declared.mnemonic}' "
                                        f"takes {takes})", text_column + blank.end(1), len(word))
        # A count that differs is a shape that differs: where another form of the mnemonic takes
        # that many operands (``bra loop … TARGET`` beside ``bra TARGET``), its error is the one meant.
        return Mismatch(f"'{declared.mnemonic}' takes {takes}, got {len(operand_tokens)}", column, length)

    def _described(self, token: Token) -> str:
        """An operand of a template as messages name it: the title of the operand it starts
        with, else its placeholders' names (``rd``, ``texture[unit]``)."""
        first = token.pieces[0] if token.pieces else None
        if first is not None and not isinstance(first, str):
            title = getattr(self.operands[first.name], "title", "")
            if title:
                return title
        return self._spelled(token) if any(getattr(self.operands[slot.name], "title", "") for slot in token.slots) \
            else token.plain()

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


def _alignments(absentable: Sequence[bool], count: int) -> Iterator[tuple[bool, ...]]:
    """Which template tokens take the ``count`` text tokens, in order: every token that may
    not be absent is present; earlier tokens are preferred present."""
    total = len(absentable)
    if not absentable.count(False) <= count <= total:
        return
    optional_positions = [index for index, flag in enumerate(absentable) if flag]
    wanted = count - absentable.count(False)
    for chosen in itertools.combinations(optional_positions, wanted):
        picked = set(chosen)
        yield tuple(not flag or index in picked for index, flag in enumerate(absentable))



class _WithDefaults(dict):
    """Raw fields read so far, any other field at its default (or 0): what implied-value
    expressions see while a statement is parsed. A field the statement set through fields
    overlapping it (a whole source word set through its parts) reads from those bits."""

    def __init__(self, fields: dict[str, int], declared: dict):
        super().__init__(fields)
        self._declared = declared

    def __missing__(self, name: str) -> int:
        wanted = self._declared[name]
        overlapping = [(self._declared[other], raw) for other, raw in self.items()
                       if self._declared[other].mask & wanted.mask]
        if not overlapping:
            return wanted.default or 0
        value = 0
        for field, raw in overlapping:
            value = field.write(value, raw)
        return wanted.read(value)
