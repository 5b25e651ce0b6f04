"""The shaderkit command on VP1 text: the golden tables through disasm --plain and asm --plain,
listings that re-assemble, and bad input."""

from __future__ import annotations

import struct

from click.testing import CliRunner
from conftest import golden_dir

from shaderkit.cli import main

GOLDEN = golden_dir("vp1")


def invoke(*arguments: str):
    return CliRunner().invoke(main, list(arguments), catch_exceptions=False)


def test_disasm_plain_reproduces_every_stratified_line(tmp_path):
    lines = (GOLDEN / "stratified.tsv").read_text(encoding="utf-8").splitlines()
    binary = tmp_path / "stratified.bin"
    binary.write_bytes(b"".join(struct.pack("<I", int(line.split("\t")[0], 16)) for line in lines))
    result = invoke("disasm", "-m", "vp1", "--plain", str(binary))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == lines


def test_asm_plain_gives_every_reassembled_word(tmp_path):
    rows = [line.split("\t") for line in (GOLDEN / "reassembled.tsv").read_text(encoding="utf-8").splitlines()]
    source = tmp_path / "texts.s"
    source.write_text("".join(text + "\n" for text, _, _ in rows), encoding="utf-8")
    result = invoke("asm", "-m", "vp1", "--plain", str(source))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [reassembled for _, reassembled, _ in rows]


def test_a_listing_reassembles_to_the_same_binary(tmp_path):
    source = tmp_path / "prog.s"
    source.write_text("top: mov $r1 0x5\nadd $a1 $a2 $a3\nbra #top\nbnop\nexit 0x0\n", encoding="utf-8")
    binary, listing, again = tmp_path / "prog.bin", tmp_path / "listing.s", tmp_path / "again.bin"
    assert invoke("asm", "-m", "vp1", str(source), "-f", "raw", "-o", str(binary)).exit_code == 0
    data = binary.read_bytes() + struct.pack("<I", 0x7a1170ab)  # another encoding of 'abs $r2 $c3 $r5'
    binary.write_bytes(data)
    result = invoke("disasm", "-m", "vp1", str(binary), "-o", str(listing))
    assert result.exit_code == 0
    text = listing.read_text(encoding="utf-8")
    assert "bra #L_00" in text and ".word 0x7a1170ab" in text and "[unknown: 000000a8]" in text
    assert invoke("asm", "-m", "vp1", str(listing), "-f", "raw", "-o", str(again)).exit_code == 0
    assert again.read_bytes() == data


def test_a_bundle_warning_and_an_error_with_file_line_and_caret(tmp_path):
    source = tmp_path / "w.s"
    source.write_text("add $r1 $r2 $r3\nbra 0x40\nvmov $v0 0x0\n", encoding="utf-8")
    result = invoke("asm", "-m", "vp1", str(source))
    assert result.exit_code == 0
    assert f"{source}:3:1: warning: this starts a new bundle" in result.stderr
    source.write_text("add $r1 $r2 $r3\nadd $r1 $r77 $r3\n", encoding="utf-8")
    result = invoke("asm", "-m", "vp1", str(source))
    assert result.exit_code == 2
    assert f"{source}:2:9: error: unknown register '$r77'" in result.stderr and "^" in result.stderr


def test_a_truncated_binary_and_an_unknown_option_fail_in_one_line(tmp_path):
    binary = tmp_path / "odd.bin"
    binary.write_bytes(b"\x01\x02\x03\x04\x05")
    result = invoke("disasm", "-m", "vp1", str(binary))
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "not a whole number of 4-byte words" in result.stderr
    result = invoke("disasm", "-m", "vp1", "--style", "rpcs3", str(binary))
    assert result.exit_code == 2 and "not an option for vp1" in result.stderr


def test_doc_prints_the_manual():
    result = invoke("doc", "-m", "vp1", "vlrp4b")
    assert result.exit_code == 0 and "vlrp4b u altrnd altshift vd vs1q pc pc flag vcsrc vcsel" in result.stdout
