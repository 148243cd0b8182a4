"""The rulebook's turn, reveal, pass and end-of-game rules, one test per rule, each checked
on every step of seeded random games with 2, 3 and 4 players (the rulings tests pin the
same rules on hand-built positions)."""

from __future__ import annotations

import functools
from typing import Any

import clangames
from clangames.engine.seats import next_seat, right_of
from clangames.kings_kilt import Advance, Betray, Fill, KingsKiltState, Pass, Reveal

from .helpers import load

Step = tuple[KingsKiltState, Any, KingsKiltState]


@functools.cache
def games() -> tuple[tuple[Step, ...], ...]:
    """Twelve random games per player count, as (state, action, next state) steps."""
    out = []
    for players in (2, 3, 4):
        for seed in range(12):
            game = load(players, first_player=seed % players)
            rng = clangames.Rng(seed * 7 + players)
            state = game.initial_state()
            steps = []
            while not state.is_terminal:
                if state.is_chance:
                    action, rng = clangames.sample_chance(state, rng)
                else:
                    legal = state.legal_actions()
                    j, rng = rng.below(len(legal))
                    action = legal[j]
                nxt = state.apply(action)
                assert isinstance(state, KingsKiltState) and isinstance(nxt, KingsKiltState)
                steps.append((state, action, nxt))
                state = nxt
            out.append(tuple(steps))
    return tuple(out)


def steps() -> list[Step]:
    return [s for g in games() for s in g]


def _turn_states() -> list[KingsKiltState]:
    return [s for s, _, _ in steps() if s.phase.name == "turn"]


# -- ascending the throne -------------------------------------------------------------------------


def test_rule_turns_go_clockwise_from_the_starting_player() -> None:
    for game in games():
        turns = [s for s, _, _ in game if s.phase.name == "turn"]
        first = turns[0]
        assert first.actor == first.game.params["first_player"] and first.turns == 1
        prev = first
        for s in turns[1:]:
            if s.turns == prev.turns:
                continue
            assert s.turns == prev.turns + 1
            assert s.actor == next_seat(prev.actor, s.game.num_players, s.passed)
            prev = s


def test_rule_two_kinds_of_turn_advance_or_betray() -> None:
    for s in _turn_states():
        if s.crowned:
            continue
        legal = s.legal_actions()
        kinds = {type(a) for a in legal}
        assert kinds <= {Advance, Betray} or legal == (s.game.pass_action,)


# -- advancing ---------------------------------------------------------------------------------


def test_rule_advance_is_a_diagonal_move_one_row_up() -> None:
    checked = 0
    for s, a, nxt in steps():
        if isinstance(a, Advance):
            geo = s.game.geo
            src = geo.at[(a.row, a.index)]
            dst = geo.at[(a.row + 1, a.index - (a.direction == "left"))]
            assert nxt.pyramid[dst] == s.pyramid[src] >= 0
            checked += 1
    assert checked > 300


def test_rule_advance_needs_a_neighbour_on_that_side() -> None:
    for s in _turn_states():
        geo = s.game.geo
        for a in s.legal_actions():
            if isinstance(a, Advance):
                p = geo.at[(a.row, a.index)]
                side = geo.left[p] if a.direction == "left" else geo.right[p]
                target = geo.up_left[p] if a.direction == "left" else geo.up_right[p]
                assert s.pyramid[side] >= 0 and s.pyramid[target] < 0


def test_rule_the_active_player_fills_each_vacancy_from_beneath() -> None:
    fills = 0
    for s, a, nxt in steps():
        if s.phase.name == "fill":
            assert s.to_move == (s.actor,)
            assert isinstance(a, Fill)
            src = s.game.geo.at[(a.row, a.index)]
            assert src in s.game.geo.beneath[s.vacancy]
            assert nxt.pyramid[s.vacancy] == s.pyramid[src]
            fills += 1
    assert fills > 100


def test_rule_bottom_row_vacancy_takes_the_draw_piles_top_card() -> None:
    refills = 0
    for s, _, nxt in steps():
        if s.top < 0 or s.actor < 0:
            continue
        for p in s.game.geo.row_positions(1):
            if nxt.pyramid[p] != s.pyramid[p] and nxt.pyramid[p] >= 0:
                assert nxt.pyramid[p] == s.top
                refills += 1
    assert refills > 300


def test_rule_turn_ends_once_every_vacancy_is_filled() -> None:
    for game in games():
        ran_out = False
        for s, _, nxt in game:
            ran_out = ran_out or (nxt.actor >= 0 and nxt.draw_pile_size == 0 and not nxt.discards)
            if nxt.turns == s.turns or nxt.is_terminal:
                continue
            # a new turn: no vacancy is open and every card rests on two cards (unless the
            # draw pile ran out and a bottom space could not be refilled)
            assert nxt.vacancy == -1 and nxt.phase.name == "turn"
            if ran_out:
                continue
            geo = nxt.game.geo
            for p in range(geo.size):
                if nxt.pyramid[p] >= 0 and geo.row[p] > 1:
                    assert all(nxt.pyramid[q] >= 0 for q in geo.beneath[p])


def test_rule_discards_become_the_pile_only_once_it_ran_out() -> None:
    for s, _, _ in steps():
        if s.reshuffled:
            assert not s.leaders and not s.members


# -- betrayal ------------------------------------------------------------------------------------


def test_rule_betrayal_spends_an_influence_card_and_removes_the_card() -> None:
    count = 0
    for s, a, nxt in steps():
        if isinstance(a, Betray):
            target = s.pyramid[s.game.geo.at[(a.row, a.index)]]
            assert nxt.hands[s.actor] == s.hands[s.actor].remove(a.influence)
            assert nxt.removed == s.removed.add(target)
            assert len(nxt.discards) + len(nxt.reshuffled) >= 1
            count += 1
    assert count > 100


def test_rule_betrayal_in_the_top_three_rows_needs_a_matching_clan() -> None:
    for s in _turn_states():
        geo = s.game.geo
        for a in s.legal_actions():
            if isinstance(a, Betray) and a.row >= 4:
                p = geo.at[(a.row, a.index)]
                assert a.influence in {s.pyramid[q] for q in geo.neighbours[p]}


def test_rule_betrayal_in_the_bottom_three_rows_takes_any_card() -> None:
    for s in _turn_states():
        geo = s.game.geo
        legal = set(s.legal_actions())
        hand = s.hands[s.actor].kinds()
        for p in range(geo.size):
            if geo.row[p] > 3 or s.pyramid[p] < 0:
                continue
            if any(s.pyramid[q] >= 0 for q in geo.neighbours[p]):
                for c in hand:
                    assert s.game.betray_action[p][c] in legal


# -- kings, guardians and noblemen ---------------------------------------------------------------


def _expected_queue(s: KingsKiltState, trigger: int, guardians: bool) -> tuple[int, ...]:
    n = s.game.num_players
    if n == 2:
        hidden = (s.families[trigger] & ~s.revealed[trigger]).bit_count()
        return (trigger,) * (hidden - 1) if guardians else (trigger,)
    return tuple((trigger + k) % n for k in range(n) if (trigger + k) % n != right_of(trigger, n))


def _next_turn(game: tuple[Step, ...], s: KingsKiltState) -> KingsKiltState:
    """The first state after ``s`` in which a new turn has begun (or the game is over)."""
    return next(x for _, _, x in game if x.turns > s.turns or x.is_terminal)


def test_rule_reminder_cards_act_the_first_time_only() -> None:
    for game in games():
        flips = [(s, a, nxt) for s, a, nxt in game if nxt.nobles_triggered != s.nobles_triggered]
        assert len(flips) <= 1
        for s, a, nxt in flips:
            assert isinstance(a, Advance) and a.row == 3
            if nxt.reveal_queue:
                assert nxt.reveal_queue == _expected_queue(s, s.actor, False)
        moves = [a for s, a, nxt in game if nxt.guardians_triggered != s.guardians_triggered]
        assert len(moves) <= 1
        for a in moves:
            assert isinstance(a, Advance) and a.row == 4


def test_rule_reveals_you_and_everyone_but_your_right_hand_opponent() -> None:
    seen = 0
    for game in games():
        for s, a, nxt in game:
            trigger_row = isinstance(a, Advance) and a.row in (3, 4)
            flipped = (nxt.nobles_triggered, nxt.guardians_triggered) != (
                s.nobles_triggered,
                s.guardians_triggered,
            )
            if not (trigger_row and flipped):
                continue
            end = _next_turn(game, s)
            revealed_now = [
                (end.revealed[p] & ~s.revealed[p]).bit_count() for p in range(s.game.num_players)
            ]
            queue = _expected_queue(s, s.actor, nxt.guardians_triggered != s.guardians_triggered)
            for p in range(s.game.num_players):
                hidden = (s.families[p] & ~s.revealed[p]).bit_count()
                assert revealed_now[p] == min(hidden, queue.count(p))
            seen += 1
    assert seen > 20


def test_rule_two_player_guardians_leave_one_card_face_down() -> None:
    seen = 0
    for game in games():
        if game[0][0].game.num_players != 2:
            continue
        for s, _, nxt in game:
            if nxt.guardians_triggered and not s.guardians_triggered:
                end = _next_turn(game, s)
                hidden = s.families[s.actor] & ~end.revealed[s.actor]
                assert hidden.bit_count() == 1
                seen += 1
    assert seen > 3


def test_rule_reveal_choices_are_your_own_face_down_cards() -> None:
    for s, a, _ in steps():
        if s.phase.name == "reveal":
            (p,) = s.to_move
            assert isinstance(a, Reveal)
            assert s.families[p] >> a.clan & 1 and not s.revealed[p] >> a.clan & 1


# -- choosing to pass and the end -----------------------------------------------------------------


def test_rule_passing_only_once_a_king_is_crowned() -> None:
    for s in _turn_states():
        legal = s.legal_actions()
        if s.crowned:
            assert isinstance(legal[-1], Pass)
        else:
            assert not any(isinstance(a, Pass) for a in legal) or len(legal) == 1


def test_rule_a_player_who_passed_never_plays_again() -> None:
    for s, _, _ in steps():
        for p in s.to_move:
            if p >= 0 and s.phase.name == "turn":
                assert not s.passed >> p & 1


def test_rule_the_game_ends_when_everyone_has_passed() -> None:
    for game in games():
        last = game[-1][2]
        assert last.is_terminal
        assert last.passed == (1 << last.game.num_players) - 1
        for s, _, _ in game:
            assert not s.is_terminal


def test_rule_every_family_card_scores_3_2_1() -> None:
    for game in games():
        end = game[-1][2]
        geo = end.game.geo
        for p in range(end.game.num_players):
            total = 0
            for c in range(8):
                if end.families[p] >> c & 1:
                    for q in range(geo.size):
                        if end.pyramid[q] == c:
                            total += {6: 3, 5: 2, 4: 1}.get(geo.row[q], 0)
            assert end.scores()[p] == total


def test_rule_most_points_wins_ties_by_influence_then_shared() -> None:
    for game in games():
        end = game[-1][2]
        scores = end.scores()
        keys = [(scores[p], len(end.hands[p])) for p in range(end.game.num_players)]
        best = max(keys)
        winners = tuple(p for p, key in enumerate(keys) if key == best)
        assert end.winners() == winners
        assert end.returns() == tuple(
            1 / len(winners) if p in winners else 0.0 for p in range(end.game.num_players)
        )
