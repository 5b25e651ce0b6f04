"""Containers for instruction words: how a program's words become a file and back.

This module owns the five formats that machine code travels in, independent of
any ISA: ``raw`` bytes, ``hex`` (one word per line), Verilog ``readmemh``, Intel
HEX (``ihex``) and a C array (``c``). A program is a list of unsigned words of
``word_bits`` bits (8, 16, 32, 64 or 128).

Byte order matters to the byte-level formats (raw and Intel HEX, listed in
``BYTE_ORDER_FORMATS``) and is one of ``"big"``, ``"little"`` or ``"big-halfswap"``:
big-endian with the two 16-bit halves of every 32-bit group swapped, a layout some
GPUs keep their microcode in; it needs ``word_bits`` to be a multiple of 32. The
text formats hold words, so they read and write the same whatever the byte order.

Conventions: text is UTF-8 bytes; words in text are upper case hex on write;
Intel HEX addresses are byte addresses starting at 0; a 128-bit program in C is
a ``uint32_t`` array with four elements per word, most significant first.
Every malformed input raises :class:`InputError` with a one-line message naming
the source and, for text, the line.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from enum import StrEnum
from pathlib import PurePath

from shaderkit.core.diagnostics import InputError

FORMATS = ("raw", "hex", "readmemh", "ihex", "c")
BYTE_ORDER_FORMATS = ("raw", "ihex")  # the formats that hold bytes, not words
TEXT_FORMATS = ("hex", "readmemh", "ihex", "c")  # the formats written as text
WORD_BITS = (8, 16, 32, 64, 128)
# Address directives and Intel HEX offsets could otherwise ask for gigabytes.
MAX_IMAGE_WORDS = 1 << 24
C_VALUES_PER_LINE = 8
IHEX_BYTES_PER_RECORD = 16


class ByteOrder(StrEnum):
    BIG = "big"
    LITTLE = "little"
    BIG_HALFSWAP = "big-halfswap"


_HEX_WORD = re.compile(r"(?:0[xX])?([0-9a-fA-F]+)")
_HEX_DIGITS = re.compile(r"[0-9a-fA-F]*")
_MEMH_NUMBER = re.compile(r"_*[0-9a-fA-F][0-9a-fA-F_]*")
_C_LITERAL = re.compile(r"(0[xX][0-9a-fA-F]+|0|[1-9][0-9]*)(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?")
_C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EXTENSION_FORMATS = {
    ".bin": "raw", ".raw": "raw", ".hex": "hex", ".words": "hex", ".txt": "hex",
    ".mem": "readmemh", ".vmem": "readmemh", ".ihex": "ihex", ".ihx": "ihex", ".c": "c", ".h": "c",
}


def _error(source: str, message: str, line: int | None = None) -> InputError:
    return InputError(f"{source}: {message}" if line is None else f"{source}:{line}: {message}")


def _show(token: str) -> str:
    """Quote a token for a message, short enough to keep the message on one line."""
    return repr(token if len(token) <= 40 else token[:40] + "...")


def _checked_options(fmt: str, word_bits: int, byte_order: str, source: str) -> ByteOrder:
    if fmt not in FORMATS:
        raise _error(source, f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    if type(word_bits) is not int or word_bits not in WORD_BITS:
        raise _error(source, f"unsupported word size {word_bits!r} bits (expected one of {WORD_BITS})")
    if byte_order not in [order.value for order in ByteOrder]:
        choices = ", ".join(ByteOrder)
        raise _error(source, f"unknown byte order {byte_order!r} (expected one of {choices})")
    if byte_order == ByteOrder.BIG_HALFSWAP and word_bits % 32:
        raise _error(source, f"byte order 'big-halfswap' needs a multiple of 32 bits per word, not {word_bits}")
    return ByteOrder(byte_order)


def _swap_halves(data: bytes) -> bytes:
    """Swap the 16-bit halves of every 32-bit group; the operation is its own inverse."""
    out = bytearray(len(data))
    out[0::4], out[1::4], out[2::4], out[3::4] = data[2::4], data[3::4], data[0::4], data[1::4]
    return bytes(out)


def _words_to_bytes(words: Sequence[int], word_bits: int, order: ByteOrder) -> bytes:
    endian = "little" if order is ByteOrder.LITTLE else "big"
    data = b"".join(word.to_bytes(word_bits // 8, endian) for word in words)
    return _swap_halves(data) if order is ByteOrder.BIG_HALFSWAP else data


def _bytes_to_words(data: bytes, word_bits: int, order: ByteOrder) -> list[int]:
    size, endian = word_bits // 8, "little" if order is ByteOrder.LITTLE else "big"
    if order is ByteOrder.BIG_HALFSWAP:
        data = _swap_halves(data)
    return [int.from_bytes(data[i:i + size], endian) for i in range(0, len(data), size)]


def _decode_text(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _error(source, f"not UTF-8 text (bad byte at offset {exc.start})", line) from None


def _blank_c_comments(text: str, source: str) -> str:
    """Replace ``//`` and ``/* */`` comments by spaces, keeping newlines so line numbers stay right.

    A scan with ``str.find``, not a regular expression: a lazy pattern for ``/* … */`` tried at
    each of many unclosed ``/*`` reads to the end of the text every time (30 s for 200 KB of
    ``/* x``).
    """
    pieces = []
    position = 0
    next_line = next_block = -1  # where the next '//' and '/*' start, or -1 for none left
    while True:
        if next_line < position and next_line != -2:
            next_line = text.find("//", position)
            next_line = -2 if next_line == -1 else next_line
        if next_block < position and next_block != -2:
            next_block = text.find("/*", position)
            next_block = -2 if next_block == -1 else next_block
        starts = [start for start in (next_line, next_block) if start >= 0]
        if not starts:
            break
        start = min(starts)
        if start == next_line:
            end = text.find("\n", start)
            end = len(text) if end == -1 else end
        else:
            close = text.find("*/", start + 2)
            if close == -1:
                raise _error(source, "unterminated /* comment", text.count("\n", 0, start) + 1)
            end = close + 2
        comment = text[start:end]
        pieces += [text[position:start], re.sub(r"[^\n]", " ", comment)]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _write_raw(words: list[int], word_bits: int, order: ByteOrder, name: str) -> bytes:
    return _words_to_bytes(words, word_bits, order)


def _read_raw(data: bytes, word_bits: int, order: ByteOrder, source: str, fill_word: int) -> list[int]:
    if len(data) % (word_bits // 8):
        raise _error(source, f"{len(data)} bytes is not a whole number of {word_bits // 8}-byte words")
    return _bytes_to_words(data, word_bits, order)


def _write_hex(words: list[int], word_bits: int, order: ByteOrder, name: str) -> bytes:
    return "".join(f"{word:0{word_bits // 4}X}\n" for word in words).encode()


def _read_hex(data: bytes, word_bits: int, order: ByteOrder, source: str, fill_word: int) -> list[int]:
    words = []
    for number, line in enumerate(_decode_text(data, source).split("\n"), 1):
        tokens = re.split(r"//|#", line, maxsplit=1)[0].split()
        if len(tokens) > 1:
            raise _error(source, f"expected one hex word per line, found {len(tokens)}", number)
        for token in tokens:
            match = _HEX_WORD.fullmatch(token)
            if not match:
                raise _error(source, f"not a hex word: {_show(token)}", number)
            if int(match.group(1), 16) >> word_bits:
                raise _error(source, f"hex word {_show(token)} is wider than {word_bits} bits", number)
            words.append(int(match.group(1), 16))
    return words


def _write_readmemh(words: list[int], word_bits: int, order: ByteOrder, name: str) -> bytes:
    header = f"// shaderkit readmemh: {len(words)} words of {word_bits} bits\n".encode()
    return header + _write_hex(words, word_bits, order, name)


def _read_readmemh(data: bytes, word_bits: int, order: ByteOrder, source: str, fill_word: int) -> list[int]:
    text = _blank_c_comments(_decode_text(data, source), source)
    image: list[int] = []
    address = 0
    for number, line in enumerate(text.split("\n"), 1):
        for token in line.split():
            is_address = token.startswith("@")
            digits = token[1:] if is_address else token
            if not _MEMH_NUMBER.fullmatch(digits):
                raise _error(source, f"not a hex {'address' if is_address else 'word'}: {_show(token)}", number)
            value = int(digits.replace("_", ""), 16)
            if is_address:
                address = value
            elif value >> word_bits:
                raise _error(source, f"hex word {_show(token)} is wider than {word_bits} bits", number)
            elif address >= MAX_IMAGE_WORDS:
                raise _error(source, f"word address 0x{address:X} is beyond the {MAX_IMAGE_WORDS}-word limit", number)
            else:
                image.extend([fill_word] * (address + 1 - len(image)))  # a no-op when already long enough
                image[address] = value
                address += 1
    return image


def _ihex_record(record_type: int, address: int, payload: bytes) -> str:
    body = bytes([len(payload), address >> 8, address & 0xFF, record_type]) + payload
    return f":{body.hex().upper()}{-sum(body) & 0xFF:02X}\n"


def _write_ihex(words: list[int], word_bits: int, order: ByteOrder, name: str) -> bytes:
    data = _words_to_bytes(words, word_bits, order)
    records = []
    upper = 0  # the upper 16 address bits are zero until a type 04 record says otherwise
    for address in range(0, len(data), IHEX_BYTES_PER_RECORD):
        if address >> 16 != upper:
            upper = address >> 16
            records.append(_ihex_record(0x04, 0, upper.to_bytes(2, "big")))
        records.append(_ihex_record(0x00, address & 0xFFFF, data[address:address + IHEX_BYTES_PER_RECORD]))
    records.append(_ihex_record(0x01, 0, b""))
    return "".join(records).encode()


def _read_ihex(data: bytes, word_bits: int, order: ByteOrder, source: str, fill_word: int) -> list[int]:
    size = word_bits // 8
    image = bytearray()
    defined = bytearray()  # 1 where a record supplied the byte, so gaps can be told from zeros
    base, end_line = 0, None
    for number, line in enumerate(_decode_text(data, source).split("\n"), 1):
        line = line.strip()
        if not line:
            continue
        if end_line is not None:
            raise _error(source, f"record after the end-of-file record on line {end_line}", number)
        if not line.startswith(":") or not _HEX_DIGITS.fullmatch(line, 1) or len(line) % 2 == 0:
            raise _error(source, f"not an Intel HEX record: {_show(line)}", number)
        record = bytes.fromhex(line[1:])
        if len(record) < 5 or len(record) != record[0] + 5:
            raise _error(source, f"record length does not match its byte count: {_show(line)}", number)
        if sum(record) & 0xFF:
            expected = -sum(record[:-1]) & 0xFF
            raise _error(source, f"bad checksum 0x{record[-1]:02X} (expected 0x{expected:02X})", number)
        offset, record_type, payload = record[1] << 8 | record[2], record[3], record[4:-1]
        if record_type == 0x00:
            start, end = base + offset, base + offset + len(payload)
            if end > MAX_IMAGE_WORDS * size:
                raise _error(source, f"byte address 0x{start:X} is beyond the {MAX_IMAGE_WORDS}-word limit", number)
            image.extend(bytes(max(0, end - len(image))))
            defined.extend(bytes(max(0, end - len(defined))))
            image[start:end], defined[start:end] = payload, b"\x01" * len(payload)
        elif record_type == 0x01:
            end_line = number
        elif record_type in (0x02, 0x04):
            if len(payload) != 2:
                raise _error(source, f"type {record_type:02X} record needs 2 data bytes, not {len(payload)}", number)
            base = int.from_bytes(payload, "big") << (4 if record_type == 0x02 else 16)
        elif record_type not in (0x03, 0x05):  # start addresses say nothing about the image
            raise _error(source, f"unsupported record type {record_type:02X}", number)
    if end_line is None:
        raise _error(source, "missing end-of-file record")
    fill = _words_to_bytes([fill_word], word_bits, order)
    for start in range(0, len(image), size):
        covered = defined[start:start + size].count(1)
        if covered == 0:
            image[start:start + size] = fill
        elif covered != size:
            raise _error(source, f"word at byte address 0x{start:X} is only partly defined")
    return _bytes_to_words(bytes(image), word_bits, order)


def _c_element_bits(word_bits: int) -> int:
    return 32 if word_bits == 128 else word_bits  # C has no portable 128-bit integer type


def _write_c(words: list[int], word_bits: int, order: ByteOrder, name: str) -> bytes:
    if not isinstance(name, str) or not _C_IDENTIFIER.fullmatch(name):
        raise InputError(f"<output>: not a C identifier: {_show(str(name))}")
    element_bits = _c_element_bits(word_bits)
    per_word, mask = word_bits // element_bits, (1 << element_bits) - 1
    values = [word >> (element_bits * i) & mask for word in words for i in reversed(range(per_word))]
    lines = [f"#include <stdint.h>\n\nconst uint{element_bits}_t {name}[{len(values)}] = {{\n"]
    for i in range(0, len(values), C_VALUES_PER_LINE):
        chunk = values[i:i + C_VALUES_PER_LINE]
        lines.append("    " + " ".join(f"0x{value:0{element_bits // 4}X}," for value in chunk) + "\n")
    lines.append("};\n")
    return "".join(lines).encode()


def _read_c(data: bytes, word_bits: int, order: ByteOrder, source: str, fill_word: int) -> list[int]:
    text = _blank_c_comments(_decode_text(data, source), source)
    open_at, close_at = text.find("{"), text.rfind("}")
    if open_at < 0 or close_at < open_at:
        raise _error(source, "no C array initialiser '{ ... }' found")
    element_bits = _c_element_bits(word_bits)
    values = []
    first_line = text.count("\n", 0, open_at) + 1
    for number, line in enumerate(text[open_at + 1:close_at].split("\n"), first_line):
        for token in filter(None, re.split(r"[\s,{}]+", line)):
            literal = _C_LITERAL.fullmatch(token)
            if not literal:
                raise _error(source, f"not a hex or decimal integer literal: {_show(token)}", number)
            digits = literal.group(1)
            # Over 40 decimal digits is beyond 128 bits, and int() refuses very long decimal strings.
            if (digits[1:2] not in "xX" and len(digits) > 40) or int(digits, 0) >> element_bits:
                raise _error(source, f"value {_show(token)} is wider than {element_bits} bits", number)
            values.append(int(digits, 0))
    per_word = word_bits // element_bits
    if len(values) % per_word:
        raise _error(source, f"{len(values)} values is not a whole number of {per_word}-element words")
    words = []
    for i in range(0, len(values), per_word):
        word = 0
        for value in values[i:i + per_word]:
            word = word << element_bits | value
        words.append(word)
    return words


_WRITERS = {"raw": _write_raw, "hex": _write_hex, "readmemh": _write_readmemh, "ihex": _write_ihex, "c": _write_c}
_READERS = {"raw": _read_raw, "hex": _read_hex, "readmemh": _read_readmemh, "ihex": _read_ihex, "c": _read_c}


def write_words(words: Sequence[int], fmt: str, *, word_bits: int, byte_order: str = "big",
                name: str = "program") -> bytes:
    """Serialise ``words`` in format ``fmt``; ``name`` is the C array's identifier."""
    order = _checked_options(fmt, word_bits, byte_order, "<output>")
    checked = []
    for index, word in enumerate(words):
        try:
            value = operator.index(word)  # also accepts numpy integers
        except TypeError:
            raise InputError(f"<output>: word {index} is not an integer: {_show(repr(word))}") from None
        if value < 0 or value >> word_bits:
            raise InputError(f"<output>: word {index} ({value:#x}) does not fit in {word_bits} unsigned bits")
        checked.append(value)
    return _WRITERS[fmt](checked, word_bits, order, name)


def read_words(data: bytes, fmt: str, *, word_bits: int, byte_order: str = "big", source: str = "<input>",
               fill_word: int = 0) -> list[int]:
    """Parse ``data`` in format ``fmt``; ``fill_word`` fills address gaps in readmemh and Intel HEX."""
    order = _checked_options(fmt, word_bits, byte_order, source)
    if fill_word < 0 or fill_word >> word_bits:
        raise _error(source, f"fill word {fill_word:#x} does not fit in {word_bits} unsigned bits")
    return _READERS[fmt](bytes(data), word_bits, order, source, fill_word)


# The most permissive word size for each format, for sniffing.
_SNIFF_WORD_BITS = {"ihex": 8, "c": 64, "hex": 128, "readmemh": 128}


def detect_format(data: bytes, filename: str | None = None) -> str:
    """Guess the format from the file name's extension, else from what the content parses as."""
    data = bytes(data)
    fmt = _EXTENSION_FORMATS.get(PurePath(filename).suffix.lower()) if filename else None
    if fmt == "hex" and data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b":"):
        return "ihex"
    if fmt is not None:
        return fmt
    if not data.strip():
        return "raw"
    # Stricter formats first: hex before readmemh, whose syntax includes it.
    for fmt in ("ihex", "c", "hex", "readmemh"):
        try:
            read_words(data, fmt, word_bits=_SNIFF_WORD_BITS[fmt])
            return fmt
        except InputError:
            pass
    return "raw"


def looks_like_text(data: bytes) -> bool:
    """True when ``data`` reads as UTF-8 lines of text (assembly source, notes) rather than
    binary words: no NUL and no control characters besides tab, CR and LF, and some letters.

    Hex-word files are text too; call this only after they have been ruled out.
    """
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not text.strip():
        return False
    controls = sum(1 for char in text if ord(char) < 32 and char not in "\t\r\n")
    return controls == 0 and any(char.isalpha() for char in text)
