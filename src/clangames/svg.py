"""SVG pictures of every game (issue 19): ``clangames.svg.picture(observation)``.

The drawing lives in the rendering layer (:mod:`clangames.rendering.svg`); this module is
its short public name.
"""

from clangames.rendering.svg import PictureError, picture, state_picture

__all__ = ["PictureError", "picture", "state_picture"]
