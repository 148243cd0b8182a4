"""SVG pictures (issue 19): every game's picture parses as XML, a seat's picture is the same
for every re-deal of what that seat cannot see (so it shows none of the hidden cards that
``resample`` changes), and the Jupyter hooks draw states and observations."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout
from clangames.engine.state import State
from clangames.svg import PictureError, picture, state_picture

SVG = "{http://www.w3.org/2000/svg}"
GAMES = [
    ("kings_kilt", 3),
    ("kings_kilt", 4),
    ("kilt_castle", 2),
    ("kilt_castle", 4),
    ("koa_kingmaker", 2),
    ("koa_kingmaker", 4),
    ("clan_feud", 2),
    ("clan_feud", 4),
]


def sample_states(name: str, players: int, seed: int, count: int) -> list[State]:
    """``count`` states spread along one seeded random game (the last one its end)."""
    game = clangames.load(name, players=players)
    final, _, steps = rollout(game.initial_state(), Rng(seed))
    states: list[State] = []
    stride = max(steps // count, 1)
    state, rng = game.initial_state(), Rng(seed)
    for k in range(count - 1):
        state, rng, _ = rollout(state, rng, max_steps=stride if k else stride // 2)
        states.append(state)
    states.append(final)
    return states


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
    return root


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_pictures_parse_and_hide_what_resample_changes(name: str, players: int) -> None:
    for seed in (1, 2):
        for state in sample_states(name, players, seed, 6):
            root = parse(state_picture(state))
            assert root.find(SVG + "title") is not None
            for seat in range(players):
                mine = state_picture(state, seat)
                parse(mine)
                rng = Rng(seed * 100 + seat)
                for _ in range(3):
                    other, rng = state.resample(seat, rng.fork(1)), rng.fork(2)
                    assert state_picture(other, seat) == mine, (name, seed, seat, state.phase)


def test_koa_picture_shows_own_sealed_card_and_never_anothers() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    state = game.initial_state()
    rng = Rng(5)
    while state.phase.name != "commit":
        state, rng, _ = rollout(state, rng, max_steps=1)
    seat0 = state.to_move[0]
    committed = state.apply(state.legal_actions(seat0)[0], seat0)
    table = committed.table.ids
    own = parse(state_picture(committed, seat0))
    other_seat = next(p for p in committed.to_move if p != seat0)
    other = parse(state_picture(committed, other_seat))
    own_text = " ".join(t.text or "" for t in own.iter(SVG + "text"))
    other_text = " ".join(t.text or "" for t in other.iter(SVG + "text"))
    assert "face down" in other_text
    kinds = [int(g.attrib["data-card"]) for g in own.iter(SVG + "g") if "data-card" in g.attrib]
    assert table[seat0] in kinds
    assert own_text.count("face down") < other_text.count("face down") + 1


def test_analyst_picture_shows_every_seat() -> None:
    game = clangames.load("kings_kilt", players=3)
    state = sample_states("kings_kilt", 3, 4, 3)[1]
    everything = parse(state_picture(state, everything=True))
    text = " ".join(t.text or "" for t in everything.iter(SVG + "text"))
    assert text.count("Your family:") == game.num_players


@pytest.mark.smoke
def test_jupyter_hooks_draw_states_and_observations() -> None:
    for name, players in GAMES[::2]:
        state = sample_states(name, players, 3, 2)[0]
        assert state._repr_svg_() == state_picture(state)
        assert state.svg(0) == state_picture(state, 0)
        obs = state.observation(0)
        assert obs._repr_svg_() == picture(obs, state.game)


def test_koa_game_is_inferred_from_an_observation() -> None:
    for players in (3, 4, 5):
        game = clangames.load("koa_kingmaker", players=players)
        state = sample_states("koa_kingmaker", players, 7, 2)[0]
        assert picture(state.observation(0)) == picture(state.observation(0), game)


def test_picture_rejects_what_it_cannot_draw() -> None:
    with pytest.raises(PictureError, match="no SVG picture for int"):
        picture(3)
    state = clangames.load("kings_kilt", players=3).initial_state()
    with pytest.raises(PictureError, match="drawn with its own game"):
        picture(state.public_observation(), clangames.load("koa_kingmaker", players=3))


def test_names_are_escaped() -> None:
    from clangames.rendering.svg.canvas import Canvas

    canvas = Canvas(10, 10, "a<b")
    canvas.text(0, 0, 'x & "y" <z>')
    root = parse(canvas.svg())
    assert root.find(SVG + "text") is not None
    assert root.find(SVG + "text").text == 'x & "y" <z>'  # type: ignore[union-attr]


def test_harness_checks_svg_on_sampled_states() -> None:
    from clangames.testing.conformance import check_game

    for name, players in (("koa_kingmaker", 3), ("kings_kilt", 2), ("clan_feud", 2)):
        report = check_game(clangames.load(name, players=players), playouts=2, seed=1)
        assert report is not None


def test_harness_names_an_observation_field_the_picture_forgot() -> None:
    import attrs

    from clangames.koa_kingmaker.observation import KoaObservation
    from clangames.rendering import svg
    from clangames.testing.svg_checks import check_coverage

    class Failure(Exception):
        pass

    def fail(check: str, message: str) -> Exception:
        return Failure(f"{check}: {message}")

    check_coverage(KoaObservation, fail)  # every field accounted for
    extended = attrs.make_class(
        "KoaObservation", {"english_armies": attrs.field()}, bases=(KoaObservation,)
    )
    svg.COVERAGE[extended] = svg.COVERAGE[KoaObservation]
    try:
        with pytest.raises(Failure, match=r"svg-coverage: .*\['english_armies'\]"):
            check_coverage(extended, fail)
    finally:
        del svg.COVERAGE[extended]
