"""The CLI is built from what the processors declare: it names no processor, every
processor-specific option comes from a package's ``cli_options``, an option two processors
declare is one option whose per-processor help is that processor's own, and variant options
(``--rev``) select the ISA object."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from shaderkit import isa as isas
from shaderkit.cli import main
from conftest import assert_one_line_error, invoke_cli

SOURCE = Path(__file__).resolve().parents[2] / "src" / "shaderkit"


@pytest.mark.parametrize("module", ["cli.py", "cli_machinery.py"])
def test_the_cli_code_names_no_processor(module):
    text = (SOURCE / module).read_text(encoding="utf-8")
    for name in isas.names():
        assert not re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE), name


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_processor_specific_option_is_declared_by_its_owners(command):
    declared = {option.name for option, _ in isas.declared_options(command)}
    specific = {param.name for param in main.commands[command].params
                if isinstance(param, click.Option) and isas.option_owners(param.name)}
    assert specific == declared
    for name in isas.names(command):
        owned = {option.name for option in isas.REGISTRY[name].command_options().get(command, [])}
        assert owned <= declared and all(name in isas.option_owners(option) for option in owned)


def test_a_shared_option_shows_each_processor_its_own_help():
    theia = invoke_cli("run", "-m", "theia", "--help").stdout
    rsx = invoke_cli("run", "-m", "rsx", "--help").stdout
    assert "Texture image for --obj." in theia and "UNIT=file.png" not in theia
    assert "UNIT=file.png" in rsx and "Texture image for --obj." not in rsx
    everyone = invoke_cli("run", "--help").stdout
    assert "theia: Texture image for --obj." in " ".join(everyone.split())


def test_a_variant_option_selects_the_isa_object(tmp_path):
    source = tmp_path / "out.s"
    source.write_text("OUT R1\n")
    # --rev and --slots each select the ISA object: rev A writes OUT's register in both fields.
    rev_a = invoke_cli("asm", "-m", "tpp", "--rev", "A", "--slots", "written", source, "-f", "hex")
    rev_b = invoke_cli("asm", "-m", "tpp", "--rev", "B", "--slots", "written", source, "-f", "hex")
    assert (rev_a.exit_code, rev_b.exit_code) == (0, 0)
    assert rev_a.stdout.split()[0] == "6123" and rev_b.stdout.split()[0] == "6023"
    upstream = invoke_cli("asm", "-m", "tpp", source, "-f", "hex")
    assert upstream.stdout.split()[0] == "0000" and "left out of the upload" in upstream.stderr


def test_another_processors_option_is_refused_by_name():
    assert_one_line_error(invoke_cli("disasm", "-m", "tpp", "--style", "rpcs3", "x.bin"),
                          "--style: not an option for tpp (only for rsx, rsx-fp, rsx-vp)")


@pytest.mark.parametrize("machine", ["tpp", "theia", "rsx-vp"])
def test_help_for_one_processor_shows_only_its_examples(machine):
    text = invoke_cli("run", "-m", machine, "--help").stdout
    examples = [line.strip() for line in text.splitlines() if line.strip().startswith("shaderkit run")]
    assert examples == isas.REGISTRY[machine].usage()["run"]
    everyone = invoke_cli("run", "--help").stdout
    assert all(line in everyone for name in isas.names("run") for line in isas.REGISTRY[name].usage().get("run", []))
