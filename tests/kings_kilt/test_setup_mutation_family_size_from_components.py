"""Setup steps 1 and 2 with another family size from a components file (rulings, *Setup*).

The family is ``family_from_deck`` cards from the one-per-clan deck, then topped up with
Clan Members of new clans to ``family_size``. The bundled box deals one top-up card each, so
a mutation audit found that dealing a single top-up card whatever the size, or always
running the top-up step even when the deck gives the whole family, failed no rules test.
"""

from __future__ import annotations

from pathlib import Path

import clangames
from clangames.kings_kilt import KingsKiltState

from .helpers import load

BUNDLED = (Path(clangames.__file__).parent / "kings_kilt" / "components.toml").read_text("utf-8")


def _box(tmp_path: Path, family_size: int) -> str:
    path = tmp_path / f"family-{family_size}.toml"
    path.write_text(BUNDLED.replace("family_size = 3", f"family_size = {family_size}"), "utf-8")
    return str(path)


def _deal(game: clangames.Game, seed: int) -> tuple[KingsKiltState, list[str]]:
    """Play the setup's chance nodes; the phase of each one, in order."""
    state = game.initial_state()
    rng = clangames.Rng(seed)
    phases = []
    while state.is_chance:
        phases.append(state.phase.name)
        action, rng = clangames.sample_chance(state, rng)
        state = state.apply(action)
    assert isinstance(state, KingsKiltState)
    return state, phases


def test_families_of_four_get_two_top_up_cards_of_new_clans(tmp_path: Path) -> None:
    for players in (2, 3, 4):
        game = load(players, components=_box(tmp_path, 4))
        for seed in range(5):
            state, phases = _deal(game, seed)
            assert phases.count("deal_family") == 2 * players
            assert phases.count("deal_third") == 2 * players
            for p in range(players):
                assert state.families[p].bit_count() == 4
                assert state.from_deck[p].bit_count() == 2
            # the top-ups came from the members: none of them is left for the pile
            hand = game.components.hand_size(players)
            assert len(state.members) == 6 * 8 - 4 * players - hand * players


def test_families_of_two_come_from_the_deck_alone(tmp_path: Path) -> None:
    game = load(3, components=_box(tmp_path, 2))
    state, phases = _deal(game, 1)
    assert "deal_third" not in phases
    assert phases[:6] == ["deal_family"] * 6
    assert phases[6] == "deal_influence"
    assert state.families == state.from_deck
    assert all(f.bit_count() == 2 for f in state.families)
    assert state.phase.name == "turn"
