"""simulate's per-batch player (cli.simulate.GamePlayer): what does not change from game to
game is looked up once per batch, and every game's result is still the one the seeds give
(checked here against the kernel's rollout and the state's own scores, returns and
winners); the statistics it records are the measure's, in declared order."""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import pytest

import clangames
from clangames.bots.random_bot import RandomBot
from clangames.bots.registry import _BOTS, BotSpec, UnknownBotError
from clangames.cli.simulate import (
    GamePlayer,
    Job,
    SimulateError,
    play_game,
    run_job,
)
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_seats
from clangames.engine.state import winner_shares
from clangames.engine.statistics import GameStatistics, StatisticsError
from clangames.kings_kilt.scoring import clan_points

CASES = [
    ("kings_kilt", 3),
    ("koa_kingmaker", 2),
    ("koa_kingmaker", 5),
    ("kilt_castle", 2),
    ("kilt_castle", 3),
    ("clan_feud", 2),
]


def _expected(game: clangames.Game, seed: int, index: int) -> dict[str, Any]:
    """Game ``index`` played straight through the kernel, with its statistics replayed."""
    root = Rng(seed).fork(index)
    seats = [root.fork(p + 1) for p in range(game.num_players)]
    played = rollout_seats(game.initial_state(), root, seats)
    state = played.state
    deciders = [p for p, _ in played.moves if p != CHANCE]
    measure = game.statistics()
    assert measure is not None
    values = measure.of(state, played.moves)
    return {
        "scores": tuple(state.scores()),
        "returns": tuple(state.returns()),
        "winners": tuple(state.winners()),
        "steps": played.steps,
        "decisions": len(deciders),
        "first": deciders[0],
        "statistics": tuple(values[name] for name in measure.names),
    }


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_batch_plays_the_games_the_seeds_give(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    player = GamePlayer(game, ["random"] * players, 5, measure=game.statistics())
    for index in range(3 if name == "clan_feud" else 12):
        got = player.play(index)
        assert got.index == index and got.seats == ("random",) * players
        assert {
            "scores": got.scores,
            "returns": got.returns,
            "winners": got.winners,
            "steps": got.steps,
            "decisions": got.decisions,
            "first": got.first,
            "statistics": got.statistics,
        } == _expected(game, 5, index)
        alone = play_game(game, ["random"] * players, 5, index, measure=game.statistics())
        assert alone == got


def test_a_batch_with_a_searching_bot_and_rotation_matches_one_game_at_a_time() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    names = ["random", "ismcts", "random"]
    player = GamePlayer(game, names, 2, True, 8, 5, game.statistics())
    for index in range(3):
        got = player.play(index)
        assert got.seats == tuple(names[(s - index % 3) % 3] for s in range(3))
        assert got == play_game(game, names, 2, index, True, 8, 5, game.statistics())


def test_a_bot_named_like_a_plain_one_that_ignores_its_rng_is_asked() -> None:
    """Only a RandomBot drawing from the Rng it was given may be drawn for inline: a bot
    kind whose factory keeps a generator of its own is asked for every move."""
    game = clangames.load("koa_kingmaker", players=2)
    _BOTS["ownrng"] = BotSpec("ownrng", "random from a fixed seed", lambda rng: RandomBot(99))
    try:
        got = GamePlayer(game, ["random", "ownrng"], 4).play(1)
    finally:
        del _BOTS["ownrng"]
    root = Rng(4).fork(1)
    played = rollout_seats(
        game.initial_state(), root, [root.fork(1), root], policies={1: RandomBot(99)}
    )
    assert (got.steps, got.scores, got.winners) == (
        played.steps,
        tuple(played.state.scores()),
        tuple(played.state.winners()),
    )


def test_bad_seats_fail_as_before() -> None:
    game = clangames.load("kings_kilt", players=2)
    with pytest.raises(UnknownBotError, match="no bot called 'nobot'"):
        GamePlayer(game, ["random", "nobot"], 1)
    for names in (["random", "human"], ["random"], ["random"] * 3):
        with pytest.raises(SimulateError, match="game 4: nobody can move"):
            GamePlayer(game, names, 1).play(4)


def test_a_state_class_with_its_own_returns_is_asked_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The returns come from the winners already asked for only when the state class keeps
    the kernel's definition."""
    game = clangames.load("koa_kingmaker", players=2)
    plain = GamePlayer(game, ["random"] * 2, 3).play(0)
    assert plain.returns == winner_shares(plain.winners, 2) and sum(plain.returns) == 1.0
    monkeypatch.setattr(game.state_type, "returns", lambda self: (0.25, 0.75))
    assert GamePlayer(game, ["random"] * 2, 3).play(0).returns == (0.25, 0.75)


def test_shares_split_a_win() -> None:
    assert winner_shares((0, 2), 3) == (0.5, 0.0, 0.5)
    assert winner_shares((1,), 2) == (0.0, 1.0)
    assert winner_shares((), 2) == (0.0, 0.0)


def test_run_job_plays_its_batch_with_the_games_statistics() -> None:
    game = clangames.load("kilt_castle", players=2)
    job = simulate_job(game, (3, 4))
    assert [r.index for r in run_job(job)] == [3, 4]
    assert run_job(job)[1] == play_game(game, ["random"] * 2, 6, 4, measure=game.statistics())


def simulate_job(game: clangames.Game, indices: tuple[int, ...]) -> Job:
    params = tuple(sorted(game.params.items()))
    return Job(game.name, params, ("random",) * 2, 6, indices, False, None, None)


# -- GameStatistics.row ------------------------------------------------------------------------
def _finished_koa() -> Any:
    game = clangames.load("koa_kingmaker", players=2)
    root = Rng(1)
    return rollout_seats(game.initial_state(), root, [root.fork(1), root.fork(2)]).state


class _Half(float):
    pass


def test_row_gives_the_values_in_declared_order_with_ofs_checks() -> None:
    final = _finished_koa()
    stats = GameStatistics(("b", "a"), lambda s, m: {"a": 1, "b": _Half(0.5)})
    assert stats.row(final, ()) == (0.5, 1)
    assert stats.of(final, ()) == {"b": 0.5, "a": 1}
    for bad in (True, math.inf, "1", None):
        broken = GameStatistics(("b", "a"), lambda s, m, bad=bad: {"a": 1, "b": bad})
        with pytest.raises(StatisticsError, match=r"statistic 'b' is .*expected a finite number"):
            broken.row(final, ())
    missing = GameStatistics(("b", "a"), lambda s, m: {"a": 1, "c": 2})
    with pytest.raises(StatisticsError, match=r"gave names \['c'\] not declared and left out"):
        missing.row(final, ())
    with pytest.raises(StatisticsError, match="statistics need a finished game"):
        stats.row(final.game.initial_state(), ())


# -- the games' statistics, made cheaper, against their definitions ------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kilt_castles_ducat_days_read_the_lay_out_off_its_actions(players: int) -> None:
    """The lay-out read off the chance actions gives the positions a replay of them gives,
    so the ducat days are those of following the relocations from the replayed lay-out."""
    game = clangames.load("kilt_castle", players=players)
    measure = game.statistics()
    days = 0.0
    for index in range(10):
        root = Rng(8).fork(index)
        seats = [root.fork(p + 1) for p in range(players)]
        played = rollout_seats(game.initial_state(), root, seats)
        state = game.initial_state()
        laid = 0
        for player, action in played.moves:
            if player != CHANCE:
                break
            state = state._apply(action, player)
            laid += 1
        positions = list(state.positions)
        replayed = 0
        for _, action in played.moves[laid:]:
            if type(action).__name__ == "Relocate":
                slot = game.card_slot[action.card]
                source = positions[slot]
                positions[slot] = action.to
                replayed += source not in positions
        got = measure.of(played.state, played.moves)["ducat_days"]
        assert got == replayed
        days += got
    assert days > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kings_kilts_family_card_points_are_scorings(players: int) -> None:
    game = clangames.load("kings_kilt", players=players)
    measure = game.statistics()
    for index in range(10):
        root = Rng(9).fork(index)
        seats = [root.fork(p + 1) for p in range(players)]
        final = rollout_seats(game.initial_state(), root, seats).state
        values = measure.of(final, ())
        for c, clan in enumerate(game.clans):
            assert values[f"family_card_points.{clan}"] == clan_points(game, final.pyramid, c)


@pytest.mark.parametrize("players", [2, 5])
def test_clan_feuds_watch_counts_every_spawn_it_skips_adding_up(players: int) -> None:
    """England's watch adds the troops up again only when England's armies or a battle
    changed: its spawns are still every step at which England's troops grew."""
    from clangames.clan_feud.statistics import _english_troops

    game = clangames.load("clan_feud", players=players, england_start=10)
    measure = game.statistics()
    assert measure is not None and measure.follow is not None
    for index in range(3):
        watch = measure.follow()
        troops: list[int] = []

        def see(state: Any, watch: Any = watch, troops: list[int] = troops) -> None:
            troops.append(_english_troops(state))
            watch.see(state)

        root = Rng(6).fork(index)
        seats = [root.fork(p + 1) for p in range(players)]
        played = rollout_seats(game.initial_state(), root, seats, watch=see)
        # the first state only starts the watch, counting from no troops
        counted = [0, *troops[1:]]
        grew = sum(1 for before, now in pairwise(counted) if now > before)
        assert grew > 0
        assert measure.of(played.state, played.moves, watch)["england.spawns"] == grew
