"""Match: the driver that samples chance, asks policies, waits for humans and undoes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest

import clangames
from clangames import (
    CHANCE,
    Game,
    GameInfo,
    GameRecord,
    GameSpec,
    IllegalActionError,
    Match,
    Move,
    Parameter,
    Phase,
    Rng,
    State,
    UndoError,
)
from clangames.engine import ActionTable
from clangames.engine import match as match_module
from clangames.engine.match import Step
from testing import toys
from testing.toys import Bid, Stake, ToyState

GAME = toys.toy()


class Highest:
    """A policy that takes the last (highest-id) legal action and remembers its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[State, int]] = []

    def act(self, state: State, player: int) -> object:
        """The highest legal action."""
        self.calls.append((state, player))
        return state.legal_actions(player)[-1]


def waiting(match: Match) -> tuple[int, ...]:
    """The humans the match waits for (a call, so that type checkers do not narrow it)."""
    return match.waiting_for


def in_sync(match: Match) -> None:
    """History, record and state agree."""
    assert len(match.history) == len(match.record.moves)
    assert match.record.final_state() == match.state
    for step, move in zip(match.history, match.record.moves, strict=True):
        assert step.player == move.player
        assert GAME.action_text(step.action) == move.action


def test_run_samples_chance_and_stops_for_a_human() -> None:
    match = Match(GAME, seed=3)
    state = match.run()
    assert state is match.state
    assert state.to_move == (0,) and waiting(match) == (0,)
    assert [s.player for s in match.history] == [CHANCE, CHANCE]
    assert not match.is_over
    assert match.step() is None and match.run() == state  # nothing to do without the human
    in_sync(match)


def test_humans_play_through_apply() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    match.run()
    assert match.state.is_simultaneous and waiting(match) == (0, 1)
    match.apply(Bid(0), 1)
    assert waiting(match) == (0,)
    match.apply(Bid(1), 0)
    assert match.is_over and waiting(match) == ()
    assert match.step() is None
    in_sync(match)
    assert [s.player for s in match.history] == [CHANCE, CHANCE, 0, CHANCE, 1, 0]


def test_errors_leave_the_match_unchanged() -> None:
    match = Match(GAME, seed=3)
    match.run()
    before = (match.state, list(match.history), match.record, match.rng)
    with pytest.raises(IllegalActionError):
        match.apply(Bid(0))
    with pytest.raises(IllegalActionError):
        match.apply(Stake(1), 1)
    assert (match.state, match.history, match.record, match.rng) == before


def test_match_apply_without_player_when_several_are_to_move() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(1))
    match.run()
    with pytest.raises(IllegalActionError, match="say which one"):
        match.apply(Bid(0))


def test_policies_play_whole_games_reproducibly() -> None:
    finals = []
    for seed in (1, 1, 2, 3, 4, 5):
        bots = {0: Highest(), 1: Highest()}
        match = Match(GAME, seed=seed, policies=bots)
        final = match.run()
        assert final.is_terminal and match.is_over
        assert len(match.history) == 6
        in_sync(match)
        assert [p for _, p in bots[0].calls] == [0, 0]  # the stake and a bid
        assert [p for _, p in bots[1].calls] == [1]
        assert isinstance(final, ToyState)
        assert final.stake == 2  # the highest stake
        finals.append(match.record)
    assert finals[0] == finals[1]
    assert len({r.dumps() for r in finals[1:]}) > 1


def test_seed_may_be_an_rng() -> None:
    a = Match(GAME, seed=Rng(9), policies={0: Highest(), 1: Highest()})
    b = Match(GAME, seed=9, policies={0: Highest(), 1: Highest()})
    assert a.run() == b.run()


def test_policy_and_human_together() -> None:
    bot = Highest()
    match = Match(GAME, seed=7, policies={1: bot})
    match.run()
    assert waiting(match) == (0,)  # the human's stake
    match.apply(Stake(1))
    match.run()
    # The bot has committed its bid; the human still owes one.
    assert match.state.to_move == (0,) and waiting(match) == (0,)
    assert [p for _, p in bot.calls] == [1]
    match.apply(match.state.legal_actions(0)[0])
    assert match.is_over
    in_sync(match)


def test_run_with_max_steps() -> None:
    match = Match(GAME, seed=3, policies={0: Highest(), 1: Highest()})
    match.run(max_steps=1)
    assert len(match.history) == 1
    match.run(max_steps=2)
    assert len(match.history) == 3
    match.run()
    assert len(match.history) == 6


def test_policy_seats_must_exist() -> None:
    with pytest.raises(ValueError, match=r"policy for seat 2, but seats are 0..1"):
        Match(GAME, policies={2: Highest()})


def test_step_reports_what_happened() -> None:
    match = Match(GAME, seed=5, policies={0: Highest()})
    rng_before = match.rng
    first = match.step()
    assert isinstance(first, Step)
    assert first.player == CHANCE and first.before == GAME.initial_state()
    assert first.rng == rng_before
    assert match.rng != rng_before
    match.step()
    stake = match.step()
    assert stake is not None and stake.player == 0 and stake.action == Stake(2)
    assert stake is match.history[-1]


def test_chance_step_in_history_keeps_the_rng_before_the_draw() -> None:
    match = Match(GAME, seed=5)
    step = match.step()
    assert step is match.history[-1]
    assert step.rng == Rng(5)
    assert match.rng == clangames.sample_chance(GAME.initial_state(), Rng(5))[1]


# -- undo ------------------------------------------------------------------------------------


def test_undo_goes_back_before_the_players_last_decision() -> None:
    match = Match(GAME, seed=3)
    match.run()
    at_stake, rng_at_stake = match.state, match.rng
    match.apply(Stake(1))
    assert match.can_undo(0)
    assert match.undo(0) == at_stake
    assert match.state == at_stake and match.rng == rng_at_stake
    assert len(match.history) == 2
    in_sync(match)


def test_undo_takes_later_decisions_back_too() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    match.run()
    at_bid = match.state
    match.apply(Bid(1), 1)
    half = match.state
    match.apply(Bid(0), 0)
    assert match.is_over
    assert match.undo(0) == half  # only seat 0's bid goes
    in_sync(match)
    match.apply(Bid(1), 0)
    assert match.undo(1) == at_bid  # seat 1's bid and seat 0's later one go
    assert waiting(match) == (0, 1)
    assert len(match.history) == 4
    in_sync(match)


def test_undo_refuses_to_cross_a_chance_node() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(1))
    match.run()  # the community card is turned up: it may have revealed something
    assert match.history[-1].player == CHANCE
    before = (match.state, list(match.history), match.record)
    assert not match.can_undo(0)
    with pytest.raises(UndoError, match="cannot undo for player 0: a chance outcome came after"):
        match.undo(0)
    assert (match.state, match.history, match.record) == before


def test_undo_without_a_decision() -> None:
    match = Match(GAME, seed=3)
    with pytest.raises(UndoError, match=r"^player 0 has made no decision to undo$"):
        match.undo(0)
    match.run()
    with pytest.raises(UndoError, match="a chance outcome came after"):
        match.undo(1)
    assert not match.can_undo(1)


def test_replaying_after_undo_gives_the_same_chance() -> None:
    match = Match(GAME, seed=11)
    match.run()
    match.apply(Stake(1))
    match.run()
    first_flip = match.state
    other = Match(GAME, seed=11)
    other.run()
    other.apply(Stake(2))
    other.undo(0)
    other.apply(Stake(1))
    other.run()
    assert other.state == first_flip
    assert other.record == match.record


# -- the record, built on demand ---------------------------------------------------------------


class RandomPolicy:
    """Uniformly random legal actions from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def act(self, state: State, player: int) -> object:
        """A random legal action."""
        legal = state.legal_actions(player)
        i, self.rng = self.rng.below(len(legal))
        return legal[i]


def old_style_record(match: Match) -> GameRecord:
    """The record as the driver used to keep it: one ``with_move`` per step."""
    record = GameRecord.start(match.game)
    for step in match.history:
        record = record.with_move(step.before, step.action, step.player)
    return record


def _configurations() -> list[tuple[str, int]]:
    return [
        (spec.name, players)
        for spec in clangames.games()
        if spec.name != toys.FAULTY_SPEC.name
        for players in range(spec.min_players, spec.max_players + 1)
    ]


@pytest.mark.parametrize(("name", "players"), _configurations())
def test_the_record_is_the_one_with_move_builds(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    for seed in (1, 2):
        policies = {p: RandomPolicy(seed * 10 + p) for p in range(players)}
        match = Match(game, seed=seed, policies=policies)
        match.run(max_steps=20)
        assert match.record == old_style_record(match)  # part way through, then on
        match.run()
        record = match.record
        assert record == old_style_record(match)
        assert record.dumps() == old_style_record(match).dumps()
        assert match.record is record  # nothing new: the same record
        assert record.final_state() == match.state


def test_undo_trims_the_record_and_play_goes_on_from_there() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    match.run()
    match.apply(Bid(1), 1)
    match.apply(Bid(0), 0)
    assert [m.action for m in match.record.moves[-3:]] == ["draw low", "bid 1", "bid 0"]
    match.undo(1)
    assert match.record == old_style_record(match)
    assert len(match.record.moves) == 4
    match.apply(Bid(0), 1)  # a different move at the same index as before the undo
    match.apply(Bid(2), 0)
    assert [m.action for m in match.record.moves[-2:]] == ["bid 0", "bid 2"]
    assert match.record == old_style_record(match)
    in_sync(match)


def test_a_history_edited_behind_the_match_rebuilds_the_record() -> None:
    match = Match(GAME, seed=3, policies={0: Highest(), 1: Highest()})
    match.run()
    assert len(match.record.moves) == 6
    last = match.history[-1]
    match.history[-1] = attrs.evolve(last, action=Bid(0))
    assert match.record.moves[-1] == Move(last.player, "bid 0")
    del match.history[3:]
    assert match.record == old_style_record(match)


# A two-player race to a target total, each turn adding 1 or 2: as long as wanted.


@attrs.frozen(slots=True)
class Add:
    """Add ``amount`` to the total."""

    amount: int


@attrs.frozen(slots=True)
class TallyState(State):
    """The running total; the game ends once it reaches the target."""

    game: TallyGame = attrs.field(repr=False, metadata={"json": False})
    phase: Phase
    total: int

    def _legal(self, player: int) -> tuple[Add, ...]:
        return self.game.adds

    def _apply(self, action: Any, player: int) -> TallyState:
        total = self.total + action.amount
        over = total >= self.game.target
        return TallyState(self.game, Phase.over() if over else Phase.turn("add", 1 - player), total)

    def observation(self, player: int) -> int:
        return self.total

    def public_observation(self) -> int:
        return self.total

    def resample(self, player: int, rng: Rng) -> TallyState:
        return self

    def scores(self) -> tuple[int, ...]:
        return (self.total, 0)

    def winners(self) -> tuple[int, ...]:
        return (0,) if self.is_terminal else ()

    def describe(self, action: Any) -> str:
        return f"adds {action.amount}"

    def prompt(self) -> str:
        return "add 1 or 2"


class TallyGame(Game):
    """The race to ``target``."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        self.target: int = params["target"]
        self._actions = ActionTable([Add(1), Add(2)], lambda a: f"add {a.amount}")
        self.adds = self._actions.actions
        self._info = GameInfo(
            name=spec.name,
            title=spec.title,
            num_players=2,
            min_players=2,
            max_players=2,
            has_chance=False,
            has_simultaneous_moves=False,
            has_hidden_information=False,
            max_game_length=self.target,
            num_distinct_actions=2,
        )

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def actions(self) -> ActionTable[Add]:
        return self._actions

    @property
    def state_type(self) -> type[TallyState]:
        return TallyState

    def initial_state(self) -> TallyState:
        return TallyState(self, Phase.turn("add", 0), 0)


def _tally(params: Mapping[str, Any]) -> Game:
    return TallyGame(TALLY, params)


TALLY = GameSpec(
    name="tally",
    title="Tally",
    summary="Test-only: add 1 or 2 until the target.",
    min_players=2,
    max_players=2,
    parameters=(
        Parameter("players", 2, "number of players", int, minimum=2, maximum=2),
        Parameter("target", 6000, "the total that ends the game", int, minimum=1),
    ),
    factory=_tally,
)


def test_a_long_match_builds_its_record_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    moves_made: list[Move] = []

    def counted_record(game: str, params: Mapping[str, Any], moves: tuple[Move, ...]) -> Any:
        built.append(len(moves))
        return GameRecord(game, params, moves)

    def counted_move(player: int, action: str) -> Move:
        moves_made.append(Move(player, action))
        return moves_made[-1]

    def no_with_move(*args: object) -> GameRecord:
        raise AssertionError("the driver copied the record on a move")

    monkeypatch.setattr(match_module, "GameRecord", counted_record)
    monkeypatch.setattr(match_module, "Move", counted_move)
    monkeypatch.setattr(GameRecord, "with_move", no_with_move)
    game = TallyGame(TALLY, TALLY.resolve({}))
    match = Match(game, seed=1, policies={0: RandomPolicy(1), 1: RandomPolicy(2)})
    match.run()
    length = len(match.history)
    assert length >= 3000 and match.is_over
    assert built == [] and moves_made == []  # playing built nothing
    record = match.record
    assert built == [length] and len(moves_made) == length
    assert match.record is record and built == [length]
    assert record.moves[:3] == tuple(
        Move(s.player, f"add {s.action.amount}") for s in match.history[:3]
    )


def test_a_record_read_after_every_move_converts_each_move_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moves_made: list[Move] = []

    def counted_move(player: int, action: str) -> Move:
        moves_made.append(Move(player, action))
        return moves_made[-1]

    monkeypatch.setattr(match_module, "Move", counted_move)
    game = TallyGame(TALLY, TALLY.resolve({"target": 1500}))
    match = Match(game, seed=1, policies={0: RandomPolicy(3), 1: RandomPolicy(4)})
    while match.step() is not None:  # as an autosave after every move would
        assert len(match.record.moves) == len(match.history)
    assert len(moves_made) == len(match.history) >= 750
