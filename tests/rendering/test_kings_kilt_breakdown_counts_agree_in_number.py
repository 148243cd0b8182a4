"""King's Kilt's end-of-game breakdown words every count in the right number: one King,
Guardian, Noble or Influence card is singular, two or more (and none) are plural."""

from __future__ import annotations

from clangames.kings_kilt import Pass
from clangames.rendering.explain import end_report
from kings_kilt.helpers import load, position


def _report(picture: str, hands: list[list[str]]) -> list[str]:
    """The report's lines once player 0 passes last in the 2-player position ``picture``
    (families: player 0 Macleod, Mackay, Macbeth; player 1 Mackay, Macbeth, Bruce)."""
    state = position(load(2), picture, hands=hands, passed=[1])
    final = state.apply(Pass(), 0)
    assert final.is_terminal
    return end_report([final]).lines()


def test_one_of_each_is_singular_and_two_are_plural() -> None:
    lines = _report("Ml\nMk Mb\nMb Mk Mk", [["Ha"], ["St", "St"]])
    assert lines[:10] == [
        "  player 0: 10",
        "    +3  family card Macleod (1 King)",
        "    +4  family card Mackay (1 Guardian, 2 Nobles)",
        "    +3  family card Macbeth (1 Guardian, 1 Noble)",
        "    (1 Influence card left)",
        "  player 1: 7",
        "    +4  family card Mackay (1 Guardian, 2 Nobles)",
        "    +3  family card Macbeth (1 Guardian, 1 Noble)",
        "    +0  family card Bruce (no card in the top three rows)",
        "    (2 Influence cards left)",
    ]


def test_two_guardians_and_no_influence_card_are_plural() -> None:
    lines = _report("Ml\nMk Mk\nMb Ml Mb", [[], ["St"]])
    assert lines[:10] == [
        "  player 0: 10",
        "    +4  family card Macleod (1 King, 1 Noble)",
        "    +4  family card Mackay (2 Guardians)",
        "    +2  family card Macbeth (2 Nobles)",
        "    (0 Influence cards left)",
        "  player 1: 6",
        "    +4  family card Mackay (2 Guardians)",
        "    +2  family card Macbeth (2 Nobles)",
        "    +0  family card Bruce (no card in the top three rows)",
        "    (1 Influence card left)",
    ]
