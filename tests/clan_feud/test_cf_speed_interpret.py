"""The interpreter's shortcuts read the same program: a node's children by number are its
sub-expressions' numbers, and a primitive that is no cost is always available."""

from __future__ import annotations

import clangames
from clangames.clan_feud import interpret
from clangames.clan_feud.effects import If, May, Or, Primitive, Repeat, Seq
from clangames.clan_feud.game import ClanFeudGame


def test_each_node_lists_its_sub_expressions_by_number_in_order() -> None:
    game = clangames.load("clan_feud", players=3)
    assert isinstance(game, ClanFeudGame)
    kinds_seen = set()
    for number, node in enumerate(game.nodes):
        children = game.node_children[number]
        if isinstance(node, Seq):
            expected = node.items
        elif isinstance(node, Or):
            expected = node.options
        elif isinstance(node, (May, If, Repeat)):
            expected = (node.body,)
        else:
            expected = ()
        assert [game.nodes[c] for c in children] == list(expected)
        assert children == tuple(game.node_index[e] for e in expected)
        kinds_seen.add(type(node))
    assert {Seq, Or, If, Primitive} <= kinds_seen


def test_a_primitive_outside_the_costs_is_available_and_a_cost_is_checked() -> None:
    game = clangames.load("clan_feud", players=2)
    state = game.initial_state()
    primitives = [e for e in game.nodes if isinstance(e, Primitive)]
    free = [e for e in primitives if e.name not in interpret.COST_PRIMITIVES]
    costs = [e for e in primitives if e.name in interpret.COST_PRIMITIVES]
    assert free and costs
    for e in free:
        assert interpret.available(state, 0, e)
        assert interpret._costs(state, 0, (e,))  # the long way agrees
    for e in costs:
        assert interpret.available(state, 0, e) == interpret._costs(state, 0, (e,))
