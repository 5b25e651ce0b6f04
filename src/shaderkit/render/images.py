"""Turning rendered frames into files: PNG stills, GIF and MP4 animations; and reading the
pictures users give (textures) within a size limit.

This module owns every picture or video the project writes, plus the small
helpers that get an emulator's output into writable form: nearest-neighbour
upscaling and the mapping from 6-bit RRGGBB colours to 8-bit RGB.

A frame is a numpy ``uint8`` array of shape ``(H, W, 3)`` holding RGB.
Every file is written atomically: it is either complete or not created.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import numbers
import os
import struct
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from shaderkit.core.diagnostics import InputError
from shaderkit.core.fileio import atomic_path, read_file_bytes

__all__ = [
    "check_picture_suffix",
    "ANIMATION_SUFFIXES",
    "checked_colours6",
    "colours6_to_rgb",
    "palette_rgb6",
    "read_picture",
    "save_animation",
    "save_image",
    "scale_nearest",
]

ANIMATION_SUFFIXES = (".gif", ".mp4")

# x264 quality on imageio's 1-10 scale; 8 maps to CRF 10. The default (5, CRF 25)
# visibly smears the hard block edges of low-resolution pictures, and such
# pictures compress well anyway, so the extra size is small.
_MP4_QUALITY = 8


def read_picture(path: str | os.PathLike, mode: str, max_side: int, *, each_side: bool = False,
                 what: str = "texture") -> np.ndarray:
    """An image file as a ``uint8`` array in Pillow ``mode`` ("RGB", "RGBA"), top row first.

    A picture larger than ``max_side`` squared pixels (or, with ``each_side``, wider or taller
    than ``max_side``) is refused from its header, before a pixel is decoded: a small PNG of
    one colour can unpack to gigabytes. So is anything Pillow cannot read, with one
    :class:`InputError` line.
    """
    try:
        # Pillow only warns (on stderr) about images between 89 and 179 megapixels: refuse
        # those as errors too.
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(read_file_bytes(path))) as opened:
                width, height = opened.size
                too_large = max(width, height) > max_side if each_side else width * height > max_side ** 2
                if too_large:
                    limit = f"{max_side} a side" if each_side else f"{max_side ** 2:,} pixels, {max_side}x{max_side}"
                    raise InputError(f"{os.fspath(path)}: {width}x{height} pixels is larger than a {what} may be "
                                     f"(at most {limit})")
                return np.asarray(opened.convert(mode), dtype=np.uint8)
    # Pillow reports corrupt or oversized images with several exception types.
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError, struct.error,
            Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise InputError(f"{os.fspath(path)}: cannot read the image ({error})") from None


def _check_frame(rgb: object, what: str = "frame") -> np.ndarray:
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        shape = getattr(rgb, "shape", None)
        dtype = getattr(rgb, "dtype", type(rgb).__name__)
        raise InputError(f"{what} must be a uint8 array of shape (H, W, 3), got shape {shape} of {dtype}")
    if rgb.shape[0] == 0 or rgb.shape[1] == 0:
        raise InputError(f"{what} is empty: shape {rgb.shape}")
    return rgb


def _output_error(path: str | os.PathLike, error: OSError) -> InputError:
    reason = error.strerror or str(error)
    return InputError(f"{os.fspath(path)}: cannot write ({reason})")


def check_picture_suffix(output: str, movie: bool) -> None:
    """Refuse, before any work, an output name whose type the request cannot produce."""
    suffix = Path(output).suffix.lower()
    if movie and suffix not in (".gif", ".mp4"):
        raise InputError(f"cannot write an animation to '{output}': use .gif or .mp4")
    if not movie and suffix != ".png":
        raise InputError(f"cannot write a picture to '{output}': use .png (or --frames for .gif/.mp4)")


def save_image(path: str | os.PathLike, rgb: np.ndarray) -> None:
    """Write ``rgb`` as an 8-bit RGB PNG (colour type 2, no alpha), whatever the file name."""
    image = Image.fromarray(np.ascontiguousarray(_check_frame(rgb, "image")))
    try:
        with atomic_path(path) as temporary:
            image.save(temporary, format="PNG")
    except OSError as error:
        raise _output_error(path, error) from error


def save_animation(
    path: str | os.PathLike,
    frames: Iterable[np.ndarray],
    *,
    fps: float,
    count: int | None = None,
    progress: bool = False,
) -> None:
    """Write ``frames`` as an animation; the format comes from the suffix of ``path``.

    ``.gif``: Pillow, looping forever, ``1000 / fps`` ms per frame (GIF stores
    hundredths of a second, so the delay is rounded down to that). Pillow merges
    identical consecutive frames into one longer frame; the timing is unchanged.
    At most 256 colours per frame are exact; more are quantised.

    ``.mp4``: H.264 (libx264, yuv420p) through imageio's ffmpeg plugin. yuv420p
    needs even dimensions, so a frame with an odd width or height gets one more
    column or row repeating its edge.

    ``frames`` may be a generator; it is consumed once. ``count`` is the number
    of frames expected, used only as the total of the progress bar that
    ``progress=True`` shows on stderr. All frames must have the same shape.
    If anything fails (including the generator raising), no file is created.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in ANIMATION_SUFFIXES:
        raise InputError(f"cannot write animation to '{os.fspath(path)}': use .gif or .mp4")
    if not (isinstance(fps, numbers.Real) and math.isfinite(fps) and fps > 0):
        raise InputError(f"frame rate must be a positive number, got {fps!r}")

    source = _checked_frames(frames)
    checked = _within_gif_memory(source, count, path) if suffix == ".gif" and count is not None else source
    bar = None
    if progress:
        # Imported here so the common, non-interactive path does not pay for tqdm.
        from tqdm import tqdm

        bar = tqdm(total=count, unit="frame")
    try:
        with atomic_path(path) as temporary:
            counted = _counted(checked, bar)
            if suffix == ".gif":
                _write_gif(temporary, counted, fps)
            else:
                _write_mp4(temporary, counted, fps)
    except OSError as error:
        raise _output_error(path, error) from error
    finally:
        source.close()
        if bar is not None:
            bar.close()


def _counted(frames: Iterator[np.ndarray], bar) -> Iterator[np.ndarray]:
    for frame in frames:
        yield frame
        # Counted once the writer asks for the next frame, i.e. when this one is written.
        if bar is not None:
            bar.update(1)


# Pillow keeps every GIF frame (palettised, about 1.1 bytes a pixel as measured) until the
# file is complete; MP4 frames are streamed to ffmpeg. Refuse, before rendering more than the
# first frame, a GIF that would hold more than this in memory.
GIF_MEMORY_LIMIT = 2 * 1024**3
_GIF_BYTES_PER_PIXEL = 1.2


def _within_gif_memory(frames: Iterator[np.ndarray], count: int, path) -> Iterator[np.ndarray]:
    first = next(frames)
    height, width = first.shape[:2]
    needed = count * width * height * _GIF_BYTES_PER_PIXEL
    if needed > GIF_MEMORY_LIMIT:
        raise InputError(
            f"{os.fspath(path)}: a GIF of {count:,} frames of {width}×{height} would hold about "
            f"{needed / 1024**3:.1f} GiB in memory while it is written (the limit is "
            f"{GIF_MEMORY_LIMIT / 1024**3:.0f} GiB): write .mp4, which is streamed, or fewer frames")
    return itertools.chain([first], frames)


def _checked_frames(frames: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
    first_shape = None
    for index, frame in enumerate(frames):
        _check_frame(frame, f"frame {index}")
        if first_shape is None:
            first_shape = frame.shape
        elif frame.shape != first_shape:
            raise InputError(f"frame {index} has shape {frame.shape}, but frame 0 has {first_shape}")
        yield frame
    if first_shape is None:
        raise InputError("no frames to write")


def _write_gif(temporary: Path, frames: Iterator[np.ndarray], fps: float) -> None:
    first = Image.fromarray(np.ascontiguousarray(next(frames)))
    rest = (Image.fromarray(np.ascontiguousarray(frame)) for frame in frames)
    first.save(
        temporary,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=1000.0 / fps,
        loop=0,
    )


def _pad_to_even(rgb: np.ndarray) -> np.ndarray:
    height, width = rgb.shape[:2]
    if height % 2 == 0 and width % 2 == 0:
        return rgb
    return np.pad(rgb, ((0, height % 2), (0, width % 2), (0, 0)), mode="edge")


def _write_mp4(temporary: Path, frames: Iterator[np.ndarray], fps: float) -> None:
    import imageio.v2 as imageio

    # macro_block_size=1: imageio would otherwise rescale frames to a multiple of 16,
    # blurring pixel art; evenness (all yuv420p needs) is handled by _pad_to_even.
    writer = imageio.get_writer(
        temporary,
        format="FFMPEG",
        mode="I",
        fps=fps,
        codec="libx264",
        pixelformat="yuv420p",
        quality=_MP4_QUALITY,
        macro_block_size=1,
    )
    # Not a `with` block: imageio's legacy writer skips close() when an exception
    # leaves the block, so ffmpeg would keep running and could recreate the
    # temporary file after atomic_path has removed it.
    try:
        for frame in frames:
            writer.append_data(_pad_to_even(frame))
    except BaseException:
        with contextlib.suppress(Exception):  # the original error is the one to report
            writer.close()
        raise
    writer.close()


def scale_nearest(rgb: np.ndarray, factor: int) -> np.ndarray:
    """Enlarge an image ``factor`` times in both directions by repeating pixels.

    Works on any array whose first two axes are rows and columns.
    """
    if isinstance(factor, bool) or not isinstance(factor, (int, np.integer)) or factor < 1:
        raise InputError(f"scale factor must be a positive integer, got {factor!r}")
    if rgb.ndim < 2:
        raise InputError(f"cannot scale an array of shape {rgb.shape}: need rows and columns")
    if factor == 1:
        return rgb.copy()
    return np.repeat(np.repeat(rgb, factor, axis=0), factor, axis=1)


def _build_palette_rgb6() -> np.ndarray:
    colour = np.arange(64, dtype=np.uint8)
    channels = np.stack([(colour >> 4) & 3, (colour >> 2) & 3, colour & 3], axis=1)
    palette = (channels * 85).astype(np.uint8)
    palette.flags.writeable = False
    return palette


_PALETTE_RGB6 = _build_palette_rgb6()


def palette_rgb6() -> np.ndarray:
    """The 64 colours of 6-bit RRGGBB as a ``(64, 3)`` uint8 array; each 2-bit channel c becomes 85 * c."""
    return _PALETTE_RGB6.copy()


def checked_colours6(colours: np.ndarray) -> np.ndarray:
    """``colours`` checked to be 6-bit colours (0..63), as uint8."""
    colours = np.asarray(colours)
    if colours.dtype.kind not in "ui":
        raise InputError(f"6-bit colours must be integers, got {colours.dtype}")
    if colours.size and (colours.min() < 0 or colours.max() > 63):
        raise InputError(f"6-bit colours must be 0..63, got values {colours.min()}..{colours.max()}")
    return colours.astype(np.uint8, copy=False)


def colours6_to_rgb(colours: np.ndarray) -> np.ndarray:
    """Map an ``(H, W)`` array of 6-bit colours (0..63) to an ``(H, W, 3)`` uint8 RGB image."""
    return _PALETTE_RGB6[checked_colours6(colours)]


def written_summary(path: str | os.PathLike, width: int, height: int, *, frames: int | None = None,
                    fps: float | None = None, detail: str = "") -> str:
    """The one line ``run`` prints after writing an output, e.g.
    ``wrote frame.png (640×480, simple model)`` or ``wrote a.gif (24 frames at 12 fps, 320×240)``."""
    parts = [f"{frames} frames at {fps:g} fps"] if frames is not None else []
    parts.append(f"{width}×{height}")
    if detail:
        parts.append(detail)
    return f"wrote {os.fspath(path)} ({', '.join(parts)})"
