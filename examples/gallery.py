"""Render every example program into the gallery (``make demo``).

Each example states how it wants to be shown in a header line
``// demo: frames=N fps=F``; N = 1 gives a PNG, otherwise an animated GIF (and a PNG
of its first frame with RT = 1). Rendering goes through the ``shaderkit`` command,
exactly as a user would run it.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent
DEMO_LINE = re.compile(r"//\s*demo:\s*frames=(\d+)\s+fps=([\d.]+)")


def demo_settings(source: Path) -> tuple[int, float]:
    match = DEMO_LINE.search(source.read_text(encoding="utf-8"))
    return (int(match.group(1)), float(match.group(2))) if match else (1, 20.0)


def shaderkit(*arguments: str) -> None:
    command = [sys.executable, "-m", "shaderkit.cli", *arguments]
    print(" ".join(["shaderkit", *arguments]), flush=True)
    subprocess.run(command, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="out", help="gallery folder")
    options = parser.parse_args()
    for machine_folder in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        target = Path(options.out) / machine_folder.name
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted(machine_folder.glob("*.s")):
            frames, fps = demo_settings(source)
            shaderkit("run", "-m", machine_folder.name, str(source), "--rt", "1", "-o", str(target / f"{source.stem}.png"))
            if frames > 1:
                shaderkit("run", "-m", machine_folder.name, str(source), "--frames", str(frames), "--fps", str(fps),
                          "--no-progress", "-o", str(target / f"{source.stem}.gif"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
