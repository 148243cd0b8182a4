"""Component data: the bundled file's contents and provenance, and a user's own file."""

from __future__ import annotations

from pathlib import Path

import clangames
from clangames.kings_kilt import KingsKiltState, load_components
from clangames.testing import check_game

from .helpers import check_invariants, do, load

BUNDLED = (Path(clangames.__file__).parent / "kings_kilt" / "components.toml").read_text("utf-8")


def test_components_bundled_values_and_provenance() -> None:
    comps = load_components()
    assert [(c.name, c.provenance) for c in comps.clans] == [
        ("Macleod", "rulebook"),
        ("Mackay", "rulebook"),
        ("Macbeth", "rulebook"),
        ("Bruce", "rulebook"),
        ("Buchanan", "rulebook"),
        ("Douglas", "reconstructed"),
        ("Hamilton", "reconstructed"),
        ("Stewart", "reconstructed"),
    ]
    assert comps.influence == {2: 5, 3: 5, 4: 4}
    assert (comps.family_from_deck, comps.family_size, comps.base_width) == (2, 3, 6)
    assert (comps.king_points, comps.guardian_points, comps.nobleman_points) == (3, 2, 1)


def _renamed(tmp_path: Path) -> str:
    text = BUNDLED
    for old, new in [("Douglas", "Wallace"), ("Hamilton", "Gordon"), ("Stewart", "Campbell")]:
        text = text.replace(f'name = "{old}"', f'name = "{new}"')
    path = tmp_path / "my-box.toml"
    path.write_text(text, "utf-8")
    return str(path)


def test_components_user_file_with_renamed_clans(tmp_path: Path) -> None:
    path = _renamed(tmp_path)
    game = load(3, components=path)
    assert game.clans[5:] == ("Wallace", "Gordon", "Campbell")
    assert game.params["components"] == path
    assert game.action_text(game.parse_action("betray 4.1 with Wallace")) == (
        "betray 4.1 with Wallace"
    )
    state = do(game.initial_state(), "draw Campbell")
    assert isinstance(state, KingsKiltState)
    assert state.family_of(0) == ("Campbell",)
    report = check_game(game, playouts=5, seed=3, invariant=check_invariants)
    assert report.playouts == 5


def test_components_user_file_without_leaders(tmp_path: Path) -> None:
    # a box with no Clan Leaders: the base comes straight off the member pile
    path = tmp_path / "no-leaders.toml"
    path.write_text(BUNDLED.replace("leaders_per_clan = 2", "leaders_per_clan = 0"), "utf-8")
    game = load(3, components=str(path))
    assert game.total_cards == 48
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(4))
    assert isinstance(state, KingsKiltState)
    assert all(state.card_at(1, i) is not None for i in range(6))
    assert len(state.members) == 48 - 9 - 15 - 6 - 1
    report = check_game(game, playouts=5, seed=3, invariant=check_invariants)
    assert report.playouts == 5
