"""The fast path of ``--plain`` disassembly: envydis's ``WORD<TAB>TEXT<TAB>FLAGS`` lines,
identical to the description-based path (:func:`~shaderkit.core.disasm.annotated_lines` on
:func:`.description.envydis`), at a fraction of the cost.

Nothing here knows VP1's syntax: every text still comes from core's model. What is saved is
doing the same work again. For each compiled form a *plan* is made once: its tokens, the bits
each token's operands read (the union of their fields), the bits its condition reads, and the
bits the form claims whatever the operands (opcode, ignored, implied and carried fields). A
word is then read token by token, each token's rendering (text, the fields its claim marks,
whether it shows an unknown value, whether it may be left out at the end) memoised on the word
masked by that token's bits, and each condition on the word masked by its bits. Words of one
form share most of these (a register operand has 32 values), so a table of random words
renders each piece once.

Forms are found as core finds them (the first form of the opcode byte's bucket whose fixed
bits match; envydis's description orders them most specific first). The opcode bytes of a
whole array are taken at once with NumPy. The equivalence with the description path is a test
(all golden words and random words).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from ...core.model.operands import Operand, Reading
from . import description as described

_BYTE = 0xFF000000
MEMO_LIMIT = 1 << 18  # entries a token's memo keeps before it starts again


class _Plan:
    """One compiled form, prepared for memoised rendering."""

    __slots__ = ("base_used", "tokens")

    def __init__(self, envydis, compiled):
        fields, operands = envydis.fields, envydis.operands
        used = compiled.mask | compiled.form.ignore
        for name in (*(name for name, _ in compiled.implied), *compiled.form.carries):
            used |= fields[name].mask
        self.base_used = used
        tokens = []
        for token in compiled.template.tokens:
            token_mask = 0
            for slot in token.slots:
                for name in operands[slot.name].fields_set(envydis):
                    token_mask |= fields[name].mask
            condition = token.conditional
            if condition is not None:
                predicate = compiled.predicates[condition.name]
                predicate_mask = 0
                for name in getattr(predicate, "fields", ()):
                    predicate_mask |= fields[name].mask
                condition_entry = (predicate, predicate_mask, {})
            else:
                condition_entry = None
            tokens.append((token, token_mask, condition_entry, {}, _direct(envydis, token)))
        self.tokens = tuple(tokens)


def _direct(envydis, token):
    """For a token whose slots are all plain operands (a field read through a kind, no
    stand-in), a function doing what :meth:`Operand.render`, ``claim`` and ``is_default`` do
    for it, without a :class:`Reading`; else None."""
    pieces = []
    claimed = 0
    for piece in token.pieces:
        if isinstance(piece, str):
            pieces.append(piece)
            continue
        operand = envydis.operands[piece.name]
        if type(operand) is not Operand or operand.stand_in is not None:
            return None
        declared = envydis.fields[operand.field]
        claimed |= declared.mask
        pieces.append((declared, operand.kind))
    slot = token.single_slot
    optional = slot is not None and slot.optional
    default = (envydis.fields[envydis.operands[slot.name].field].default or 0) if optional else 0

    def direct(key: int):
        text = ""
        unknown = omissible = False
        for piece in pieces:
            if piece.__class__ is str:
                text += piece
                continue
            declared, kind = piece
            raw = declared.read(key)
            number = declared.value(raw, 0)
            if number in kind.unknown:
                unknown = True
            text += kind.format(number)
            omissible = optional and raw == default
        return text, claimed, unknown, omissible

    return direct


class FastPlain:
    """``plain_lines`` for envydis's description, memoised per token (see the module text)."""

    def __init__(self, envydis=None):
        self.envydis = envydis or described.envydis()
        common = self.envydis._common_mask
        if common & ~_BYTE or self.envydis.max_length != 1 or self.envydis.issue_separator:
            raise ValueError("the fast path needs one-word instructions bucketed by their top byte")
        self._plans: dict[int, _Plan] = {}
        self._buckets = []
        for opcode in range(256):
            bucket = self.envydis._buckets.get((opcode << 24) & common, ())
            self._buckets.append(tuple((compiled.mask, compiled.match, self._plan(compiled)) for compiled in bucket))
        self._unknown = described.UNKNOWN_TEXT
        self._flag_mask = self.envydis.unknown_bits.mask
        self._lines_cache: dict[int, str] = {}

    def _plan(self, compiled) -> _Plan:
        plan = self._plans.get(id(compiled))
        if plan is None:
            plan = self._plans[id(compiled)] = _Plan(self.envydis, compiled)
        return plan

    def _token(self, token, key: int):
        """(text, bits claimed, unknown operand, may be left out at the end) for the token's bits."""
        envydis = self.envydis
        claiming = Reading(envydis, key)
        for slot in token.slots:
            envydis.operands[slot.name].claim(claiming)
        claimed = 0
        for name in claiming.used:
            claimed |= envydis.fields[name].mask
        text = envydis.render_token(token, Reading(envydis, key))
        slot = token.single_slot
        omissible = bool(slot is not None and slot.optional
                         and envydis.operands[slot.name].is_default(Reading(envydis, key)))
        return text, claimed, claiming.unknown_operand, omissible

    def _condition(self, predicate, key: int):
        reading = Reading(self.envydis, key)
        holds = bool(predicate(reading))
        claimed = 0
        for name in reading.used:
            claimed |= self.envydis.fields[name].mask
        return holds, claimed

    def line(self, word: int) -> str:
        """The ``WORD<TAB>TEXT<TAB>FLAGS`` line of one word at address 0."""
        text, used, unknown_operand = self._parts(word)
        if used == -1:
            bits = word & self._flag_mask
            return f"{word:08x}\t{text}\t{f'bits:{bits:08x},insn' if bits else 'insn'}"
        stray = word & ~used & self._flag_mask
        if stray:
            flags = f"bits:{stray:08x},operand" if unknown_operand else f"bits:{stray:08x}"
        else:
            flags = "operand" if unknown_operand else "ok"
        return f"{word:08x}\t{text}\t{flags}"

    def _parts(self, word: int) -> tuple[str, int, bool]:
        """The text of one word, the bits its form claims (-1: no form decodes it) and whether
        an operand shows an unknown value."""
        for mask, match, plan in self._buckets[word >> 24]:
            if word & mask == match:
                break
        else:
            return self._unknown, -1, False
        used = plan.base_used
        unknown_operand = False
        printed = []
        for token, token_mask, condition, memo, direct in plan.tokens:
            if condition is not None:
                predicate, predicate_mask, holds_cache = condition
                key = word & predicate_mask
                found = holds_cache.get(key)
                if found is None:
                    found = holds_cache[key] = self._condition(predicate, key)
                used |= found[1]
                if not found[0]:
                    continue
            key = word & token_mask
            entry = memo.get(key)
            if entry is None:
                entry = memo[key] = direct(key) if direct is not None else self._token(token, key)
            used |= entry[1]
            if entry[2]:
                unknown_operand = True
            if entry[0]:
                printed.append((token, entry))
        while printed and printed[-1][1][3]:
            printed.pop()
        text = printed[0][1][0] if printed else ""
        for token, entry in printed[1:]:
            text += token.separator + entry[0]
        return text, used, unknown_operand

    def lines(self, words: Sequence[int]) -> list[str]:
        """One line per word, each as if at word address 0: the words grouped by form with
        NumPy, each token's distinct field values rendered once, the texts joined column-wise."""
        array = np.asarray(words, dtype=np.int64) & 0xFFFFFFFF
        count = len(array)
        if count < 256:
            return [self.line(word) for word in array.tolist()]
        texts = np.empty(count, dtype=object)
        used = np.zeros(count, dtype=np.int64)
        unknown = np.zeros(count, dtype=bool)
        opcodes = array >> 24
        order = np.argsort(opcodes, kind="stable")
        bounds = np.searchsorted(opcodes[order], np.arange(257))
        for opcode in range(256):
            where = order[bounds[opcode]:bounds[opcode + 1]]
            if not len(where):
                continue
            group = array[where]
            left = np.ones(len(where), dtype=bool)
            for mask, match, plan in self._buckets[opcode]:
                chosen = left & ((group & mask) == match)
                if chosen.any():
                    left &= ~chosen
                    self._columns(plan, where[chosen], group[chosen], texts, used, unknown)
                if not left.any():
                    break
            if left.any():
                texts[where[left]] = self._unknown
                used[where[left]] = -1  # no bit counts as unknown-by-form; flags come from _insn below
        insn = used == -1
        stray = np.where(insn, array, array & ~used) & self._flag_mask
        flag_index = stray.astype(np.int64) | (unknown.astype(np.int64) << 8) | (insn.astype(np.int64) << 9)
        flags = _flag_table(self._flag_mask)[flag_index]
        heads = [f"{word:08x}\t" for word in array.tolist()]
        return (np.array(heads, dtype=object) + texts + flags).tolist()

    def _columns(self, plan: _Plan, where, group, texts, used, unknown) -> None:
        """Texts, claimed bits and unknown-operand flags of the words ``group`` (at ``where``),
        all of form ``plan``."""
        size = len(group)
        if plan.tokens[0][2] is not None:  # a conditional first token: word by word
            for index, word in zip(where.tolist(), group.tolist()):
                texts[index], used[index], unknown[index] = self._parts(word)
            return
        claimed = np.full(size, plan.base_used, dtype=np.int64)
        shown = []  # per token: (separator, texts or None, printed, omissible)
        for token, token_mask, condition, memo, direct in plan.tokens:
            present = None
            if condition is not None:
                predicate, predicate_mask, holds_cache = condition
                keys, inverse = np.unique(group & predicate_mask, return_inverse=True)
                found = []
                for key in keys.tolist():
                    entry = holds_cache.get(key)
                    if entry is None:
                        entry = holds_cache[key] = self._condition(predicate, key)
                    found.append(entry)
                claimed |= np.array([entry[1] for entry in found], dtype=np.int64)[inverse]
                present = np.array([entry[0] for entry in found], dtype=bool)[inverse]
            # Rows where the token is absent render as the first present row (then blanked).
            masked = group & token_mask
            if present is not None:
                if not present.any():
                    continue
                masked = np.where(present, masked, masked[np.argmax(present)])
            keys, inverse = np.unique(masked, return_inverse=True)
            entries = []
            for key in keys.tolist():
                entry = memo.get(key)
                if entry is None:
                    entry = memo[key] = direct(key) if direct is not None else self._token(token, key)
                entries.append(entry)
            if len(memo) > MEMO_LIMIT:  # bounded memory over endless random input
                memo.clear()
            column_claimed = np.array([entry[1] for entry in entries], dtype=np.int64)[inverse]
            column_unknown = np.array([entry[2] for entry in entries], dtype=bool)[inverse]
            column_texts = np.array([entry[0] for entry in entries] + [None], dtype=object)[:-1][inverse]
            printed = np.array([bool(entry[0]) for entry in entries], dtype=bool)[inverse]
            omissible = np.array([entry[3] for entry in entries], dtype=bool)[inverse]
            if present is not None:
                column_claimed = np.where(present, column_claimed, 0)
                column_unknown &= present
                printed &= present
            claimed |= column_claimed
            unknown[where] |= column_unknown
            shown.append((token.separator, column_texts, printed, omissible))
        # A trailing optional operand left at its default is left out (as many as trail).
        trailing = np.ones(size, dtype=bool)
        kept = []
        for separator, column_texts, printed, omissible in reversed(shown):
            dropped = trailing & printed & omissible
            trailing &= ~(printed & ~omissible)
            kept.append(printed & ~dropped)
        kept.reverse()
        first, rest = shown[0], shown[1:]
        if not kept[0].all():  # the head token always prints (its mnemonic); otherwise word by word
            for index, word in zip(where.tolist(), group.tolist()):
                texts[index], used[index], unknown[index] = self._parts(word)
            return
        text = first[1].copy()
        for (separator, column_texts, _, _), keep in zip(rest, kept[1:]):
            if keep.all():
                text = text + (separator + column_texts if separator else column_texts)
            elif keep.any():
                piece = np.full(size, "", dtype=object)
                piece[keep] = (separator + column_texts[keep]) if separator else column_texts[keep]
                text = text + piece
        texts[where] = text
        used[where] = claimed

@cache
def _flag_table(mask: int) -> np.ndarray:
    """FLAGS for index stray bits | unknown operand << 8 | no form << 9."""
    table = np.empty(1024, dtype=object)
    for index in range(1024):
        bits, operand, insn = index & 0xFF & mask, index >> 8 & 1, index >> 9 & 1
        flags = ([f"bits:{bits:08x}"] if bits else []) + (["operand"] if operand else []) + (["insn"] if insn else [])
        table[index] = "\t" + (",".join(flags) or "ok")
    return table


@cache
def fast_plain() -> FastPlain:
    return FastPlain()


def plain_lines(words: Sequence[int]) -> list[str]:
    """``Vp1.plain_lines`` by the fast path."""
    return fast_plain().lines(words)
