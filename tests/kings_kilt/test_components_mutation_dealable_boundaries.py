"""A components file exactly at the edge of what can be dealt is accepted and plays
(docs/games/kings-kilt.md, *Component data*: a file is refused only if setup could run out).

The load check refuses a box whose third family card, Influence hands or pyramid base could
run short. A mutation audit found that tightening the third-card or the base bound by one
(refusing a box that deals exactly) and refusing the smallest base row allowed (4) failed
no King's Kilt test; each box here sits exactly on one bound and is dealt out in full.
"""

from __future__ import annotations

from pathlib import Path

import clangames
from clangames.kings_kilt import KingsKiltState
from clangames.testing import check_game

from .helpers import check_invariants, load

BUNDLED = (Path(clangames.__file__).parent / "kings_kilt" / "components.toml").read_text("utf-8")

CLANS = ["Bruce", "Buchanan", "Douglas", "Hamilton", "Stewart"]
CLANS += ["Wallace", "Gordon", "Campbell", "Murray", "Graham"]


def _ten_clans_of_two(tmp_path: Path) -> str:
    """10 clans of 2 members and 1 leader; families of 3 with 1 from the deck; hands of 1.
    With 4 players the top-up cards can come from (2 - 1) * (10 - 3 + 1) = 8 members of
    clans a player lacks, and 4 players need exactly 2 each: 8."""
    clans = "".join(f'[[clan]]\nname = "{c}"\nprovenance = "reconstructed"\n\n' for c in CLANS)
    text = (
        clans
        + '[cards]\nmembers_per_clan = 2\nleaders_per_clan = 1\nprovenance = "reconstructed"\n\n'
        + "[setup]\nfamily_from_deck = 1\nfamily_size = 3\nbase_width = 6\n"
        + 'provenance = "reconstructed"\n\n'
        + "[setup.influence]\n2 = 1\n3 = 1\n4 = 1\n\n"
        + '[scoring]\nking = 3\nguardian = 2\nnobleman = 1\nprovenance = "reconstructed"\n'
    )
    path = tmp_path / "ten-clans.toml"
    path.write_text(text, "utf-8")
    return str(path)


def _setup(game: clangames.Game, seed: int) -> KingsKiltState:
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(seed))
    assert isinstance(state, KingsKiltState)
    state.check_consistency()
    return state


def test_a_box_with_exactly_enough_new_clans_for_the_top_up_is_dealt(tmp_path: Path) -> None:
    game = load(4, components=_ten_clans_of_two(tmp_path))
    for seed in range(40):
        state = _setup(game, seed)
        assert state.phase.name == "turn"
        assert all(f.bit_count() == 3 for f in state.families)


def test_a_box_whose_pile_is_exactly_the_base_is_dealt(tmp_path: Path) -> None:
    # 48 members - 9 family cards - 3 hands of 11 = 6 cards: the base, nothing left over
    path = tmp_path / "pile-is-the-base.toml"
    text = BUNDLED.replace("leaders_per_clan = 2", "leaders_per_clan = 0").replace(
        "3 = 5", "3 = 11"
    )
    path.write_text(text, "utf-8")
    game = load(3, components=str(path))
    state = _setup(game, 1)
    assert state.phase.name == "turn"
    assert all(state.card_at(1, i) is not None for i in range(6))
    assert state.draw_pile_size == 0 and state.top == -1
    report = check_game(game, playouts=3, seed=2, invariant=check_invariants)
    assert report.playouts == 3


def test_the_smallest_base_row_plays(tmp_path: Path) -> None:
    path = tmp_path / "base-of-four.toml"
    path.write_text(BUNDLED.replace("base_width = 6", "base_width = 4"), "utf-8")
    game = load(3, components=str(path))
    assert (game.geo.nobleman_row, game.geo.guardian_row, game.geo.king_row) == (2, 3, 4)
    state = _setup(game, 3)
    assert all(state.card_at(1, i) is not None for i in range(4))
    report = check_game(game, playouts=3, seed=4, invariant=check_invariants)
    assert report.playouts == 3
