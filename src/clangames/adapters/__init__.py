"""Front-ends for learning frameworks: :mod:`clangames.adapters.openspiel` (extra
``openspiel``) and :mod:`clangames.adapters.pettingzoo` (extra ``pettingzoo``).

Each is imported on its own, so that the framework it needs is only required when it is
used; both build on the kernel's declared encodings (:mod:`clangames.engine.interop`).
"""
