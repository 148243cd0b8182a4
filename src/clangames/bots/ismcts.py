"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game.

Each iteration deals the hidden information anew with ``state.resample(player, rng)`` (a
*determinization* consistent with what the searching player knows), walks a tree whose nodes
are the searching player's information sets, adds one node, finishes the game with random
moves and backs the returns up.

How the tree stays honest about hidden information:

- A child is keyed by the searching player's *observation* after the step, never by the hidden
  part of the determinization, so two determinizations that the searcher cannot tell apart
  share their nodes (a hidden card dealt to an opponent does not split the tree, a public
  card drawn from the pile does).
- Actions are chosen by UCB over per-node *edge* statistics of each acting player, counting
  how often an action was available (ISMCTS availability), because what is legal differs
  between determinizations.
- Chance outcomes are drawn from the determinization with their exact probabilities.
- At a simultaneous node every player still to commit chooses from its own edge statistics
  (decoupled UCT) without seeing the others' choices, then all commitments are applied.

Seeded with the kernel's :class:`~clangames.Rng`, so a game with this bot is reproducible
(unless ``time_limit`` stops a search early, which depends on the machine's speed).
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Hashable
from typing import Any

from clangames.bots.random_bot import nothing_to_do
from clangames.bots.registry import BotSpec, register_bot
from clangames.engine.chance import sample_chance
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout
from clangames.engine.state import Action, State


class _Edge:
    """Statistics of one player's action at one node: visits, availability, total return."""

    __slots__ = ("available", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0


class _Node:
    """One information set of the searching player: edge statistics per (player, action)
    and the children, keyed by what the searching player observes after the step."""

    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Action], _Edge] = {}
        self.children: dict[Hashable, _Node] = {}


class ISMCTSBot:
    """A search bot for every clangames game: ``ISMCTSBot(seed, iterations=200)``.

    - ``seed``: an int or a kernel :class:`~clangames.Rng`.
    - ``iterations``: determinized playouts per decision (None: no cap, then ``time_limit``
      is required).
    - ``time_limit``: seconds per decision; the search stops early when they are used up.
    - ``exploration``: the UCB constant (returns lie in [0, 1]).
    - ``rollout_limit``: random rollouts stop after that many steps; the position is then
      valued as a win shared by the seats currently ahead on ``scores()`` in the
      determinization (None: play every rollout to the end).
    """

    def __init__(
        self,
        seed: int | Rng = 0,
        iterations: int | None = 200,
        time_limit: float | None = None,
        exploration: float = 0.7,
        rollout_limit: int | None = None,
    ) -> None:
        if iterations is None and time_limit is None:
            raise InvalidArgumentError("ISMCTSBot needs an iteration cap or a time_limit (or both)")
        # A setting of the wrong type is refused by name, not left to fail later (or to
        # run 3 iterations for 2.5) inside a comparison.
        for name, value, whole, optional in (
            ("iterations", iterations, True, True),
            ("time_limit", time_limit, False, True),
            ("exploration", exploration, False, False),
            ("rollout_limit", rollout_limit, True, True),
        ):
            if (value is not None or not optional) and not _is_a(value, whole):
                kind = ("an int" if whole else "a number") + (" or None" if optional else "")
                raise InvalidArgumentError(f"ISMCTSBot needs {name} to be {kind}, got {value!r}")
        if iterations is not None and iterations < 1:
            raise InvalidArgumentError(f"ISMCTSBot needs iterations >= 1, got {iterations}")
        if time_limit is not None and not time_limit > 0:
            raise InvalidArgumentError(f"ISMCTSBot needs a positive time_limit, got {time_limit}")
        if iterations is None and time_limit == math.inf:
            # Nothing would ever stop the search: act() would never return.
            raise InvalidArgumentError(
                "ISMCTSBot needs a finite time_limit when iterations is None (no cap), got inf"
            )
        if not exploration >= 0:
            raise InvalidArgumentError(f"ISMCTSBot needs exploration >= 0, got {exploration}")
        if rollout_limit is not None and rollout_limit < 0:
            raise InvalidArgumentError(f"ISMCTSBot needs rollout_limit >= 0, got {rollout_limit}")
        self.rng = seed if isinstance(seed, Rng) else Rng(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.last_iterations = 0
        """How many iterations the last :meth:`act` ran (for reports and tests)."""

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot({self.rng!r}, iterations={self.iterations!r},"
            f" time_limit={self.time_limit!r}, exploration={self.exploration!r},"
            f" rollout_limit={self.rollout_limit!r})"
        )

    def act(self, state: State, player: int) -> Action:
        """The legal action of ``player`` whose edge the search visited most (ties: the
        lowest action id). A single legal action is returned without searching.

        Raises InvalidArgumentError (a ValueError) for the chance player and
        IllegalActionError if ``player`` has nothing to do in ``state`` (as
        :class:`~clangames.bots.random_bot.RandomBot`)."""
        if player == CHANCE:
            raise InvalidArgumentError("ISMCTSBot does not play chance nodes; sample them instead")
        legal = state.legal_actions(player)
        if not legal:
            raise nothing_to_do(state, player)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        count = 0
        while self.iterations is None or count < self.iterations:
            det = state.resample(player, self.rng.fork(1))
            self.rng = self._iterate(root, det, player, self.rng.fork(2))
            count += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = count
        edges = root.edges
        best = legal[0]
        best_visits = -1
        for action in legal:
            edge = edges.get((player, action))
            visits = -1 if edge is None else edge.visits
            if visits > best_visits:
                best, best_visits = action, visits
        return best

    # -- one iteration ---------------------------------------------------------------------
    def _iterate(self, root: _Node, state: State, me: int, rng: Rng) -> Rng:
        used: list[tuple[_Edge, int]] = []
        node = root
        # -- selection and expansion -------------------------------------------------------
        while not state.is_terminal:
            if state.is_chance:
                action, rng = sample_chance(state, rng)
                state = state.apply(action, CHANCE)
                key = _key(state, me, action)
            else:
                for player in state.to_move:
                    action, rng = self._choose(node, state, player, rng, used)
                    state = state.apply(action, player)
                key = _key(state, me, action)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        # -- rollout: the kernel's fast path (the first player to move acts) ---------------
        state, rng, _ = rollout(state, rng, self.rollout_limit, first_mover=True)
        values = _value(state)
        # -- backpropagation -----------------------------------------------------------------
        for edge, player in used:
            edge.visits += 1
            edge.total += values[player]
        return rng

    def _choose(
        self,
        node: _Node,
        state: State,
        player: int,
        rng: Rng,
        used: list[tuple[_Edge, int]],
    ) -> tuple[Action, Rng]:
        """Pick ``player``'s action at ``node``: an untried one at random if any, else by
        UCB with availability counts; records the edge for backpropagation."""
        legal = state.legal_actions(player)
        edges = node.edges
        untried: list[Action] = []
        best: _Edge | None = None
        best_action: Action = legal[0]
        best_score = -math.inf
        c = self.exploration
        for action in legal:
            edge = edges.get((player, action))
            if edge is None:
                untried.append(action)
                continue
            edge.available += 1
            if untried:
                continue
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best, best_action, best_score = edge, action, score
        if untried:
            i, rng = rng.below(len(untried))
            best_action = untried[i]
            best = edges[(player, best_action)] = _Edge()
            best.available = 1
        if best is None:  # pragma: no cover - legal is never empty at a decision node
            raise InvalidArgumentError(f"player {player} has no legal action: {state.prompt()}")
        used.append((best, player))
        return best_action, rng


def _is_a(value: Any, whole: bool) -> bool:
    """Whether ``value`` is an int (``whole``) or a real number, not a bool."""
    kind = numbers.Integral if whole else numbers.Real
    return isinstance(value, kind) and not isinstance(value, bool)


def _key(state: State, me: int, action: Action) -> Hashable:
    """The child key: what ``me`` observes after the step (the step's action if the game's
    observation is not hashable)."""
    obs = state.observation(me)
    try:
        hash(obs)
    except TypeError:
        return ("action", action)
    return obs  # type: ignore[no-any-return]


def _value(state: State) -> tuple[float, ...]:
    """Terminal returns; for a cut-off rollout, a win shared by the current score leaders."""
    if state.is_terminal:
        return state.returns()
    scores = state.scores()
    best = max(scores)
    leaders = [p for p, s in enumerate(scores) if s == best]
    share = 1.0 / len(leaders)
    return tuple(share if p in leaders else 0.0 for p in range(len(scores)))


def _factory(rng: Rng) -> ISMCTSBot:
    return ISMCTSBot(rng, iterations=200, rollout_limit=40)


register_bot(
    BotSpec(
        "ismcts",
        "information-set Monte Carlo tree search (200 determinized playouts per decision)",
        _factory,
    )
)
