"""The card-effect vocabulary: every primitive, quantity, condition, combinator, timing
window and combat effect parses to the tree it means; text forms round-trip; malformed text
is refused naming the field and the column."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clangames import InvalidParameterError
from clangames.clan_feud.effects import (
    PRIMITIVES,
    And,
    CombatEffect,
    Compare,
    Const,
    Expr,
    ExpressionError,
    Fewest,
    FilterItem,
    If,
    May,
    Most,
    Or,
    Primitive,
    Quantity,
    Repeat,
    Scaled,
    Seq,
    Timing,
    Truth,
    parse_combat,
    parse_expression,
    parse_timing,
    places,
    primitives,
)

# One use of each of the twenty primitives, with its code.
PRIMITIVE_EXAMPLES = {
    "E1": "gain_money(2*cities)",
    "E2": "pay_money(3)",
    "E3": "gain_feud(2)",
    "E4": "pay_feud(1)",
    "E5": "gain_vp(-1*(money//5))",
    "E6": "draw_cards(1)",
    "E7": "discard_cards(2)",
    "E8": "steal(card, 1)",
    "E9": "modify_die(2, +1, colour=white, value=1)",
    "E10": "reroll_dice(2, opponent)",
    "E11": "take_temp_die(white)",
    "E12": "choose_turn_order()",
    "E13": "bonus_action(income, I)",
    "E14": "discount(6)",
    "E15": "place_building(th1)",
    "E16": "recruit(artillery, 1)",
    "E17": "boost_move(armies=+1, speed=+1, ignore_mountains, only=cavalry)",
    "E18": "reduce_upkeep(1*troops(infantry))",
    "E19": "england_track(-2)",
    "E20": "remove_troops(2, type=cavalry)",
}


def test_twenty_primitives() -> None:
    assert sorted(PRIMITIVES.values(), key=lambda s: int(s.code[1:]))[0].code == "E1"
    assert {s.code for s in PRIMITIVES.values()} == {f"E{i}" for i in range(1, 21)}
    assert set(PRIMITIVE_EXAMPLES) == {s.code for s in PRIMITIVES.values()}
    for code, text in PRIMITIVE_EXAMPLES.items():
        node = parse_expression(text)
        assert isinstance(node, Primitive) and node.code == code
        assert str(node) == text


def test_primitive_arguments_are_typed() -> None:
    assert parse_expression("steal(money, 3)") == Primitive("steal", ("money", 3))
    assert parse_expression("england_track(+1)") == Primitive("england_track", (1,))
    assert parse_expression("modify_die(1, 1to3)") == Primitive("modify_die", (1, "1to3"))
    assert parse_expression("gain_money(3)") == Primitive("gain_money", (Const(3),))
    assert parse_expression("gain_vp(1*(money//5))") == Primitive(
        "gain_vp", (Scaled(1, Quantity("money"), 5),)
    )
    boost = parse_expression("boost_move(only=cavalry, ignore_mountains, speed=+1)")
    assert isinstance(boost, Primitive)
    # options are kept in the signature's order whatever order the text used
    assert boost.options == (("speed", 1), ("ignore_mountains", True), ("only", "cavalry"))
    assert boost.option("speed") == 1 and boost.option("armies") is None
    assert str(boost) == "boost_move(speed=+1, ignore_mountains, only=cavalry)"
    remove = parse_expression("remove_troops(1)")
    assert remove == Primitive("remove_troops", (1,)) and str(remove) == "remove_troops(1)"
    assert parse_expression("remove_troops(1, type=any)") == remove


def test_quantities() -> None:
    def amount(text: str) -> Scaled:
        node = parse_expression(f"gain_money(1*{text})")
        assert isinstance(node, Primitive) and isinstance(node.args[0], Scaled)
        return node.args[0]

    for name in ("territories", "cities", "castles", "tower_houses", "troops", "feud"):
        assert amount(name).quantity == Quantity(name)
    assert amount("money").quantity == Quantity("money")
    assert amount("hand").quantity == Quantity("hand")
    assert amount("troops(cavalry)").quantity == Quantity("troops", ("cavalry",))
    assert amount("territories_in(I..III, V, VII..VIII)").quantity == Quantity(
        "territories_in", ("I", "II", "III", "V", "VII", "VIII")
    )
    assert str(amount("territories_in(I..III, V, VII..VIII)").quantity) == (
        "territories_in(I..III, V, VII..VIII)"
    )
    assert str(amount("territories_in(V, I)").quantity) == "territories_in(V, I)"
    assert amount("troops_in(edinburgh, edinburgh_castle, IV)").quantity == Quantity(
        "troops_in", ("edinburgh", "edinburgh_castle", "IV")
    )


def test_conditions() -> None:
    def cond(text: str) -> object:
        node = parse_expression(f"if {text} then gain_vp(1)")
        assert isinstance(node, If)
        assert str(node) == f"if {text} then gain_vp(1)"
        return node.condition

    assert cond("feud >= 5") == Compare(Quantity("feud"), ">=", 5)
    assert cond("feud <= 1") == Compare(Quantity("feud"), "<=", 1)
    assert cond("troops_in(edinburgh) == 0") == Compare(
        Quantity("troops_in", ("edinburgh",)), "==", 0
    )
    assert cond("most(castles)") == Most(Quantity("castles"))
    assert cond("fewest(troops)") == Fewest(Quantity("troops"))
    assert cond("is_regent") == Truth(Quantity("is_regent"))
    assert cond("controls(stirling)") == Truth(Quantity("controls", ("stirling",)))
    assert cond("cities >= 1 and castles >= 1 and is_regent") == And(
        (
            Compare(Quantity("cities"), ">=", 1),
            Compare(Quantity("castles"), ">=", 1),
            Truth(Quantity("is_regent")),
        )
    )


def test_combinators_and_precedence() -> None:
    a, b, c = (Primitive(n, (Const(1),)) for n in ("gain_money", "gain_feud", "gain_vp"))
    assert parse_expression("[gain_money(1); gain_feud(1)]") == Seq((a, b))
    assert parse_expression("gain_money(1) OR gain_feud(1) OR gain_vp(1)") == Or((a, b, c))
    assert parse_expression("may gain_money(1)") == May(a)
    assert parse_expression("repeat(2) [gain_money(1); gain_feud(1)]") == Repeat(2, Seq((a, b)))
    regent = Truth(Quantity("is_regent"))
    # prefix forms take one term: OR binds loosest
    assert parse_expression("if is_regent then gain_money(1) OR gain_feud(1)") == Or(
        (If(regent, a), b)
    )
    assert parse_expression("if is_regent then [gain_money(1) OR gain_feud(1)]") == If(
        regent, Or((a, b))
    )
    assert parse_expression("may [gain_money(1)]") == May(a)  # one item only groups
    nested = Or((Or((a, b)), c))
    assert str(nested) == "[gain_money(1) OR gain_feud(1)] OR gain_vp(1)"
    assert parse_expression(str(nested)) == nested
    with pytest.raises(ValueError, match="at least 2"):
        Seq((a,))


def test_timing_windows() -> None:
    assert parse_timing("P1.before_order") == Timing("P1.before_order")
    assert parse_timing("P1.after_roll") == Timing("P1.after_roll")
    assert parse_timing("P3.upkeep") == Timing("P3.upkeep")
    timing = parse_timing("P2.assign(column=military, mode=recruit, level>=II)")
    assert timing == Timing(
        "P2.assign",
        (
            FilterItem("column", "=", "military"),
            FilterItem("mode", "=", "recruit"),
            FilterItem("level", ">=", "II"),
        ),
    )
    assert timing.get("mode") == FilterItem("mode", "=", "recruit") and timing.get("colour") is None
    assert parse_timing("P2.assign(value=1)").filter == (FilterItem("value", "=", 1),)
    for text in ("P2.assign(colour=black)", "P2.assign()", "P2.assign(column=build, level=III)"):
        assert str(parse_timing(text)) == text


def test_combat_effects() -> None:
    cases = {
        "cs+3": (CombatEffect("cs", 3), "C1"),
        "skulls+2": (CombatEffect("skulls+", 2), "C2"),
        "skulls-1": (CombatEffect("skulls-", 1), "C3"),
        "cancel": (CombatEffect("cancel"), "C4"),
        "two_is_three": (CombatEffect("two_is_three"), "C5"),
    }
    for text, (node, code) in cases.items():
        assert parse_combat(text) == node and node.code == code and str(node) == text


def test_walkers() -> None:
    node = parse_expression(
        "[if troops_in(edinburgh, IV) == 0 then gain_vp(2); may [pay_money(1*cities);"
        " england_track(-1)] OR remove_troops(1)]"
    )
    assert [p.code for p in primitives(node)] == ["E5", "E2", "E19", "E20"]
    assert places(node) == {"edinburgh"}


# Malformed text: (text, 1-based column, words the message must contain)
MALFORMED = [
    ("gain_mony(3)", 1, "unknown primitive 'gain_mony'"),
    ("gain_money(3", 13, "expected ')' to close gain_money"),
    ("gain_money()", 12, "takes 1 argument(s), found 0"),
    ("steal(money, 3, 4)", 17, "takes 2 argument(s), found more"),
    ("gain_money(0)", 12, "expected a positive amount"),
    ("pay_money(-2)", 11, "expected a positive amount"),
    ("gain_vp(2*)", 11, "expected a name of a quantity"),
    ("gain_vp(2*wealth)", 11, "unknown quantity 'wealth'"),
    ("gain_vp(1*is_regent)", 11, "is a yes/no condition, not an amount"),
    ("gain_vp(1*(money//1))", 19, "expected a number >= 2 as the divisor"),
    ("england_track(1)", 15, "with its sign (e.g. +1)"),
    ("england_track(+0)", 15, "nonzero step"),
    ("modify_die(1, +2)", 15, "expected +1 or 1to3"),
    ("recruit(dragoons, 1)", 9, "expected one of infantry, cavalry, artillery"),
    ("boost_move(only=cavalry)", 1, "needs at least one of armies=, speed=, ignore_mountains"),
    ("boost_move(speed=+1, speed=+2)", 22, "'speed' given twice"),
    ("boost_move(range=+1)", 12, "has no option 'range'"),
    ("boost_move(speed=-1)", 18, "expected a rise (+1, +2, ...) for 'speed'"),
    ("modify_die(1, 1to3, colour=black)", 1, "a black die never turns 1 into 3"),
    ("pay_money(3) OR", 16, "expected an effect"),
    ("pay_money(3) england_track(+1)", 14, "unexpected 'england_track'"),
    ("[gain_money(1); gain_feud(1)", 29, "expected ']'"),
    ("[gain_money(1), gain_feud(1)]", 15, "expected ']'"),
    ("if feud then gain_vp(1)", 9, "expected >=, <= or == after 'feud'"),
    ("if feud >= 1 gain_vp(1)", 14, "expected 'then'"),
    ("if most(is_regent) then gain_vp(1)", 9, "yes/no condition"),
    ("repeat(0) gain_vp(1)", 8, "expected a number >= 1"),
    ("if controls(Stirling) then gain_vp(1)", 13, "expected a territory id (lower case)"),
    ("gain_vp(1*territories_in(V..I))", 26, "must ascend"),
    ("gain_vp(1*territories_in(I, I))", 29, "numeral I is listed twice"),
    ("gain_vp(1*territories_in(I..III, II))", 34, "numeral II is listed twice"),
    ("gain_vp(1*troops_in(mar, IV, mar))", 30, "troops_in names mar twice"),
    ("gain_money(£3)", 12, "unexpected character '£'"),
    ("may", 4, "expected an effect"),
    ("", 1, "expected an effect"),
]


@pytest.mark.parametrize(("text", "column", "words"), MALFORMED)
def test_malformed_expressions_refused_with_position(text: str, column: int, words: str) -> None:
    with pytest.raises(ExpressionError) as info:
        parse_expression(text, "card AC99.action")
    error = info.value
    assert isinstance(error, InvalidParameterError)
    assert error.where == "card AC99.action" and error.text == text
    assert error.position + 1 == column, str(error)
    message = str(error)
    assert message.startswith("card AC99.action: ")
    assert words in message and f"at column {column} of {text!r}" in message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("P2.before_order", "unknown timing window 'P2.before_order'"),
        ("P2.assign", "expected '(' after 'P2.assign'"),
        ("P2.assign(column=smithing)", "expected one of feud, income"),
        ("P2.assign(value=4)", "die value 1-3"),
        ("P2.assign(mode=move)", "mode= needs column=military"),
        ("P2.assign(column=build, column=income)", "'column' given twice"),
        ("P2.assign(colour>=black)", "only level takes '>='"),
        ("P2.assign(level>=I)", "every level"),
        ("P3.upkeep(column=build)", "unexpected '('"),
    ],
)
def test_malformed_timing_refused(text: str, words: str) -> None:
    with pytest.raises(ExpressionError, match="AC99.timing: .*" + words.replace("(", r"\(")):
        parse_timing(text, "AC99.timing")


@pytest.mark.parametrize(
    ("text", "words"),
    [("cs-1", "nonzero amount"), ("cs+0", "nonzero"), ("skulls", "expected a whole number"),
     ("saltire", "unknown combat effect"), ("cancel+1", "unexpected '\\+1'")],
)  # fmt: skip
def test_malformed_combat_refused(text: str, words: str) -> None:
    with pytest.raises(ExpressionError, match=words):
        parse_combat(text, "AC99.combat")


def test_deep_nesting_refused() -> None:
    deep = "may " * 31 + "gain_vp(1)"
    assert str(parse_expression(deep)) == deep
    with pytest.raises(ExpressionError, match=r"nested more than 32 deep.* at column 129"):
        parse_expression("may " * 32 + "gain_vp(1)")
    with pytest.raises(ExpressionError, match="nested more than 32 deep"):
        parse_expression("[" * 5000)


def test_expression_error_pickles() -> None:
    with pytest.raises(ExpressionError) as info:
        parse_expression("gain_vp(", "EV01.objective")
    copy = pickle.loads(pickle.dumps(info.value))
    assert str(copy) == str(info.value) and copy.position == 8 and copy.where == "EV01.objective"


def test_non_text_refused() -> None:
    with pytest.raises(InvalidParameterError, match="expected the text of an expression"):
        parse_expression(3, "EV01.objective")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Generated trees: every tree prints to text that parses back to it.

CONDITIONS = [
    "feud >= 5",
    "most(territories)",
    "fewest(troops(cavalry))",
    "is_regent",
    "controls(edinburgh_castle)",
    "troops_in(edinburgh, I, III) == 0",
    "cities >= 1 and hand <= 2",
]


def _condition(text: str) -> object:
    node = parse_expression(f"if {text} then gain_vp(1)")
    assert isinstance(node, If)
    return node.condition


leaves = st.sampled_from(sorted(PRIMITIVE_EXAMPLES.values())).map(parse_expression)
conditions = st.sampled_from(CONDITIONS).map(_condition)


def _extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    return st.one_of(
        st.lists(children, min_size=2, max_size=3).map(lambda xs: Seq(tuple(xs))),
        st.lists(children, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
        children.map(May),
        st.builds(If, conditions, children),
        st.builds(Repeat, st.integers(1, 3), children),
    )


trees = st.recursive(leaves, _extend, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(trees)
def test_generated_trees_round_trip(tree: Expr) -> None:
    text = str(tree)
    assert parse_expression(text) == tree
    assert str(parse_expression(text)) == text


PIECES = [
    "gain_vp", "pay_money", "steal", "boost_move", "if", "then", "may", "OR", "and", "repeat",
    "most", "feud", "troops", "cavalry", "money", "territories_in", "I", "V", "..", "(", ")",
    "[", "]", ";", ",", "=", ">=", "==", "*", "//", "+1", "-1", "0", "3", "1to3", " ", "speed",
    "edinburgh", "controls", "is_regent", "£", ".", "x",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_any_text_parses_or_is_refused_clearly(text: str) -> None:
    """Never another exception than ExpressionError; what parses round-trips."""
    try:
        node = parse_expression(text, "fuzz")
    except ExpressionError as error:
        assert 0 <= error.position <= len(text)
        assert str(error).startswith("fuzz: ")
        return
    assert parse_expression(str(node)) == node
