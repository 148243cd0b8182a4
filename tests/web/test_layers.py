"""Issue 19's layers: the SVG pictures are rendering (no front-end, no web framework); the
server is a front-end that only the command line imports; and only ``clangames.web.app``
(with the command that starts it) needs the ``[web]`` extra."""

from __future__ import annotations

from test_layering import SRC, _offending

WEB_LIBRARIES = ("starlette", "uvicorn", "websockets", "httpx")


def test_svg_pictures_are_rendering() -> None:
    forbidden = ("clangames.cli", "clangames.bots", "clangames.web", *WEB_LIBRARIES)
    assert _offending(SRC / "rendering" / "svg", forbidden) == []


def test_nothing_below_the_front_ends_imports_the_server() -> None:
    for folder in (
        "engine",
        "rendering",
        "testing",
        "kings_kilt",
        "koa_kingmaker",
        "kilt_castle",
        "clan_feud",
        "bots",
    ):
        assert _offending(SRC / folder, ("clangames.web", *WEB_LIBRARIES)) == [], folder


def test_only_the_app_needs_the_web_extra() -> None:
    bad = [
        line
        for line in _offending(SRC / "web", WEB_LIBRARIES)
        if not line.startswith("src/clangames/web/app.py")
    ]
    assert bad == []
