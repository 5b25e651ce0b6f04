"""Rendering output: turning frames (uint8 RGB arrays) into image and video files."""

from shaderkit.render.images import (
    check_picture_suffix,
    colours6_to_rgb,
    palette_rgb6,
    save_animation,
    save_image,
    scale_nearest,
    written_summary,
)

__all__ = ["check_picture_suffix", "colours6_to_rgb", "palette_rgb6", "save_animation", "save_image", "scale_nearest",
           "written_summary"]
