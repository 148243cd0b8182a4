"""Pictures of games for people: the layer between the games and the front-ends.

``text`` draws any game in the terminal from an observation (never the full state) and
narrates steps without leaking hidden information; a module per game (``kings_kilt``,
``koa_kingmaker``, ``kilt_castle``, ``clan_feud``) draws that game's own screen. Rules packages
never import this layer; the command line does.
"""

from clangames.rendering.text import GenericRenderer, Renderer, narrate, renderer_for

__all__ = ["GenericRenderer", "Renderer", "narrate", "renderer_for"]
