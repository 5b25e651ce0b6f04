"""The description model's former module name; everything now lives in :mod:`shaderkit.core.model`.

Kept only while the last imports move over (issue 11); new code imports ``shaderkit.core.model``.
"""

from .model import *  # noqa: F401,F403
from .model import __all__  # noqa: F401
