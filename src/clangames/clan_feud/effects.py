"""The Clan Feud card-effect vocabulary: a parser from card text to a frozen syntax tree.

Every effect printed on an action or event card is an expression over a closed vocabulary
(``clan-feud-cards.md`` section 1): twenty effect primitives E1-E20, quantities and
conditions, five combinators, four timing windows and the rulebook's five combat effects.
The cards live in data files, so their text is parsed and checked once at load; the rules
interpret the tree, never the text. ``str(node)`` is the canonical text of a node and
parses back to an equal node.

Grammar (``OR`` binds loosest; ``may``, ``if`` and ``repeat`` apply to one term, so
``if C then A OR B`` means ``[if C then A] OR B``; bracket to say otherwise: brackets
around a single item only group)::

    expr      := term ("OR" term)*
    term      := "[" expr (";" expr)* "]" | "may" term | "if" cond "then" term
               | "repeat" "(" int ")" term | primitive "(" args ")"
    cond      := catom ("and" catom)*
    catom     := quantity ("<=" | ">=" | "==") int | "most(" quantity ")"
               | "fewest(" quantity ")" | is_regent | controls(place)
    amount    := int | int "*" quantity | int "*" "(" quantity "//" int ")"
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, TypeAlias

import attrs

from clangames.engine.errors import InvalidParameterError

NUMERALS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
"""The red numerals of the English spawn territories, in order."""
LEVELS = ("I", "II", "III")
COLUMNS = ("feud", "income", "build", "intrigue", "military")
DICE_COLOURS = ("white", "black", "gold", "green", "purple", "red")
TROOP_TYPES = ("infantry", "cavalry", "artillery")
WINDOWS = ("P1.before_order", "P1.after_roll", "P2.assign", "P3.upkeep")
"""The four timing windows of action cards; ``P2.assign`` carries a die filter."""
EVENTS_WINDOW = "events"
"""Where event-card expressions run (a pseudo-window for the primitives table)."""

MAX_DEPTH = 32
"""Deepest nesting of brackets and prefix forms (a guard against runaway recursion)."""
_KEYWORDS = frozenset({"OR", "may", "if", "then", "repeat", "and", "most", "fewest"})
_PLACE = re.compile(r"[a-z][a-z0-9_]*\Z")


class ExpressionError(InvalidParameterError):
    """Card text that is not an expression of the vocabulary.

    The message names the card field (``where``), what was wrong and what was expected, and
    the 1-based column in ``text`` where the problem was found.
    """

    def __init__(self, where: str, text: str, position: int, problem: str) -> None:
        self.where = where
        self.text = text
        self.position = position
        self.problem = problem
        super().__init__(f"{where}: {problem} at column {position + 1} of {text!r}")

    def __reduce__(self) -> tuple[type[ExpressionError], tuple[str, str, int, str]]:
        # rebuilt from its parts (the default would pass only the message back)
        return (ExpressionError, (self.where, self.text, self.position, self.problem))


# ---------------------------------------------------------------------------------------
# Quantities and conditions


@attrs.frozen(slots=True)
class Quantity:
    """A count about the acting player, e.g. ``cities``, ``troops(cavalry)``,
    ``territories_in(I..V)``; ``args`` are troop types, numerals or territory ids."""

    name: str
    args: tuple[str, ...] = ()

    @property
    def is_flag(self) -> bool:
        """True for the 0/1 quantities that may stand alone as a condition."""
        return self.name in _FLAG_QUANTITIES

    def __str__(self) -> str:
        if self.name == "territories_in":
            return f"territories_in({_numeral_text(self.args)})"
        if self.args or self.name in _QUANTITY_ARGS:
            return f"{self.name}({', '.join(self.args)})"
        return self.name


@attrs.frozen(slots=True)
class Const:
    """A fixed amount."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@attrs.frozen(slots=True)
class Scaled:
    """``factor`` times a quantity, the quantity first divided by ``divisor`` rounding down
    (``divisor`` 1: ``k*Q``; else ``k*(Q//d)``)."""

    factor: int
    quantity: Quantity
    divisor: int = 1

    def __str__(self) -> str:
        if self.divisor == 1:
            return f"{self.factor}*{self.quantity}"
        return f"{self.factor}*({self.quantity}//{self.divisor})"


Amount: TypeAlias = Const | Scaled


@attrs.frozen(slots=True)
class Compare:
    """``quantity op value`` with op one of ``>=``, ``<=``, ``==``."""

    quantity: Quantity
    op: str
    value: int

    def __str__(self) -> str:
        return f"{self.quantity} {self.op} {self.value}"


@attrs.frozen(slots=True)
class Most:
    """True when the actor's quantity is at least every other player's and at least 1."""

    quantity: Quantity

    def __str__(self) -> str:
        return f"most({self.quantity})"


@attrs.frozen(slots=True)
class Fewest:
    """True when the actor's quantity is at most every other player's (0 included)."""

    quantity: Quantity

    def __str__(self) -> str:
        return f"fewest({self.quantity})"


@attrs.frozen(slots=True)
class Truth:
    """A 0/1 quantity (``is_regent``, ``controls(T)``) standing alone: true when 1."""

    quantity: Quantity

    def __str__(self) -> str:
        return str(self.quantity)


@attrs.frozen(slots=True)
class And:
    """Every part holds."""

    parts: tuple[Compare | Most | Fewest | Truth, ...]

    def __str__(self) -> str:
        return " and ".join(str(p) for p in self.parts)


Condition: TypeAlias = Compare | Most | Fewest | Truth | And


# ---------------------------------------------------------------------------------------
# Effects


@attrs.frozen(slots=True)
class Primitive:
    """One effect primitive E1-E20 with its checked arguments.

    ``args`` are the positional arguments in signature order (ints, names, or amounts);
    ``options`` the keyword arguments present, in signature order, a bare flag such as
    ``ignore_mountains`` holding True.
    """

    name: str
    args: tuple[int | str | Const | Scaled, ...] = ()
    options: tuple[tuple[str, int | str | bool], ...] = ()

    @property
    def code(self) -> str:
        """The vocabulary's id, ``E1`` .. ``E20``."""
        return PRIMITIVES[self.name].code

    def option(self, key: str) -> int | str | bool | None:
        """The value of keyword ``key``, or None when absent."""
        for name, value in self.options:
            if name == key:
                return value
        return None

    def __str__(self) -> str:
        spec = PRIMITIVES[self.name]
        parts = [_value_text(kind, v) for kind, v in zip(spec.params, self.args, strict=True)]
        for key, value in self.options:
            if value is True:
                parts.append(key)
            else:
                parts.append(f"{key}={_value_text(spec.keywords[key], value)}")
        return f"{self.name}({', '.join(parts)})"


def _at_least_two(_: object, attribute: Any, value: tuple[Any, ...]) -> None:
    # One item is not a sequence (nor one option a choice): ``[a]`` only groups, so a
    # one-item node would print as text that parses back to its item.
    if len(value) < 2:
        raise ValueError(f"{attribute.name} needs at least 2 items, got {len(value)}")


def _term_text(node: Expr) -> str:
    """A node's text where one term is expected: an OR is bracketed to stay one term."""
    return f"[{node}]" if isinstance(node, Or) else str(node)


@attrs.frozen(slots=True)
class Seq:
    """``[a; b; ...]``: do each in order."""

    items: tuple[Expr, ...] = attrs.field(validator=_at_least_two)

    def __str__(self) -> str:
        return "[" + "; ".join(str(i) for i in self.items) + "]"


@attrs.frozen(slots=True)
class Or:
    """``A OR B``: the actor chooses exactly one available option."""

    options: tuple[Expr, ...] = attrs.field(validator=_at_least_two)

    def __str__(self) -> str:
        return " OR ".join(_term_text(o) for o in self.options)


@attrs.frozen(slots=True)
class May:
    """``may A``: optional, available only if its costs are payable."""

    body: Expr

    def __str__(self) -> str:
        return f"may {_term_text(self.body)}"


@attrs.frozen(slots=True)
class If:
    """``if C then A``: A only if the condition holds when this resolves."""

    condition: Condition
    body: Expr

    def __str__(self) -> str:
        return f"if {self.condition} then {_term_text(self.body)}"


@attrs.frozen(slots=True)
class Repeat:
    """``repeat(k) A``: A up to ``times`` times, one at a time."""

    times: int
    body: Expr

    def __str__(self) -> str:
        return f"repeat({self.times}) {_term_text(self.body)}"


Expr: TypeAlias = Primitive | Seq | Or | May | If | Repeat


@attrs.frozen(slots=True)
class FilterItem:
    """One key of a ``P2.assign`` die filter: ``key=value`` (or ``level>=II``)."""

    key: str
    op: str
    value: str | int

    def __str__(self) -> str:
        return f"{self.key}{self.op}{self.value}"


@attrs.frozen(slots=True)
class Timing:
    """When an action card's action may be played; ``filter`` only for ``P2.assign``."""

    window: str
    filter: tuple[FilterItem, ...] = ()

    def get(self, key: str) -> FilterItem | None:
        """The filter item for ``key``, or None when the filter does not constrain it."""
        for item in self.filter:
            if item.key == key:
                return item
        return None

    def __str__(self) -> str:
        if self.window != "P2.assign":
            return self.window
        return "P2.assign(" + ", ".join(str(f) for f in self.filter) + ")"


COMBAT_CODES = {"cs": "C1", "skulls+": "C2", "skulls-": "C3", "cancel": "C4", "two_is_three": "C5"}


@attrs.frozen(slots=True)
class CombatEffect:
    """A card's combat effect C1-C5: ``cs+X``, ``skulls+X``, ``skulls-X`` (``amount`` X),
    ``cancel``, ``two_is_three`` (``amount`` 0)."""

    kind: str
    amount: int = 0

    @property
    def code(self) -> str:
        """The vocabulary's id, ``C1`` .. ``C5``."""
        return COMBAT_CODES[self.kind]

    def __str__(self) -> str:
        if self.kind == "cs":
            return f"cs+{self.amount}"
        if self.kind in ("skulls+", "skulls-"):
            return f"{self.kind}{self.amount}"
        return self.kind


# ---------------------------------------------------------------------------------------
# The primitives' signatures

# Parameter kinds: "amount" (>= 1 or k*Q, k >= 1), "vp" (a nonzero amount, k may be < 0),
# "count" (an int >= 1), "signed" (a nonzero int written with its sign), "plus" (a positive
# int written with its sign, e.g. +1), "step" (+1 or 1to3),
# "value" (a die value 1-3), "flag" (a bare keyword), or a tuple of the allowed names.
_Kind: TypeAlias = str | tuple[str, ...]


@attrs.frozen(slots=True)
class Signature:
    """What a primitive takes and where it may appear."""

    code: str
    params: tuple[_Kind, ...]
    keywords: dict[str, _Kind] = attrs.field(factory=dict, eq=False, hash=False)
    """Keyword options in their canonical order; kind ``flag`` is a bare word."""
    windows: tuple[str, ...] = ()
    """Timing windows (and ``events``) where it may appear; empty means anywhere."""
    cost: bool = False
    """A cost: checked and paid before anything else of its option."""


_P1A, _P1B, _P2, _P3 = "P1.after_roll", "P1.before_order", "P2.assign", "P3.upkeep"

PRIMITIVES: dict[str, Signature] = {
    "gain_money": Signature("E1", ("amount",)),
    "pay_money": Signature("E2", ("amount",), cost=True),
    "gain_feud": Signature("E3", ("amount",)),
    "pay_feud": Signature("E4", ("amount",), cost=True),
    "gain_vp": Signature("E5", ("vp",)),
    "draw_cards": Signature("E6", ("amount",)),
    "discard_cards": Signature("E7", ("amount",), windows=(EVENTS_WINDOW,), cost=True),
    "steal": Signature("E8", (("money", "card"), "count"), windows=(_P2,)),
    "modify_die": Signature(
        "E9",
        ("count", "step"),
        keywords={"colour": DICE_COLOURS, "value": "value"},
        windows=(_P1A, _P2),
    ),
    "reroll_dice": Signature("E10", ("count", ("self", "opponent")), windows=(_P1A,)),
    "take_temp_die": Signature("E11", (DICE_COLOURS,), windows=(_P1A,)),
    "choose_turn_order": Signature("E12", (), windows=(_P1B,)),
    "bonus_action": Signature("E13", (("feud", "income", "intrigue"), LEVELS), windows=(_P1A, _P2)),
    "discount": Signature("E14", ("count",), windows=(_P2,)),
    "place_building": Signature("E15", (("th1",),), windows=(_P2,)),
    "recruit": Signature("E16", (TROOP_TYPES, "count"), windows=(_P2,)),
    "boost_move": Signature(
        "E17",
        (),
        keywords={
            "armies": "plus",
            "speed": "plus",
            "ignore_mountains": "flag",
            "only": ("cavalry",),
        },
        windows=(_P2,),
    ),
    "reduce_upkeep": Signature("E18", ("amount",), windows=(_P3,)),
    "england_track": Signature("E19", ("signed",), windows=(_P2, _P3, EVENTS_WINDOW)),
    "remove_troops": Signature(
        "E20",
        ("count",),
        keywords={"type": (*TROOP_TYPES, "any")},
        windows=(EVENTS_WINDOW,),
        cost=True,
    ),
}
"""Every effect primitive by name (E1-E20, ``clan-feud-cards.md`` 1.4)."""

_NUMERIC_QUANTITIES = (
    "territories",
    "cities",
    "castles",
    "tower_houses",
    "troops",
    "feud",
    "money",
    "hand",
    "territories_in",
    "troops_in",
)
_FLAG_QUANTITIES = ("controls", "is_regent")
QUANTITIES = _NUMERIC_QUANTITIES + _FLAG_QUANTITIES
"""Every quantity name (``clan-feud-cards.md`` 1.2)."""
_QUANTITY_ARGS = ("territories_in", "troops_in", "controls")
"""Quantities that always take a parenthesised argument (``troops`` takes one optionally)."""


def _numeral_text(numerals: tuple[str, ...]) -> str:
    """Numerals with ascending runs of 2 or more written as ``A..B``."""
    parts: list[str] = []
    i = 0
    while i < len(numerals):
        j = i
        while j + 1 < len(numerals) and NUMERALS.index(numerals[j + 1]) == (
            NUMERALS.index(numerals[j]) + 1
        ):
            j += 1
        parts.append(numerals[i] if j == i else f"{numerals[i]}..{numerals[j]}")
        i = j + 1
    return ", ".join(parts)


def _value_text(kind: _Kind, value: object) -> str:
    if kind in ("signed", "plus") and isinstance(value, int):
        return f"{value:+d}"
    return str(value)


# ---------------------------------------------------------------------------------------
# Tokens and the parser

_TOKEN = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<word>\d+to\d+(?![A-Za-z0-9_])|[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<int>[+-]?\d+)"
    r"|(?P<op>//|\.\.|>=|<=|==|[\[\];(),=*.])"
)


@attrs.frozen(slots=True)
class _Token:
    kind: str  # "word", "int", "op", "end"
    text: str
    pos: int


def _tokenize(text: str, where: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ExpressionError(where, text, pos, f"unexpected character {text[pos]!r}")
        kind = match.lastgroup or "space"  # one named group always matches
        if kind != "space":
            tokens.append(_Token(kind, match.group(), pos))
        pos = match.end()
    tokens.append(_Token("end", "", len(text)))
    return tokens


class _Parser:
    """Recursive descent over the tokens of one card field."""

    def __init__(self, text: str, where: str) -> None:
        self.text = text
        self.where = where
        self.tokens = _tokenize(text, where)
        self.i = 0
        self.depth = 0

    # -- token helpers -----------------------------------------------------------------

    @property
    def tok(self) -> _Token:
        return self.tokens[self.i]

    def fail(self, problem: str, token: _Token | None = None) -> ExpressionError:
        at = token if token is not None else self.tok
        return ExpressionError(self.where, self.text, at.pos, problem)

    def found(self, token: _Token | None = None) -> str:
        at = token if token is not None else self.tok
        return "the end" if at.kind == "end" else repr(at.text)

    def is_op(self, text: str) -> bool:
        return self.tok.kind == "op" and self.tok.text == text

    def is_word(self, text: str) -> bool:
        return self.tok.kind == "word" and self.tok.text == text

    def expect_op(self, text: str, context: str) -> _Token:
        if not self.is_op(text):
            raise self.fail(f"expected {text!r} {context}, found {self.found()}")
        token = self.tok
        self.i += 1
        return token

    def expect_int(self, context: str, minimum: int | None = None, signed: bool = False) -> int:
        token = self.tok
        if token.kind != "int":
            raise self.fail(f"expected a whole number {context}, found {self.found()}")
        if signed != (token.text[0] in "+-"):
            form = "with its sign (e.g. +1)" if signed else "without a sign"
            raise self.fail(f"expected a whole number {form} {context}, found {self.found()}")
        value = int(token.text)
        if minimum is not None and value < minimum:
            raise self.fail(f"expected a number >= {minimum} {context}, found {value}", token)
        self.i += 1
        return value

    def expect_word(self, context: str) -> _Token:
        token = self.tok
        if token.kind != "word":
            raise self.fail(f"expected a name {context}, found {self.found()}")
        self.i += 1
        return token

    def finish(self) -> None:
        if self.tok.kind != "end":
            raise self.fail(f"unexpected {self.found()} after a complete expression")

    # -- effects -----------------------------------------------------------------------

    def expr(self) -> Expr:
        options = [self.term()]
        while self.is_word("OR"):
            self.i += 1
            options.append(self.term())
        return options[0] if len(options) == 1 else Or(tuple(options))

    def term(self) -> Expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"effects nested more than {MAX_DEPTH} deep")
        try:
            return self.term_body()
        finally:
            self.depth -= 1

    def term_body(self) -> Expr:
        token = self.tok
        if self.is_op("["):
            self.i += 1
            items = [self.expr()]
            while self.is_op(";"):
                self.i += 1
                items.append(self.expr())
            self.expect_op("]", "to close the '[' sequence (or ';' before its next item)")
            return items[0] if len(items) == 1 else Seq(tuple(items))
        if self.is_word("may"):
            self.i += 1
            return May(self.term())
        if self.is_word("if"):
            self.i += 1
            condition = self.condition()
            if not self.is_word("then"):
                raise self.fail(f"expected 'then' after the condition, found {self.found()}")
            self.i += 1
            return If(condition, self.term())
        if self.is_word("repeat"):
            self.i += 1
            self.expect_op("(", "after 'repeat'")
            times = self.expect_int("of repetitions", minimum=1)
            self.expect_op(")", "after the number of repetitions")
            return Repeat(times, self.term())
        if token.kind == "word" and token.text not in _KEYWORDS:
            return self.primitive()
        raise self.fail(
            f"expected an effect (a primitive, '[', 'may', 'if' or 'repeat'), found {self.found()}"
        )

    def primitive(self) -> Primitive:
        token = self.expect_word("of a primitive")
        spec = PRIMITIVES.get(token.text)
        if spec is None:
            raise self.fail(
                f"unknown primitive {token.text!r}; expected one of {', '.join(PRIMITIVES)}", token
            )
        self.expect_op("(", f"after {token.text!r}")
        args: list[int | str | Const | Scaled] = []
        options: dict[str, int | str | bool] = {}
        while not self.is_op(")"):
            if self.tok.kind == "end":
                raise self.fail(f"expected ')' to close {token.text}(...), found the end")
            if args or options:
                self.expect_op(",", f"between the arguments of {token.text!r}")
            arg_token = self.tok
            following = self.tokens[min(self.i + 1, len(self.tokens) - 1)]
            is_keyword = following.kind == "op" and following.text == "="
            kind_of = spec.keywords.get(arg_token.text) if arg_token.kind == "word" else None
            if kind_of is not None and kind_of != "flag" and is_keyword:
                if arg_token.text in options:
                    raise self.fail(f"{arg_token.text!r} given twice", arg_token)
                self.i += 2
                options[arg_token.text] = self.simple(kind_of, f"for {arg_token.text!r}")
            elif kind_of == "flag":
                if arg_token.text in options:
                    raise self.fail(f"{arg_token.text!r} given twice", arg_token)
                self.i += 1
                options[arg_token.text] = True
            elif arg_token.kind == "word" and is_keyword:
                known = ", ".join(spec.keywords) or "none"
                raise self.fail(
                    f"{token.text!r} has no option {arg_token.text!r} (options: {known})",
                    arg_token,
                )
            elif options:
                raise self.fail(f"positional argument after the options of {token.text!r}")
            elif len(args) >= len(spec.params):
                raise self.fail(
                    f"{token.text!r} takes {len(spec.params)} argument(s), found more", arg_token
                )
            else:
                kind = spec.params[len(args)]
                args.append(self.value(kind, f"as argument {len(args) + 1} of {token.text!r}"))
        close = self.tok
        if len(args) < len(spec.params):
            raise self.fail(
                f"{token.text!r} takes {len(spec.params)} argument(s), found {len(args)}", close
            )
        self.i += 1
        if token.text == "boost_move" and not {"armies", "speed", "ignore_mountains"} & set(
            options
        ):
            raise self.fail(
                "boost_move needs at least one of armies=, speed=, ignore_mountains", token
            )
        if token.text == "modify_die" and args[1] == "1to3" and options.get("colour") == "black":
            raise self.fail("a black die never turns 1 into 3 (its highest face is 2)", token)
        if options.get("type") == "any":
            del options["type"]  # the spec's spelled-out default: one tree for one meaning
        order = list(spec.keywords)
        ordered = tuple(sorted(options.items(), key=lambda kv: order.index(kv[0])))
        return Primitive(token.text, tuple(args), ordered)

    def value(self, kind: _Kind, context: str) -> int | str | Const | Scaled:
        if kind in ("amount", "vp"):
            return self.amount(context, negative=kind == "vp")
        return self.simple(kind, context)

    def simple(self, kind: _Kind, context: str) -> int | str:
        """A name, a count, a die value, a signed step or a die step (no amounts)."""
        token = self.tok
        if isinstance(kind, tuple):
            if token.kind != "word" or token.text not in kind:
                raise self.fail(
                    f"expected one of {', '.join(kind)} {context}, found {self.found()}"
                )
            self.i += 1
            return token.text
        if kind == "count":
            return self.expect_int(context, minimum=1)
        if kind == "value":
            value = self.expect_int(context, minimum=1)
            if value > 3:
                raise self.fail(f"expected a die value 1-3 {context}, found {value}", token)
            return value
        if kind in ("signed", "plus"):
            value = self.expect_int(context, signed=True)
            if value == 0 or (kind == "plus" and value < 0):
                wanted = "a nonzero step" if kind == "signed" else "a rise (+1, +2, ...)"
                raise self.fail(f"expected {wanted} {context}", token)
            return value
        if kind == "step":
            if token.kind == "word" and token.text == "1to3":
                self.i += 1
                return "1to3"
            if token.kind == "int" and token.text == "+1":
                self.i += 1
                return "+1"
            raise self.fail(f"expected +1 or 1to3 {context}, found {self.found()}")
        raise ValueError(f"unknown parameter kind {kind!r}")  # a bug in PRIMITIVES, not input

    def amount(self, context: str, negative: bool) -> Const | Scaled:
        token = self.tok
        if token.kind != "int":
            raise self.fail(
                f"expected an amount (a number, k*quantity or k*(quantity//d)) {context},"
                f" found {self.found()}"
            )
        number = int(token.text)
        self.i += 1
        if number == 0 or (number < 0 and not negative):
            raise self.fail(f"expected a {'nonzero' if negative else 'positive'} amount", token)
        if not self.is_op("*"):
            return Const(number)
        self.i += 1
        if self.is_op("("):
            self.i += 1
            quantity = self.quantity(numeric=True)
            self.expect_op("//", "in k*(quantity//d)")
            divisor = self.expect_int("as the divisor", minimum=2)
            self.expect_op(")", "to close k*(quantity//d)")
            return Scaled(number, quantity, divisor)
        return Scaled(number, self.quantity(numeric=True))

    # -- quantities and conditions -----------------------------------------------------

    def quantity(self, numeric: bool) -> Quantity:
        token = self.expect_word("of a quantity")
        name = token.text
        if name not in QUANTITIES:
            raise self.fail(
                f"unknown quantity {name!r}; expected one of {', '.join(QUANTITIES)}", token
            )
        if numeric and name in _FLAG_QUANTITIES:
            raise self.fail(f"{name!r} is a yes/no condition, not an amount", token)
        if name == "troops" and self.is_op("("):
            self.i += 1
            kind = self.simple(TROOP_TYPES, "as the troop type")
            self.expect_op(")", "after the troop type")
            return Quantity(name, (str(kind),))
        if name == "territories_in":
            self.expect_op("(", "after 'territories_in'")
            numerals = self.numerals()
            self.expect_op(")", "after the numerals")
            return Quantity(name, numerals)
        if name in ("troops_in", "controls"):
            self.expect_op("(", f"after {name!r}")
            places = [self.place()]
            while name == "troops_in" and self.is_op(","):
                self.i += 1
                at = self.tok
                places.append(self.place())
                if places[-1] in places[:-1]:
                    raise self.fail(f"{name} names {places[-1]} twice", at)
            self.expect_op(")", f"after the territor{'ies' if name == 'troops_in' else 'y'}")
            return Quantity(name, tuple(places))
        return Quantity(name)

    def numeral(self) -> str:
        token = self.tok
        if token.kind != "word" or token.text not in NUMERALS:
            raise self.fail(f"expected a numeral I..X, found {self.found()}")
        self.i += 1
        return token.text

    def numerals(self) -> tuple[str, ...]:
        out: list[str] = []
        while True:
            start_token = self.tok
            first = self.numeral()
            run = [first]
            if self.is_op(".."):
                self.i += 1
                last = self.numeral()
                lo, hi = NUMERALS.index(first), NUMERALS.index(last)
                if hi <= lo:
                    raise self.fail(f"numeral range {first}..{last} must ascend", start_token)
                run = list(NUMERALS[lo : hi + 1])
            twice = [n for n in run if n in out]
            if twice:
                raise self.fail(f"numeral {twice[0]} is listed twice", start_token)
            out.extend(run)
            if not self.is_op(","):
                break
            self.i += 1
        return tuple(out)

    def place(self) -> str:
        token = self.tok
        if token.kind == "word" and (token.text in NUMERALS or _PLACE.match(token.text)):
            if token.text in _KEYWORDS:
                raise self.fail(f"expected a territory id or numeral, found {self.found()}")
            self.i += 1
            return token.text
        raise self.fail(
            f"expected a territory id (lower case) or a numeral I..X, found {self.found()}"
        )

    def condition(self) -> Condition:
        parts = [self.condition_atom()]
        while self.is_word("and"):
            self.i += 1
            parts.append(self.condition_atom())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def condition_atom(self) -> Compare | Most | Fewest | Truth:
        token = self.tok
        if token.kind == "word" and token.text in ("most", "fewest"):
            self.i += 1
            self.expect_op("(", f"after {token.text!r}")
            quantity = self.quantity(numeric=True)
            self.expect_op(")", f"to close {token.text}(...)")
            return Most(quantity) if token.text == "most" else Fewest(quantity)
        quantity = self.quantity(numeric=False)
        op = self.tok
        if op.kind == "op" and op.text in (">=", "<=", "=="):
            self.i += 1
            return Compare(quantity, op.text, self.expect_int("to compare with", minimum=0))
        if quantity.is_flag:
            return Truth(quantity)
        raise self.fail(f"expected >=, <= or == after {str(quantity)!r}, found {self.found()}")

    # -- timing and combat -------------------------------------------------------------

    def timing(self) -> Timing:
        start = self.tok
        phase = self.expect_word("of a timing window (P1, P2 or P3)")
        self.expect_op(".", f"after {phase.text!r} in a timing window")
        moment = self.expect_word("of the moment in the phase")
        window = f"{phase.text}.{moment.text}"
        if window not in WINDOWS:
            raise self.fail(f"unknown timing window {window!r}; expected one of {WINDOWS}", start)
        if window != "P2.assign":
            return Timing(window)
        self.expect_op("(", "after 'P2.assign' (the die filter, e.g. column=build)")
        items: list[FilterItem] = []
        while not self.is_op(")"):
            if items:
                self.expect_op(",", "between filter keys")
            items.append(self.filter_item(items))
        self.i += 1
        mode = next((f for f in items if f.key == "mode"), None)
        column = next((f for f in items if f.key == "column"), None)
        if mode is not None and (column is None or column.value != "military"):
            raise self.fail("mode= needs column=military in the same filter", start)
        return Timing(window, tuple(items))

    def filter_item(self, earlier: list[FilterItem]) -> FilterItem:
        key = self.expect_word("of a filter key (column, colour, value, level, mode)")
        if key.text not in ("column", "colour", "value", "level", "mode"):
            raise self.fail(
                f"unknown filter key {key.text!r}; expected column, colour, value, level or mode",
                key,
            )
        if any(f.key == key.text for f in earlier):
            raise self.fail(f"filter key {key.text!r} given twice", key)
        op = self.tok
        if not (op.kind == "op" and op.text in ("=", ">=")):
            raise self.fail(f"expected '=' after {key.text!r}, found {self.found()}")
        if op.text == ">=" and key.text != "level":
            raise self.fail("only level takes '>=' (e.g. level>=II)", op)
        self.i += 1
        kinds: dict[str, _Kind] = {
            "column": COLUMNS,
            "colour": DICE_COLOURS,
            "value": "value",
            "level": LEVELS,
            "mode": ("move", "recruit"),
        }
        value = self.simple(kinds[key.text], f"for {key.text!r}")
        if op.text == ">=" and value == "I":
            raise self.fail("level>=I is every level: leave the key out", op)
        return FilterItem(key.text, op.text, value)

    def combat(self) -> CombatEffect:
        token = self.expect_word("of a combat effect (cs+X, skulls+X, skulls-X, cancel, ...)")
        if token.text in ("cancel", "two_is_three"):
            return CombatEffect(token.text)
        if token.text not in ("cs", "skulls"):
            raise self.fail(
                f"unknown combat effect {token.text!r}; expected cs+X, skulls+X, skulls-X,"
                " cancel or two_is_three",
                token,
            )
        number = self.tok
        amount = self.expect_int(f"after {token.text!r}", signed=True)
        if amount == 0 or (token.text == "cs" and amount < 0):
            raise self.fail(f"{token.text} needs a nonzero amount ({token.text}+X)", number)
        if token.text == "cs":
            return CombatEffect("cs", amount)
        return CombatEffect("skulls+" if amount > 0 else "skulls-", abs(amount))


def _check_text(text: object, where: str) -> str:
    if not isinstance(text, str):
        raise InvalidParameterError(f"{where}: expected the text of an expression, got {text!r}")
    return text


def parse_expression(text: str, where: str = "expression") -> Expr:
    """The syntax tree of one effect expression; ``where`` names the card field in errors."""
    parser = _Parser(_check_text(text, where), where)
    node = parser.expr()
    parser.finish()
    return node


def parse_timing(text: str, where: str = "timing") -> Timing:
    """An action card's timing window, e.g. ``P2.assign(column=build, level>=II)``."""
    parser = _Parser(_check_text(text, where), where)
    node = parser.timing()
    parser.finish()
    return node


def parse_combat(text: str, where: str = "combat") -> CombatEffect:
    """An action card's combat effect, e.g. ``cs+2``, ``skulls-1``, ``cancel``."""
    parser = _Parser(_check_text(text, where), where)
    node = parser.combat()
    parser.finish()
    return node


def primitives(node: Expr) -> Iterator[Primitive]:
    """Every primitive in an expression, in reading order."""
    if isinstance(node, Primitive):
        yield node
    elif isinstance(node, Seq):
        for item in node.items:
            yield from primitives(item)
    elif isinstance(node, Or):
        for option in node.options:
            yield from primitives(option)
    else:
        yield from primitives(node.body)


def _condition_quantities(condition: Condition) -> Iterator[Quantity]:
    if isinstance(condition, And):
        for part in condition.parts:
            yield part.quantity
    else:
        yield condition.quantity


def quantities(node: Expr) -> Iterator[Quantity]:
    """Every quantity an expression reads (in amounts and conditions), in reading order."""
    if isinstance(node, Primitive):
        for arg in node.args:
            if isinstance(arg, Scaled):
                yield arg.quantity
    elif isinstance(node, Seq | Or):
        for child in node.items if isinstance(node, Seq) else node.options:
            yield from quantities(child)
    else:
        if isinstance(node, If):
            yield from _condition_quantities(node.condition)
        yield from quantities(node.body)


def places(node: Expr) -> frozenset[str]:
    """The territory ids an expression names (``controls``, ``troops_in``), numerals apart."""
    return frozenset(
        arg
        for q in quantities(node)
        if q.name in ("controls", "troops_in")
        for arg in q.args
        if arg not in NUMERALS
    )
