"""Hostile Clan Feud programs for the fuzzers: event and action-card expressions drawn from
the card grammar (deep nesting, large numbers, ORs nobody can pay, empty draws), written
into copies of the bundled data files, and a driver that plays a loaded game through every
reader of a step (narration, explanations, renderers, codecs, notation, re-deals)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import clangames
from clangames import ClanGamesError, Rng
from clangames.clan_feud import words
from clangames.engine.chance import sample_chance
from clangames.engine.game import Game
from clangames.engine.state import State
from clangames.rendering.plain import render_state
from clangames.rendering.svg import state_picture
from clangames.rendering.text import narrate, renderer_for
from clangames.testing.conformance import random_playout

from .cf_helpers import bundled_text

SMALL = st.sampled_from([1, 2, 3, 5, 9])
SMALL_QUANTITIES = [
    "territories", "cities", "castles", "tower_houses", "troops", "troops(cavalry)", "hand",
    "territories_in(I..V)", "troops_in(edinburgh, stirling)",
]  # fmt: skip
QUANTITIES = st.sampled_from([*SMALL_QUANTITIES, "feud", "money"])
SCALERS = st.sampled_from(SMALL_QUANTITIES)
"""What an amount may scale by when it must stay small: £ and feud tokens left out, since
an amount of k*money, repeated, grows past the declared caps (see ``amounts``)."""


@st.composite
def amounts(draw: st.DrawFn, big: bool) -> str:
    """An amount: a number, k*quantity or k*(quantity//d). Small ones keep a seat's £,
    feud tokens and VP within the declared caps (999) over a game; big ones need not
    (a state past them is played but cannot be saved: a known limit)."""
    k = draw(st.sampled_from([1, 2, 3, 5, 9, 400, 10**30]) if big else SMALL)
    form = draw(st.sampled_from(["int", "scaled", "divided"]))
    if form == "int":
        return str(k)
    q = draw(QUANTITIES if big else SCALERS)
    return f"{k}*{q}" if form == "scaled" else f"{k}*({q}//{draw(st.sampled_from([2, 5]))})"


@st.composite
def conditions(draw: st.DrawFn) -> str:
    atoms = st.one_of(
        st.builds(
            "{} {} {}".format,
            QUANTITIES,
            st.sampled_from([">=", "<=", "=="]),
            st.sampled_from([0, 1, 3, 50]),
        ),
        st.builds("most({})".format, QUANTITIES),
        st.builds("fewest({})".format, QUANTITIES),
        st.sampled_from(["is_regent", "controls(stirling)", "controls(edinburgh_castle)"]),
    )
    return " and ".join(draw(st.lists(atoms, min_size=1, max_size=3)))


def event_primitives(big: bool) -> st.SearchStrategy[str]:
    """The primitives an event may hold."""
    amount = amounts(big)
    return st.one_of(
        st.builds("gain_money({})".format, amount),
        st.builds("pay_money({})".format, amount),
        st.builds("gain_feud({})".format, amount),
        st.builds("pay_feud({})".format, amount),
        st.builds("gain_vp({})".format, amount),
        st.builds("draw_cards({})".format, amount),
        st.builds("discard_cards({})".format, amount),
        st.builds("england_track({:+d})".format, st.sampled_from([-12, -1, 1, 2, 12])),
        st.builds(
            "remove_troops({}{})".format,
            SMALL,
            st.sampled_from(["", ", type=infantry", ", type=artillery", ", type=any"]),
        ),
    )


def programs(leaves: st.SearchStrategy[str], depth: int = 12) -> st.SearchStrategy[str]:
    """Expressions over ``leaves`` with every combinator, nested up to ``depth`` deep."""

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.lists(inner, min_size=1, max_size=4).map(lambda xs: "[" + "; ".join(xs) + "]"),
            st.lists(inner, min_size=2, max_size=4).map(lambda xs: "[" + " OR ".join(xs) + "]"),
            inner.map("may {}".format),
            st.builds("if {} then {}".format, conditions(), inner),
            st.builds("repeat({}) {}".format, st.sampled_from([1, 2, 3, 7]), inner),
        )

    return st.recursive(leaves, extend, max_leaves=depth)


def _toml(text: str) -> str:
    return json.dumps(text)  # a JSON string is a TOML basic string


def events_file(tmp: Path, each: list[str], objective: list[str], final: str | None) -> str:
    """A copy of the bundled events file with the first cards' fields replaced."""
    out: list[str] = []
    i = j = 0
    text = bundled_text("events.toml")
    if final is not None:
        text = re.sub(r'scoring = """.*?"""', "scoring = " + _toml(final), text, flags=re.S)
    for line in text.split("\n"):
        if line.startswith("each_player = ") and i < len(each):
            line, i = "each_player = " + _toml(each[i]), i + 1
        elif line.startswith("objective = ") and j < len(objective):
            line, j = "objective = " + _toml(objective[j]), j + 1
        out.append(line)
    path = tmp / "hostile-events.toml"
    path.write_text("\n".join(out), encoding="utf-8")
    return str(path)


def load_or_refuse(**params: Any) -> Game | None:
    """The game, or None if its files were refused with a clear error naming them."""
    try:
        return clangames.load("clan_feud", **params)
    except ClanGamesError as error:
        assert "hostile" in str(error) or "clan_feud" in str(error), error
        return None


def check_readers(game: Game, s: State, seed: int) -> None:
    """Every reader of a state: saved state and notation round trips, views, re-deals and
    pictures."""
    data = json.loads(json.dumps(s.to_json()))
    assert game.state_from_json(data) == s
    assert game.state_from_position(s.to_position()) == s
    for p in range(game.num_players):
        s.observation(p)
        s.resample(p, Rng(seed))
        render_state(s, p)
    s.public_observation()
    render_state(s)
    state_picture(s)
    state_picture(s, 0)


def play_through_everything(game: Game, seed: int, every: int = 29) -> State:
    """One random game told step by step: each step's words, explanations of an option
    that is not legal, narration for everyone and for the mover, and every reader now and
    then; the fast rollout must reach the same end as the step-by-step game."""
    renderer = renderer_for(game)
    rng = Rng(seed)
    s = game.initial_state()
    for step in range(game.info.max_game_length + 1):
        if step % every == 0 or s.is_terminal:
            check_readers(game, s, seed)
        if s.is_terminal:
            break
        if s.is_chance:
            action, rng = sample_chance(s, rng)
            after = s.apply(action)
            narrate(renderer, s, action, -1, after, None)
            s = after
            continue
        player, rng = rng.choice(s.to_move)
        legal = s.legal_actions(player)
        action, rng = rng.choice(legal)
        words.told(s, action)
        s.describe(action)
        for other in (legal[0], legal[-1]):
            s.explain_illegal(other, (player + 1) % game.num_players)
        after = s.apply(action, player)
        narrate(renderer, s, action, player, after, None)
        narrate(renderer, s, action, player, after, player)
        s = after
    else:
        raise AssertionError(f"no end within {game.info.max_game_length} steps")
    _, end, _ = random_playout(game, Rng(seed))
    fast, _, _ = clangames.rollout(game.initial_state(), Rng(seed))
    assert fast == end
    return s


GENERIC = st.one_of(
    st.builds("gain_money({})".format, amounts(False)),
    st.builds("pay_money({})".format, amounts(False)),
    st.builds("gain_feud({})".format, amounts(False)),
    st.builds("pay_feud({})".format, amounts(False)),
    st.builds("gain_vp({})".format, amounts(False)),
)
"""Primitives an action card may hold in any window (draws are left to the cards that
have them: only a P2.assign card may draw)."""


@st.composite
def action_programs(draw: st.DrawFn) -> dict[int, str]:
    """New ``action`` texts for some of the bundled action cards, by card index: programs
    over the card's own action and the primitives allowed anywhere."""
    originals = re.findall(r'^action = "(.*)"$', bundled_text("actions.toml"), flags=re.M)
    chosen = draw(st.sets(st.integers(0, len(originals) - 1), min_size=1, max_size=8))
    return {
        i: draw(programs(st.one_of(st.just(originals[i]), GENERIC), depth=6))
        for i in sorted(chosen)
    }


def actions_file(tmp: Path, replaced: dict[int, str]) -> str:
    """A copy of the bundled actions file with the ``action`` of the cards in ``replaced``
    (by index) replaced."""
    out: list[str] = []
    i = 0
    for line in bundled_text("actions.toml").split("\n"):
        if line.startswith("action = "):
            if i in replaced:
                line = "action = " + _toml(replaced[i])
            i += 1
        out.append(line)
    path = tmp / "hostile-actions.toml"
    path.write_text("\n".join(out), encoding="utf-8")
    return str(path)
