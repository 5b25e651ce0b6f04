"""The USSE reference manual (shaderkit.isa.usse.docs), read directly, without the ISA being
registered: every mnemonic the listing description declares has an entry with syntax, encoding
and meaning, nothing else is documented, and the prose explains the doubling rule and the
``.word`` fallback."""

from __future__ import annotations

import pytest

from shaderkit.isa.usse.description import listing
from shaderkit.isa.usse.docs import documentation

DECLARED = sorted({form.mnemonic for form in listing().forms})


@pytest.mark.parametrize("mnemonic", DECLARED)
def test_every_declared_mnemonic_has_an_entry_with_syntax_encoding_and_meaning(mnemonic):
    entries = documentation().find(mnemonic)
    assert entries
    for entry in entries:
        assert entry.syntax.strip() and entry.encoding.strip() and entry.meaning.strip(), entry.title
        assert mnemonic in entry.syntax


def test_documented_mnemonics_are_exactly_the_declared_ones():
    documented = [entry.mnemonic for entry in documentation().scoped_entries()]
    assert len(documented) == len(set(documented))
    assert set(documented) == set(DECLARED)


def test_every_entry_renders_once_and_diagrams_cover_64_bits():
    reference = documentation()
    text = reference.render()
    for entry in reference.entries:
        assert text.count(f"\n### {entry.title}\n") == 1, entry.title
        spans = [piece.rsplit("(", 1)[1].rstrip(")`") for piece in entry.encoding.split(" · ")]
        widths = [int(span.split("–")[0]) - int(span.split("–")[-1]) + 1 for span in spans]
        assert sum(widths) == 64, entry.title


def test_the_diagram_shows_the_major_opcode_and_the_form_fields():
    reference = documentation()
    vmovc = reference.find("vmovc.f32")[0].encoding
    assert vmovc.startswith("`fixed=00111 (63–59) · ")
    assert "move_type=01 (47–46)" in vmovc and "move_data_type=101 (42–40)" in vmovc
    assert "VMOV_" not in vmovc
    assert "csel1 (40–38)" in reference.find("sop2")[0].encoding  # a field shown as name=value


def test_each_pack_entry_names_its_own_formats():
    reference = documentation()
    for form in listing().forms:
        if form.name == "VPCK":
            fixed = dict(form.fixed)
            text = reference.find(form.mnemonic)[0].meaning
            assert f"(`src_fmt` {fixed['src_fmt']}, `dest_fmt` {fixed['dest_fmt']})" in text, form.mnemonic


def test_family_meanings_name_their_members():
    reference = documentation()
    assert "F32 data to F16" in reference.find("vpckf16f32")[0].meaning
    assert "U8 data to S16" in reference.find("vpcks16u8")[0].meaning
    assert "Data type I16" in reference.find("vmovc.i16")[0].meaning
    assert "`isub32`" in reference.find("vtst.i")[0].meaning
    assert "semantics unknown" in reference.find("vmovt3.f32")[0].meaning
    assert "semantics unknown" in reference.find("bitwise60")[0].meaning.lower()


def test_the_prose_explains_the_doubling_rule_and_the_word_fallback():
    text = documentation().render()
    assert "doubling rule" in text and "(field << 1) & 0xFF" in text
    assert ".word 0x…, 0x…" in text and "reassembles" in text
    assert "not modelled" in text
    assert text.count("<!-- instructions -->") == 0
