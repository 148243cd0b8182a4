"""Liveness: a decoded state must be one that can be played on.

The codec checks shapes and types and each game's ``check_consistency`` checks the facts
of its components and phases. Neither alone proves that the rules can take the state
further: a phase name that disagrees with the rest of the data can leave a chance node
without outcomes, or a player to move without a legal action. :func:`check_playable`
asks the game's own rules the questions every driver will ask next, once, when a state is
read, so every game (present and future) refuses such a state with a StateDecodeError
instead of failing later in the middle of a game.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

from clangames.engine.errors import InvalidActionError, StateDecodeError
from clangames.engine.phases import CHANCE
from clangames.engine.state import _WEIGHTS, State

if TYPE_CHECKING:
    from clangames.engine.game import Game

_INTS = frozenset((int,))
"""The one type a seat number has (no bool, no subclass)."""

_DERIVED_OUTCOMES = State.chance_outcomes
"""The kernel's ``chance_outcomes``: each weight over their total (a game may override it)."""

_KERNEL_WEIGHTS = State.chance_weights
"""The kernel's ``chance_weights``: the outcomes the state's memo keeps (a game overriding
it takes the full check)."""


def check_playable(state: State) -> None:
    """Raise StateDecodeError unless the rules can take ``state`` further (or score it).

    Checks that ``to_move`` names valid seats (or chance alone), that a chance node has
    outcomes with positive integer weights summing to probability 1, that every player to
    move has at least one legal action of the game's table, and that a terminal state's
    scores and winners compute with one score per seat. Any exception the game's rules
    raise while answering becomes a StateDecodeError naming the phase.
    """
    phase = state.phase
    to_move = phase.to_move
    game = state.game
    facts = _FACTS.get(id(game))
    if facts is None or facts[0] is not game:
        facts = _facts(game)
    n = facts[1]
    identities = facts[2]
    verified = facts[3]
    if len(to_move) == 1 and type(p := to_move[0]) is int and -1 <= p < n:
        # One seat (or chance) to move, the common case: tested without a loop per
        # action, a Fraction or an error text. Anything else (or anything the rules
        # raise here) goes to the full check below, which words the problem.
        try:
            if p >= 0:
                legal = state._legal_memo(p)  # legal_actions(p), one call less
                if legal and identities.issuperset(map(id, legal)):
                    return
            elif (
                not phase.simultaneous
                and (cls := type(state)).chance_outcomes is _DERIVED_OUTCOMES
                and cls.chance_weights is _KERNEL_WEIGHTS
            ):
                # A chance node whose probabilities the kernel derives (weight / total:
                # they sum to exactly 1, no Fractions needed). The memo unpacked every
                # outcome as a pair when it split off their actions, so a plain zip
                # takes the weights: positive ints, the actions distinct table entries.
                actions = state._legal_memo(CHANCE)
                memo = state._memo
                if actions and memo is not None:
                    _, values = zip(*memo[_WEIGHTS])  # noqa: B905 - pairs, see above
                    seen = set(map(id, actions))
                    if (
                        _INTS.issuperset(map(type, values))
                        and min(values) > 0
                        and len(seen) == len(actions)
                        and seen <= identities
                    ):
                        return
        except Exception:  # the full check calls the rules again and reports it
            pass
    elif (
        phase.simultaneous
        and len(to_move) > 1
        and _INTS.issuperset(map(type, to_move))
        and min(to_move) >= 0
        and max(to_move) < n
        and len(set(to_move)) == len(to_move)
    ):
        # Several distinct seats deciding at once (a simultaneous step's usual case): what
        # the full check asks of each, with the same fall back to it on any doubt. The
        # rules often hand each seat a tuple of their own tables here (KOA Kingmaker's
        # cards of a hand), so a tuple found in the table is remembered by identity and
        # not tested again, item by item, for every seat of every state.
        try:
            legal_of = state._legal_memo
            for p in to_move:
                legal = legal_of(p)
                if not legal or (
                    verified.get(id(legal)) is not legal and not _in(identities, verified, legal)
                ):
                    break
            else:
                return
        except Exception:
            pass
    where = f"state.phase: the {phase.name!r} step"
    if len(set(to_move)) != len(to_move):
        raise StateDecodeError(f"{where} lists a player twice in to_move {list(to_move)}")
    for p in to_move:
        if isinstance(p, bool) or not isinstance(p, int) or not (p == CHANCE or 0 <= p < n):
            raise StateDecodeError(
                f"{where}: to_move entry {p!r} is neither a seat 0..{n - 1} nor chance (-1)"
            )
    if CHANCE in to_move and len(to_move) > 1:
        raise StateDecodeError(f"{where}: chance moves alone, got to_move {list(to_move)}")
    if phase.simultaneous and (not to_move or CHANCE in to_move):
        raise StateDecodeError(
            f"{where} is marked simultaneous but to_move {list(to_move)} names no seats"
        )
    if not phase.simultaneous and len(to_move) > 1:
        raise StateDecodeError(
            f"{where} is not simultaneous, so one player moves; got to_move {list(to_move)}"
        )
    try:
        if not to_move:
            _check_terminal(state, where, n)
        elif to_move == (CHANCE,):
            _check_chance(state, where)
        else:
            for p in to_move:
                _check_decision(state, where, p)
    except StateDecodeError:
        raise
    except Exception as exc:  # whatever the rules raise on this data, the state is unplayable
        raise StateDecodeError(
            f"{where} cannot be played: the rules raised {type(exc).__name__}: {exc}"
        ) from exc


def _check_terminal(state: State, where: str, n: int) -> None:
    scores = state.scores()
    if len(scores) != n or not all(_is_int(v) for v in scores):
        raise StateDecodeError(f"{where}: the game is over but its scores are {scores!r}")
    winners = state.winners()
    if len(set(winners)) != len(winners) or not all(_is_int(p) and 0 <= p < n for p in winners):
        raise StateDecodeError(f"{where}: the game is over but its winners are {winners!r}")
    returns = state.returns()
    if len(returns) != n:
        raise StateDecodeError(f"{where}: the game is over but its returns are {returns!r}")


def _check_chance(state: State, where: str) -> None:
    weights = state.chance_weights()
    if not weights:
        raise StateDecodeError(f"{where} is a chance node with no outcomes")
    seen: set[int] = set()
    for action, weight in weights:
        if not _is_int(weight) or weight <= 0:
            raise StateDecodeError(
                f"{where}: chance outcome {action!r} has weight {weight!r}, expected an int > 0"
            )
        seen.add(_action_id(state, action, where))
    if len(seen) != len(weights):
        raise StateDecodeError(f"{where}: a chance outcome is listed twice")
    total = sum((p for _, p in state.chance_outcomes()), Fraction(0))
    if total != 1:
        raise StateDecodeError(f"{where}: chance probabilities sum to {total}, expected 1")


def _check_decision(state: State, where: str, player: int) -> None:
    legal = state.legal_actions(player)
    if not legal:
        raise StateDecodeError(f"{where}: player {player} is to move but has no legal action")
    if _in_table(state, legal):
        return
    for action in legal:  # an equal action built apart from the table's, or a stranger
        _action_id(state, action, where)


_Facts: TypeAlias = "tuple[Game, int, frozenset[int], dict[int, tuple[Any, ...]]]"

_FACTS: dict[int, _Facts] = {}
"""By a loaded game's ``id``: the game, its number of players, the identities of its
action table's actions, worked out once (properties and tables cost more than one dict
look-up), and the tuples of legal actions found in that table so far, by their ``id``
(see :func:`_in`). The game is kept alive here, so its id stays its own; emptied when it
holds many."""


def _facts(game: Game) -> _Facts:
    try:
        facts: _Facts = (game, game.num_players, frozenset(map(id, game.actions.actions)), {})
    except Exception as exc:  # a game that cannot list its own actions: no state of it plays
        raise StateDecodeError(
            f"the game cannot list its players and actions to check the state: the game"
            f" raised {type(exc).__name__}: {exc}"
        ) from exc
    if len(_FACTS) >= 64:
        _FACTS.clear()
    _FACTS[id(game)] = facts
    return facts


def _in(identities: frozenset[int], verified: dict[int, tuple[Any, ...]], legal: Any) -> bool:
    """True if every one of the actions ``legal`` is one of the game table's objects
    (whose ``identities`` are given). A tuple found so is kept in ``verified`` by its
    ``id``: kept alive there, no other object can take that id, and a tuple's items never
    change, so finding the very object again (``is``) answers True without a test."""
    if not identities.issuperset(map(id, legal)):
        return False
    if type(legal) is tuple:
        if len(verified) >= _VERIFIED_MOST:
            verified.clear()  # rules that build a new tuple each time would fill it
        verified[id(legal)] = legal
    return True


_VERIFIED_MOST = 256
"""How many verified tuples a game keeps (a game's shared tuples are far fewer)."""


def _in_table(state: State, actions: tuple[Any, ...]) -> bool:
    """True if every one of ``actions`` is one of the game table's own objects (what the
    rules hand out): a test in C, instead of hashing each action. False may still be fine
    (an equal action built separately); the caller then checks each one by value."""
    game = state.game
    facts = _FACTS.get(id(game))
    if facts is None or facts[0] is not game:
        facts = _facts(game)
    return facts[2].issuperset(map(id, actions))


def _action_id(state: State, action: Any, where: str) -> int:
    try:
        return state.game.actions.id(action)
    except InvalidActionError:
        raise StateDecodeError(
            f"{where}: the rules offer {action!r}, which is not an action of the game"
        ) from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
