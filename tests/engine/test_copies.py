"""Copies of states: copy.copy, copy.deepcopy and pickle (every protocol) of states at every
kind of node of every game and player count, with and without their legal-action memo.

A copy must be equal to the state, hash alike, keep the process's loaded game (never a
copy of it), carry no cache field through a pickle, and accept exactly the actions the
state accepts: the action table's own objects and equal but separately built ones, each
giving the state the original gives.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames import CHANCE, Commitments, Game, Rng, State, StateDecodeError
from clangames.engine import registry
from clangames.engine.chance import sample_chance
from clangames.engine.simultaneous import NOT_COMMITTED
from clangames.testing import strategies
from testing import toys

Copier = Callable[[State], State]


def _pickler(protocol: int) -> Copier:
    """A pickle round trip with ``protocol``."""

    def round_trip(state: State) -> State:
        back: State = pickle.loads(pickle.dumps(state, protocol))
        return back

    return round_trip


COPIERS: dict[str, Copier] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    **{f"pickle{p}": _pickler(p) for p in range(pickle.HIGHEST_PROTOCOL + 1)},
}

PLAYOUTS = 2
MORE_PLAYOUTS = 100
PER_KIND = 3
"""States kept of each kind of node per game and player count (first, middle, last)."""


def _configurations() -> list[tuple[str, int]]:
    """Every registered game (the faulty toy aside) at every player count."""
    return [
        (spec.name, players)
        for spec in clangames.games()
        if spec.name != toys.FAULTY_SPEC.name
        for players in range(spec.min_players, spec.max_players + 1)
    ]


def kind(state: State) -> str:
    """Which kind of node ``state`` is."""
    if state.is_terminal:
        return "terminal"
    if state.is_chance:
        return "chance"
    if state.is_simultaneous:
        # A sealed commitment is in once fewer players are to move than are seated in it.
        committed = "sealed" if _sealed(state) else "open"
        return f"simultaneous-{committed}"
    return "decision"


def _sealed(value: Any, depth: int = 2) -> bool:
    """True if some player has already committed at this simultaneous node: a Commitments
    among the state's fields or, a level or two down, inside one of its values (Clan Feud
    keeps a battle's commitments in its battle)."""
    for field in attrs.fields(type(value)):
        item = getattr(value, field.name)
        if isinstance(item, Commitments):
            if any(i != NOT_COMMITTED for i in item.ids):
                return True
        elif depth and attrs.has(type(item)) and _sealed(item, depth - 1):
            return True
    return False


def playout(game: Game, seed: int) -> Iterator[State]:
    """The states of a seeded random playout, one commitment at a time at simultaneous
    nodes."""
    rng = Rng(seed)
    state = game.initial_state()
    yield state
    while not state.is_terminal:
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            state = state.apply(action, CHANCE)
        else:
            movers = state.to_move
            i, rng = rng.below(len(movers))
            legal = state.legal_actions(movers[i])
            j, rng = rng.below(len(legal))
            state = state.apply(legal[j], movers[i])
        yield state


def expected_kinds(game: Game) -> set[str]:
    """The kinds of node every playout-sampled game must show."""
    kinds = {"chance", "decision", "terminal"}
    if game.info.has_simultaneous_moves:
        kinds |= {"simultaneous-open", "simultaneous-sealed"}
    return kinds


def sample_states(name: str, players: int) -> dict[str, list[State]]:
    """A few states of each kind of node from seeded playouts: PLAYOUTS of them, and more
    (up to MORE_PLAYOUTS) while a kind is still missing, since random play reaches some
    nodes seldom (Clan Feud's sealed battle commitments with two clans far apart)."""
    game = clangames.load(name, players=players)
    wanted = expected_kinds(game)
    found: dict[str, list[State]] = {}
    for seed in range(MORE_PLAYOUTS):
        if seed >= PLAYOUTS and wanted <= set(found):
            break
        for state in playout(game, 1000 * players + seed):
            found.setdefault(kind(state), []).append(state)
    return {k: [v[0], v[len(v) // 2], v[-1]][:PER_KIND] for k, v in found.items()}


def duplicate(action: Any) -> Any:
    """An action equal to ``action`` but built separately."""
    twin = pickle.loads(pickle.dumps(action))
    assert twin == action and twin is not action
    return twin


def cache_fields(state: State) -> Mapping[str, Any]:
    """Each cache field of the state's class (outside equality and JSON) and its default."""
    return {f.name: f.default for f in attrs.fields(type(state)) if f.metadata.get("cache")}


def fresh(state: State) -> State:
    """An equal state that has worked nothing out yet (read back from its JSON)."""
    again = state.game.state_from_json(state.to_json())
    # Decoding ends with the liveness check, which works out the legal actions; this copy
    # is a new object, so emptying its cache fields touches nothing else.
    for name, default in cache_fields(again).items():
        object.__setattr__(again, name, default)
    return again


def check_copy(original: State, clone: State, how: str) -> None:
    """``clone`` behaves exactly like ``original``."""
    assert clone == original and hash(clone) == hash(original)
    assert type(clone) is type(original)
    assert clone.to_json() == original.to_json()
    # The game is the process's loaded game: never a copy, never rebuilt.
    assert clone.game is original.game
    assert clone.game is clangames.load(original.game.name, **original.game.params)
    if how.startswith("pickle"):
        for name, default in cache_fields(clone).items():
            assert getattr(clone, name) == default, f"cache field {name} travelled"
    else:
        assert clone is original  # states are immutable: a copy is the state itself
    movers = original.to_move
    assert clone.to_move == movers
    if len(movers) == 1:
        assert clone.legal_actions() == original.legal_actions()
    for player in movers:
        legal = original.legal_actions(player)
        copied = clone.legal_actions(player)
        assert copied == legal
        assert all(a is b for a, b in zip(copied, legal, strict=True))  # the table's objects
        if player == CHANCE:
            assert clone.chance_outcomes() == original.chance_outcomes()
        for action in legal:
            expected = original.apply(action, player)
            for offered in (action, duplicate(action)):
                assert clone.is_legal(offered, player)
                after = clone.apply(offered, player)
                assert after == expected and hash(after) == hash(expected)
                if len(movers) == 1:
                    assert clone.apply(offered) == expected
    if original.is_terminal:
        assert clone.returns() == original.returns()
        assert clone.scores() == original.scores()


@pytest.mark.parametrize(("name", "players"), _configurations())
def test_copies_accept_the_same_actions(name: str, players: int) -> None:
    samples = sample_states(name, players)
    for states in samples.values():
        for state in states:
            for memo in ("filled", "empty"):
                for how, copier in COPIERS.items():
                    original = state if memo == "filled" else fresh(state)
                    if memo == "filled":
                        for player in original.to_move:
                            original.legal_actions(player)
                    check_copy(original, copier(original), how)


@pytest.mark.parametrize("name", sorted({n for n, _ in _configurations()}))
def test_copies_are_tried_at_every_kind_of_node(name: str) -> None:
    # Over all its player counts, each game shows every kind of node it has. (Per player
    # count it need not: random two-clan Clan Feud games almost never fight a battle.)
    found: set[str] = set()
    for game_name, players in _configurations():
        if game_name == name:
            found |= set(sample_states(name, players))
    assert expected_kinds(clangames.load(name)) <= found, sorted(found)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), how=st.sampled_from(sorted(COPIERS)), filled=st.booleans())
def test_copies_of_any_reachable_state_accept_the_same_actions(
    data: st.DataObject, how: str, filled: bool
) -> None:
    name = data.draw(st.sampled_from([n for n, _ in _configurations()]), label="name")
    game = data.draw(strategies.loaded_games(name), label="game")
    state = data.draw(strategies.reachable_states(game, max_steps=150), label="state")
    original = state if filled else fresh(state)
    if filled:
        for player in original.to_move:
            original.legal_actions(player)
    check_copy(original, COPIERS[how](original), how)


def test_deepcopy_of_values_holding_states_and_games_keeps_them() -> None:
    game = clangames.load("kings_kilt", players=3)
    state = game.initial_state()
    holder = (game, [state, state.apply(state.legal_actions()[0])])
    clone = copy.deepcopy(holder)
    assert clone == holder and clone[1] is not holder[1]
    assert clone[0] is game and clone[1][0] is state
    assert copy.copy(game) is game and copy.deepcopy(game).spec is game.spec


def test_one_pickle_of_many_states_loads_the_game_once() -> None:
    game = clangames.load("koa_kingmaker", players=4)
    states = list(playout(game, 7))
    data = pickle.dumps(states)
    assert data.count(b"_reload") == 1  # the game is pickled once, by name and parameters
    back = pickle.loads(data)
    assert back == states
    assert all(s.game is game for s in back)


def test_unpickling_does_not_build_the_game_again() -> None:
    calls: list[Mapping[str, Any]] = []

    def counting(params: Mapping[str, Any]) -> Game:
        calls.append(params)
        return toys.ToyGame(spec, params)

    spec = attrs.evolve(toys.SPEC, name="toy_pickled", factory=counting)
    registry.register(spec)
    try:
        game = clangames.load("toy_pickled", max_bid=3)
        state = game.initial_state()
        state = state.apply(state.legal_actions()[0])
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(state, protocol))
            assert back == state and back.game is game
            back = pickle.loads(pickle.dumps(game, protocol))
            assert back is game
        assert len(calls) == 1
    finally:
        registry.unregister("toy_pickled")


def test_pickled_states_carry_no_cached_actions() -> None:
    # Kilt Castle keeps the builder's options in a cache field as well as the memo; neither
    # may put copies of the table's actions into a pickle.
    game = clangames.load("kilt_castle", players=3)
    for state in playout(game, 3):
        if state.is_terminal:
            continue
        assert state.legal_actions(state.to_move[0])
        data = pickle.dumps(state)
        assert b"kilt_castle.actions" not in data
        assert pickle.loads(data) == state


def test_a_cache_field_needs_a_constant_default() -> None:
    @attrs.frozen(slots=True)
    class Odd(toys.ToyState):
        scratch: list[int] = attrs.field(
            factory=list, eq=False, metadata={"json": False, "cache": True}
        )

    base = toys.toy().initial_state()
    odd = Odd(
        game=base.game,
        phase=base.phase,
        deck=base.deck,
        cards=base.cards,
        community=base.community,
        stake=base.stake,
        commitments=base.commitments,
    )
    with pytest.raises(TypeError, match=r"Odd\.scratch: a cache field needs a constant default"):
        pickle.dumps(odd)


def test_a_pickle_of_another_layout_is_refused_clearly() -> None:
    state = toys.toy().initial_state()
    restore, (cls, values) = state.__reduce__()
    assert restore(cls, values) == state
    with pytest.raises(StateDecodeError, match=r"pickled ToyState: 6 fields, this version has 7"):
        restore(cls, values[:-1])
