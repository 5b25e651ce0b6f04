"""``shaderkit run -m vp1 --image-in/--image-out`` (and ``-o FILE.png``): a picture goes into the
data store in the layout of :mod:`shaderkit.isa.vp1.pictures` (64 pixels a row, stride 0) and
the data store comes back as a 64×128 picture; bad pictures are one-line errors."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from shaderkit.isa import get
from shaderkit.isa.vp1 import datastore, pictures

from conftest import assert_one_line_error, invoke_cli

EXIT = "exit 0x0\n"
# $a0 = 0x40 (row 1, x = 0) at stride 0; copy its 16 pixels to row 100 (0x1900).
COPY_ROW = """setlo $a0 0x40
setlo $a1 0x1900
ldavh $v1 $a0 0x0

stavh $v1 $a1 0x0

exit 0x0
"""


def program(tmp_path, text=EXIT):
    path = tmp_path / "prog.s"
    path.write_text(text)
    return path


def read_grey(path) -> np.ndarray:
    rgb = np.asarray(Image.open(path).convert("RGB"))
    assert (rgb[..., 0] == rgb[..., 1]).all() and (rgb[..., 1] == rgb[..., 2]).all()
    return rgb[..., 0]


def gradient(width=64, height=64) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width]
    return ((3 * x + 5 * y) % 256).astype(np.uint8)


def test_a_grey_picture_goes_in_and_the_data_store_comes_out(tmp_path):
    picture = gradient()
    Image.fromarray(picture, "L").save(tmp_path / "in.png")
    result = invoke_cli("run", "-m", "vp1", program(tmp_path, COPY_ROW), "--image-in", tmp_path / "in.png",
                        "--image-out", tmp_path / "out.png")
    assert result.exit_code == 0, result.output
    assert f"wrote {tmp_path / 'out.png'} (64×128" in result.stderr
    out = read_grey(tmp_path / "out.png")
    assert out.shape == (128, 64)
    assert np.array_equal(out[:64], picture)
    assert np.array_equal(out[100, :16], picture[1, :16]), "ldavh at 0x40 reads row 1, x 0-15"
    assert not out[64:100].any()


def test_o_png_writes_the_same_picture_and_it_loads_back_unchanged(tmp_path):
    Image.fromarray(gradient(40, 100), "L").save(tmp_path / "in.png")
    first = invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-in", tmp_path / "in.png",
                       "-o", tmp_path / "a.png")
    assert first.exit_code == 0, first.output
    again = invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-in", tmp_path / "a.png",
                       "-o", tmp_path / "b.png", "--image-out", tmp_path / "c.png")
    assert again.exit_code == 0, again.output
    a, b, c = (read_grey(tmp_path / name) for name in ("a.png", "b.png", "c.png"))
    assert np.array_equal(a, b) and np.array_equal(b, c)
    assert np.array_equal(a[:100, :40], gradient(40, 100)) and not a[:, 40:].any()


def test_a_colour_picture_goes_in_as_three_planes(tmp_path):
    rgb = np.zeros((32, 64, 3), dtype=np.uint8)
    rgb[..., 0], rgb[..., 1], rgb[..., 2] = 10, 20, 30
    rgb[5, 7] = (200, 100, 50)
    Image.fromarray(rgb, "RGB").save(tmp_path / "in.png")
    result = invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-in", tmp_path / "in.png",
                        "-o", tmp_path / "out.bin")
    assert result.exit_code == 0, result.output
    store = (tmp_path / "out.bin").read_bytes()
    rows = pictures.addresses_from_store(store).reshape(128, 64)
    assert (rows[0:32] == 10).sum() == 32 * 64 - 1
    assert (rows[5, 7], rows[32 + 5, 7], rows[64 + 5, 7]) == (200, 100, 50)
    assert rows[40, 0] == 20 and rows[70, 3] == 30 and not rows[96:].any()


def test_the_layout_is_stride_0_in_the_banked_store():
    """Pixel (x, y) is at program address 64y + x under stride 0, which is not file offset
    64y + x: the banks rotate (spec §8.1)."""
    flat = np.arange(datastore.SIZE, dtype=np.int64) % 251
    store = pictures.store_from_addresses(flat.astype(np.uint8))
    for address in (0, 0x25, 0x40, 0x1234, 0x1fff):
        assert store[datastore.offset(address, 0)] == flat[address]
    assert store != bytes(flat.astype(np.uint8))
    machine = get("vp1").machine()
    machine.data_store = store
    assert np.array_equal(pictures.addresses_from_store(machine.data_store), flat)


@pytest.mark.parametrize("size, mode, message", [
    ((65, 10), "L", "at most 64 pixels wide"),
    ((64, 43), "RGB", "at most 42 rows"),
    ((64, 129), "L", "at most 128"),
])
def test_pictures_that_do_not_fit_are_one_line_errors(tmp_path, size, mode, message):
    picture = Image.new(mode, size)
    if mode == "RGB":
        picture.putpixel((0, 0), (255, 0, 0))
    picture.save(tmp_path / "big.png")
    result = invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-in", tmp_path / "big.png")
    assert_one_line_error(result, message)


def test_bad_picture_files_and_names_are_one_line_errors(tmp_path):
    (tmp_path / "junk.png").write_bytes(b"not a picture")
    assert_one_line_error(invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-in", tmp_path / "junk.png"),
                          "cannot read the image")
    assert_one_line_error(invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-in", tmp_path / "absent.png"),
                          "absent.png")
    assert_one_line_error(invoke_cli("run", "-m", "vp1", program(tmp_path), "--image-out", tmp_path / "x.jpg"),
                          "--image-out writes a .png")
