"""The uniformly random bot: a baseline, a playout policy and a test opponent."""

from __future__ import annotations

from clangames.engine.errors import IllegalActionError, InvalidArgumentError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State


def nothing_to_do(state: State, player: int) -> IllegalActionError:
    """The error every bot raises when asked to act for ``player`` where that seat has no
    legal action (not its turn, or the game is over): it names the seat and who is to
    move, so a caller driving the wrong seat sees which one it should have asked."""
    return IllegalActionError(
        f"player {player} has no legal action here (to_move is {state.to_move!r})"
    )


class RandomBot:
    """Picks one of the legal actions uniformly at random.

    ``RandomBot(seed)`` takes an int seed or a kernel :class:`Rng`. The bot keeps its
    advancing Rng as internal state, so the same seed and the same positions give the
    same choices: a game between bots replays exactly from its seeds.
    """

    __slots__ = ("_rng",)

    def __init__(self, seed: int | Rng = 0) -> None:
        self._rng = seed if isinstance(seed, Rng) else Rng(seed)

    @property
    def rng(self) -> Rng:
        """The generator the next choice will use (its state is one int, for saving)."""
        return self._rng

    def act(self, state: State, player: int) -> Action:
        """A uniformly random legal action of ``player`` in ``state``.

        Raises InvalidArgumentError (a ValueError) for the chance player (chance outcomes
        have their own probabilities: use :func:`clangames.sample_chance`) and
        IllegalActionError if ``player`` has nothing to do in ``state``.
        """
        if player == CHANCE:
            raise InvalidArgumentError(
                "RandomBot does not play chance nodes; sample them with clangames.sample_chance"
            )
        legal = state.legal_actions(player)
        if not legal:
            raise nothing_to_do(state, player)
        index, self._rng = self._rng.below(len(legal))
        return legal[index]

    def __repr__(self) -> str:
        return f"RandomBot({self._rng!r})"
