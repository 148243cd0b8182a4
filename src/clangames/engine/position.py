"""Positions: a readable, writable text form of any state (like chess's FEN).

A position names the game, the phase with whose decision it is, then every data field of
the state as ``field=value``, in the game's own names (clans, cards, colours)::

    kings_kilt turn@1 pyramid=[[Bruce,-,...],...] hands=[[Bruce*2,Gordon],[],[]] ...

Values are atoms (``12``, ``y``, ``Bruce``, ``-``, or a JSON string ``"play Jester"``) or
bracketed lists ``[a,b,[c,d]]``. Hidden parts are included, so a test can set them.

The notation works on the JSON form of a state (:func:`~clangames.engine.codec.encode`):
a :class:`Notation` is an ordered list of (field, :class:`Format`) pairs, each format
mapping one field's JSON value to text and back. Reading a position builds that JSON and
goes through ``Game.state_from_json``, so a position is checked exactly as a save file is
(types, the game's consistency rules, liveness) and every error is a :class:`PositionError`
naming the token and what was expected.

Any game gets a generic notation derived from its state's field annotations (numbers and
lists); a game names its parts by giving formats for its fields (``<game>/position.py``
for the built-in games), and can declare a ``fill`` rule so the scenario builder
:meth:`Notation.build` puts every card a test did not place into the pile or deck.
"""

from __future__ import annotations

import abc
import json
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

import attrs

from clangames.engine.codec import JSON, _deepest, encode, json_fields
from clangames.engine.errors import ClanGamesError, StateDecodeError
from clangames.engine.phases import CHANCE
from clangames.engine.piles import Multiset
from clangames.engine.simultaneous import Commitments

if TYPE_CHECKING:
    from clangames.engine.game import Game
    from clangames.engine.state import State

Node = Union[str, "Quoted", list["Node"]]
"""A parsed value: an atom, a quoted string, or a bracketed list of nodes."""


class PositionError(StateDecodeError):
    """Position text that cannot be read: the message names the token and what was expected."""


@attrs.frozen(slots=True)
class Quoted:
    """A value written as a JSON string (text with spaces or punctuation)."""

    text: str


_ATOM = re.compile(r"[^\s\[\],=\"]+")
_JSON_STRING = json.JSONDecoder()
_SAFE = re.compile(r"[A-Za-z0-9_'.:/+*@&~-]+")
NONE = "-"
"""The atom for "nothing here": an empty space, no card, no seat."""
MEMO_LIMIT = 4096
"""The most written values a format keeps for reuse."""


def token_name(name: str) -> str:
    """``name`` as a notation atom: spaces become underscores (``Royal 1`` -> ``Royal_1``)."""
    return name.replace(" ", "_")


def show_node(node: Node) -> str:
    """The text of a parsed node (the inverse of parsing)."""
    if isinstance(node, list):
        return "[" + ",".join(show_node(n) for n in node) + "]"
    if isinstance(node, Quoted):
        return json.dumps(node.text)
    return node


# -- parsing ------------------------------------------------------------------------------------


class _Scanner:
    """Reads ``field=value`` tokens and nested values from position text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, expected: str) -> PositionError:
        snippet = self.text[self.at : self.at + 30] or "the end of the text"
        return PositionError(f"position: at character {self.at} ({snippet!r}): expected {expected}")

    def skip_space(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def done(self) -> bool:
        self.skip_space()
        return self.at >= len(self.text)

    def word(self, expected: str) -> str:
        match = _ATOM.match(self.text, self.at)
        if match is None:
            raise self.fail(expected)
        self.at = match.end()
        return match.group()

    def value(self) -> Node:
        """One value from here: a word, a JSON string or a list (nested lists are read
        with an explicit stack, at most 20 deep)."""
        text = self.text
        end = len(text)
        stack: list[list[Node]] = []
        while True:
            at = self.at
            char = text[at] if at < end else ""
            node: Node
            if char == "[":
                if len(stack) >= 20:
                    raise self.fail("at most 20 nested lists")
                self.at = at + 1
                if self.at < end and text[self.at] == "]":
                    self.at += 1
                    node = []
                else:
                    stack.append([])
                    continue
            elif char == '"':
                try:
                    decoded, self.at = _JSON_STRING.raw_decode(text, at)
                except ValueError:
                    raise self.fail("a complete JSON string") from None
                if not isinstance(decoded, str):  # pragma: no cover - starts with a quote
                    raise self.fail("a JSON string")
                node = Quoted(decoded)
            else:
                node = self.word("a value (a word, a JSON string or a [list])")
            while stack:  # put the value in its list; close the lists that end here
                stack[-1].append(node)
                char = text[self.at] if self.at < end else ""
                if char == ",":
                    self.at += 1
                    break
                if char != "]":
                    raise self.fail("',' or ']' in a list")
                self.at += 1
                node = stack.pop()
            else:
                return node

    def field_value(self) -> Node:
        """A field's value: converted to JSON text and parsed in C when it is well formed
        (the common case), else read by :meth:`value`, which says what is wrong."""
        match = _VALUE.match(self.text, self.at)
        if match is not None:
            raw = match.group()
            if "[" not in raw or _deepest(raw) <= 20:
                if '"' in raw or "\\" in raw:
                    converted = _PIECE.sub(_as_json, raw)
                else:  # words only: quoting each is a plain substitution
                    converted = _WORD.sub(_quote_word, raw)
                try:
                    node = _NODE_DECODER.decode(converted)
                except ValueError:
                    node = None
                if node is not None:
                    self.at = match.end()
                    return typing.cast(Node, node)
        return self.value()


_VALUE = re.compile(r'(?:"(?:[^"\\]|\\.)*"|[^\s"])+')
"""A field value's extent: up to the next space outside JSON strings."""
_PIECE = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\],"=]+')
"""The words and strings of a value, between its brackets and commas."""


_WORD = re.compile(r"[^\[\],=]+")


def _quote_word(match: re.Match[str]) -> str:
    # a function, not a template: the re module expands templates in Python, slower
    return f'"{match[0]}"'


def _as_json(match: re.Match[str]) -> str:
    piece = match.group()
    if piece[0] == '"':
        return '{"q":' + piece + "}"
    return '"' + piece + '"' if "\\" not in piece else json.dumps(piece)


def _quoted(data: dict[str, Any]) -> Quoted:
    text = data.get("q")
    if len(data) != 1 or not isinstance(text, str):  # pragma: no cover - only we write it
        raise ValueError("not a quoted string")
    return Quoted(text)


_NODE_DECODER = json.JSONDecoder(object_hook=_quoted)


def parse_node(text: str) -> Node:
    """One value (an atom, a JSON string or a list) from text; PositionError if malformed."""
    scanner = _Scanner(text.strip())
    node = scanner.value()
    if not scanner.done():
        raise scanner.fail("the end of the value")
    return node


# -- formats ------------------------------------------------------------------------------------


def _where(path: str, node: Node) -> str:
    shown = show_node(node)
    return f"{path}: token {shown if len(shown) <= 60 else shown[:57] + '...'!r}"


def _atom(node: Node, path: str, expected: str) -> str:
    if isinstance(node, Quoted):
        return node.text
    if isinstance(node, list):
        raise PositionError(f"{_where(path, node)} is a list, expected {expected}")
    return node


def _items(node: Node, path: str, expected: str) -> list[Node]:
    if not isinstance(node, list):
        raise PositionError(f"{_where(path, node)}: expected a [list] of {expected}")
    return node


class Format(abc.ABC):
    """How one field's JSON value is written as text and read back."""

    @abc.abstractmethod
    def show(self, value: JSON) -> Node:
        """The value as a node (the caller writes it with :func:`show_node`); a format may
        return the node's text already written, as one string."""

    @abc.abstractmethod
    def read(self, node: Node, path: str) -> JSON:
        """The JSON value of a node; PositionError naming ``path`` and the token if bad."""

    def coerce(self, value: object, path: str) -> Node:
        """A builder argument as a node: text is parsed, Python values become nodes."""
        return to_node(value, path)


def to_node(value: object, path: str) -> Node:
    """A Python value given to the builder as a node (text is parsed as notation)."""
    if isinstance(value, bool):
        return "y" if value else "n"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return parse_node(value) if value.strip() else Quoted(value)
    if value is None:
        return "~"
    if isinstance(value, (list, tuple)):
        return [to_node(v, f"{path}[{i}]") for i, v in enumerate(value)]
    raise PositionError(f"{path}: expected text, a number, a flag or a list, got {value!r}")


class Int(Format):
    """A whole number."""

    def show(self, value: JSON) -> Node:
        return str(value)

    def read(self, node: Node, path: str) -> JSON:
        text = _atom(node, path, "a whole number")
        if not re.fullmatch(r"-?[0-9]{1,30}", text):
            raise PositionError(f"{_where(path, node)}: expected a whole number")
        return int(text)


class Flag(Format):
    """A yes/no value: ``y`` or ``n``."""

    def show(self, value: JSON) -> Node:
        return "y" if value else "n"

    def read(self, node: Node, path: str) -> JSON:
        text = _atom(node, path, "y or n")
        if text not in ("y", "n"):
            raise PositionError(f"{_where(path, node)}: expected y or n")
        return text == "y"


class Text(Format):
    """A string: an atom when it is one, else a JSON string (``""`` when empty, or
    ``-`` with ``empty_as_none``)."""

    def __init__(self, empty_as_none: bool = False) -> None:
        self.empty_as_none = empty_as_none

    def show(self, value: JSON) -> Node:
        text = str(value)
        if not text and self.empty_as_none:
            return NONE
        # "-" and "~" are quoted so that they never read as nothing or as None
        return text if _SAFE.fullmatch(text) and text not in (NONE, "~") else Quoted(text)

    def read(self, node: Node, path: str) -> JSON:
        if node == NONE and self.empty_as_none:
            return ""
        return _atom(node, path, "a word or a JSON string")


class Name(Format):
    """An index into a list of names; ``-`` for -1 (nothing). Read case-insensitively."""

    def __init__(self, names: Sequence[str], what: str, none: bool = True) -> None:
        self.names = tuple(token_name(n) for n in names)
        self.what = what
        self.none = none
        self.index = {n.lower(): i for i, n in enumerate(self.names)}
        for name in self.names:
            if not _SAFE.fullmatch(name) or name == NONE or "*" in name:
                raise TypeError(f"{what} name {name!r} cannot be a notation word")
        if len(self.index) != len(self.names):
            raise TypeError(f"{what} names {self.names} are not distinct (ignoring case)")

    def show(self, value: JSON) -> Node:
        if type(value) is int and 0 <= value < len(self.names):
            return self.names[value]
        if value == -1 and self.none:
            return NONE
        # A negative index would otherwise name a card from the end of the list.
        raise ValueError(
            f"{value!r} is not a {self.what} number: expected 0..{len(self.names) - 1}"
            f"{' or -1 (none)' if self.none else ''}"
        )

    def expected(self) -> str:
        shown = ", ".join(self.names[:12]) + (", ..." if len(self.names) > 12 else "")
        return f"a {self.what} ({shown}{', or -' if self.none else ''})"

    def read(self, node: Node, path: str) -> JSON:
        if isinstance(node, str):
            found = self.index.get(node.lower())
            if found is not None:
                return found
            if node == NONE and self.none:
                return -1
        text = _atom(node, path, self.expected())
        if text == NONE and self.none:
            return -1
        found = self.index.get(token_name(text).lower())
        if found is None:
            raise PositionError(f"{_where(path, node)}: expected {self.expected()}")
        return found


class NameSet(Format):
    """A bitmask over names, as the list of names it holds (``[]`` when empty)."""

    def __init__(self, names: Sequence[str], what: str) -> None:
        self.name = Name(names, what, none=False)
        self._shown: dict[int, str] = {}
        """Masks already written (few distinct ones recur), bounded by MEMO_LIMIT."""

    def show(self, value: JSON) -> Node:
        text = self._shown.get(value)
        if text is None:
            bits = len(self.name.names)
            if type(value) is not int or not 0 <= value < 1 << bits:
                raise ValueError(
                    f"{value!r} is not a set of {self.name.what} names: expected a bitmask"
                    f" of {bits} bits"
                )
            if len(self._shown) >= MEMO_LIMIT:
                self._shown.clear()
            names = [n for i, n in enumerate(self.name.names) if value >> i & 1]
            text = self._shown[value] = "[" + ",".join(names) + "]"
        return text  # already written: show_node copies a word as it is

    def read(self, node: Node, path: str) -> JSON:
        if isinstance(node, list):  # the usual case: known names, each once
            index = self.name.index
            bits = [index.get(item.lower()) if isinstance(item, str) else None for item in node]
            if None not in bits and len(set(bits)) == len(bits):
                return sum(1 << b for b in bits if b is not None)
        mask = 0
        for i, item in enumerate(_items(node, path, self.name.what + " names")):
            bit = 1 << self.name.read(item, f"{path}[{i}]")
            if mask & bit:
                raise PositionError(f"{_where(path, node)}: {show_node(item)} is listed twice")
            mask |= bit
        return mask


class Counts(Format):
    """Counts per named kind (a list of ints) as ``[Name*3,Other]``: kinds with none left
    out, a count of one written without ``*1``."""

    def __init__(self, names: Sequence[str], what: str) -> None:
        self.name = Name(names, what, none=False)

    def show(self, value: JSON) -> Node:
        return [
            n if c == 1 else f"{n}*{c}" for n, c in zip(self.name.names, value, strict=True) if c
        ]

    def read(self, node: Node, path: str) -> JSON:
        counts = [0] * len(self.name.names)
        for i, item in enumerate(_items(node, path, f"{self.name.what} names (Name*count)")):
            where = f"{path}[{i}]"
            text = _atom(item, where, f"a {self.name.what} with an optional *count")
            name, star, count = text.partition("*")
            kind = self.name.read(name, where)
            if star and not re.fullmatch(r"[0-9]{1,6}", count):
                raise PositionError(f"{_where(where, item)}: expected a count after '*'")
            counts[kind] += int(count) if star else 1
        return counts


class Keyed(Format):
    """A list indexed by names with mostly one value, as ``[name:value,...]`` listing only
    the entries that differ from ``default`` (territory owners, buildings, tower counts)."""

    def __init__(self, names: Sequence[str], what: str, item: Format, default: JSON) -> None:
        self.name = Name(names, what, none=False)
        self.item = item
        self.default = default

    def show(self, value: JSON) -> Node:
        out: list[Node] = []
        for name, v in zip(self.name.names, value, strict=True):
            if v != self.default:
                out.append(f"{name}:{show_node(self.item.show(v))}")
        return out

    def read(self, node: Node, path: str) -> JSON:
        values = [self.default] * len(self.name.names)
        seen: set[int] = set()
        for i, item in enumerate(_items(node, path, f"{self.name.what}:value entries")):
            where = f"{path}[{i}]"
            text = _atom(item, where, f"{self.name.what}:value")
            key, colon, value = text.partition(":")
            if not colon:
                raise PositionError(f"{_where(where, item)}: expected {self.name.what}:value")
            index = self.name.read(key, where)
            if index in seen:
                raise PositionError(f"{_where(where, item)}: {key} is given twice")
            seen.add(index)
            values[index] = self.item.read(value, where)
        return values


class Seq(Format):
    """A list of values of one format, as ``[a,b,c]``."""

    def __init__(self, item: Format) -> None:
        self.item = item

    def show(self, value: JSON) -> Node:
        return [self.item.show(v) for v in value]

    def read(self, node: Node, path: str) -> JSON:
        items = _items(node, path, "values")
        return [self.item.read(v, f"{path}[{i}]") for i, v in enumerate(items)]


class Grouped(Format):
    """A flat list written in groups of the given sizes (a pyramid by rows, a board by
    lines), so the text shows the shape."""

    def __init__(self, item: Format, sizes: Sequence[int], what: str) -> None:
        self.item = item
        self.sizes = tuple(sizes)
        self.what = what

    def show(self, value: JSON) -> Node:
        out: list[Node] = []
        at = 0
        for size in self.sizes:
            out.append([self.item.show(v) for v in value[at : at + size]])
            at += size
        return out

    def read(self, node: Node, path: str) -> JSON:
        groups = _items(node, path, f"{len(self.sizes)} {self.what}s")
        if len(groups) != len(self.sizes):
            raise PositionError(
                f"{_where(path, node)}: expected {len(self.sizes)} {self.what}s, got {len(groups)}"
            )
        flat: list[JSON] = []
        for g, (group, size) in enumerate(zip(groups, self.sizes, strict=True)):
            items = _items(group, f"{path}[{g}]", "values")
            if len(items) != size:
                raise PositionError(
                    f"{_where(f'{path}[{g}]', group)}: expected {size} entries in {self.what}"
                    f" {g + 1}, got {len(items)}"
                )
            flat.extend(self.item.read(v, f"{path}[{g}][{i}]") for i, v in enumerate(items))
        return flat


class Wrapped(Format):
    """A one-field record (``Multiset.counts``, ``Commitments.ids``) written as its field."""

    def __init__(self, key: str, inner: Format) -> None:
        self.key = key
        self.inner = inner

    def show(self, value: JSON) -> Node:
        return self.inner.show(value[self.key])

    def read(self, node: Node, path: str) -> JSON:
        return {self.key: self.inner.read(node, path)}


class Record(Format):
    """An attrs value's fields, in order, as a list ``[a,b,c]``."""

    def __init__(self, fields: Sequence[tuple[str, Format]]) -> None:
        self.fields = tuple(fields)

    def show(self, value: JSON) -> Node:
        return [f.show(value[k]) for k, f in self.fields]

    def read(self, node: Node, path: str) -> JSON:
        names = ",".join(k for k, _ in self.fields)
        items = _items(node, path, f"[{names}]")
        if len(items) != len(self.fields):
            raise PositionError(
                f"{_where(path, node)}: expected {len(self.fields)} values [{names}],"
                f" got {len(items)}"
            )
        return {k: f.read(v, f"{path}.{k}") for (k, f), v in zip(self.fields, items, strict=True)}


class Optional(Format):
    """A value or ``~`` for None."""

    def __init__(self, inner: Format) -> None:
        self.inner = inner

    def show(self, value: JSON) -> Node:
        return "~" if value is None else self.inner.show(value)

    def read(self, node: Node, path: str) -> JSON:
        return None if node == "~" else self.inner.read(node, path)


class ActionId(Format):
    """An action id (a sealed commitment) as the action's text; ``-`` for none (-1)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def show(self, value: JSON) -> Node:
        if value == -1:
            return NONE
        return Text().show(self.game.action_text(self.game.action_from_id(value)))

    def read(self, node: Node, path: str) -> JSON:
        text = _atom(node, path, "an action's text or -")
        if text == NONE:
            return -1
        try:
            return self.game.action_id(self.game.parse_action(text))
        except ClanGamesError as err:  # the game's own parse error says what was expected
            raise PositionError(f"{_where(path, node)}: expected an action: {err}") from None


def generic(hint: Any) -> Format:
    """The format a field of type ``hint`` gets when the game names nothing in it."""
    if hint is bool:
        return Flag()
    if hint is int:
        return Int()
    if hint is str:
        return Text()
    if hint is Multiset:
        return Wrapped("counts", Seq(Int()))
    if hint is Commitments:
        return Wrapped("ids", Seq(Int()))
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple and args:
        return Seq(generic(args[0]))
    if origin in (Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return Optional(generic(rest[0]))
    if isinstance(hint, type) and attrs.has(hint):
        return Record([(name, generic(h)) for name, h in json_fields(hint)])
    raise TypeError(f"no generic position format for {hint!r}; give the field a format")


# -- the notation of a game -----------------------------------------------------------------------

Fill = Callable[["Game", dict[str, JSON], frozenset[str]], None]
"""A builder rule: complete the JSON fields (in place) given which ones the test set."""


class Notation:
    """A game's position notation: its names and one format per state data field.

    ``formats`` gives the game's own formats; with ``complete`` (the built-in games) every
    data field must have one, so a field added to the state without a notation fails at
    once (naming the field) instead of falling back to numbers.
    """

    def __init__(
        self,
        game: Game,
        formats: Mapping[str, Format] | None = None,
        *,
        names: Mapping[str, Sequence[str]] | None = None,
        base: Callable[[Game], State] | None = None,
        fill: Fill | None = None,
        complete: bool = False,
        where: str = "",
    ) -> None:
        self.game = game
        self.names: Mapping[str, tuple[str, ...]] = types.MappingProxyType(
            {k: tuple(v) for k, v in (names or {}).items()}
        )
        given = dict(formats or {})
        fields: list[tuple[str, Format]] = []
        for name, hint in json_fields(game.state_type):
            if name == "phase":
                continue
            fmt = given.pop(name, None)
            if fmt is None:
                if complete:
                    raise TypeError(
                        f"{game.name}: state field {name!r} has no position format"
                        f" (add one in {where or 'the game notation'})"
                    )
                fmt = generic(hint)
            fields.append((name, fmt))
        if given:
            raise TypeError(f"{game.name}: position formats for unknown fields {sorted(given)}")
        self.fields = tuple(fields)
        self.formats = dict(fields)
        self._base = base
        self._fill = fill

    # -- writing and reading ------------------------------------------------------------------
    def show(self, state: State) -> str:
        """The position text of ``state``."""
        data = encode(state)
        parts = [self.game.name, show_phase(data["phase"])]
        parts += [f"{k}={show_node(f.show(data[k]))}" for k, f in self.fields]
        return " ".join(parts)

    def parse(self, text: object) -> dict[str, Node]:
        """The header checked and each ``field=value`` parsed (not yet interpreted)."""
        if not isinstance(text, str):
            raise PositionError(f"position: expected text, got {type(text).__name__}")
        scanner = _Scanner(text)
        scanner.skip_space()
        name = scanner.word(f"the game name {self.game.name!r}")
        if name != self.game.name:
            raise PositionError(
                f"position: token {name!r}: expected the game name {self.game.name!r}"
            )
        scanner.skip_space()
        parts: dict[str, Node] = {"phase": scanner.word("the phase (name@who)")}
        while not scanner.done():
            start = scanner.at
            key = scanner.word("field=value")
            if scanner.at >= len(text) or text[scanner.at] != "=":
                raise scanner.fail(f"'=' after the field name {key!r}")
            scanner.at += 1
            if key not in self.formats:
                scanner.at = start
                raise PositionError(
                    f"position: token {key!r}: expected a field of {self.game.name}"
                    f" ({', '.join(k for k, _ in self.fields)})"
                )
            if key in parts:
                raise PositionError(f"position: token {key!r}: the field is given twice")
            parts[key] = scanner.field_value()
            if scanner.at < len(text) and not text[scanner.at].isspace():
                raise scanner.fail("a space between fields")
        return parts

    def read(self, text: object) -> State:
        """The state a position describes (every field must be given)."""
        parts = self.parse(text)
        missing = [k for k, _ in self.fields if k not in parts]
        if missing:
            raise PositionError(f"position: missing field(s) {', '.join(missing)}")
        data = {"phase": read_phase(parts["phase"], self.game.num_players)}
        for key, fmt in self.fields:
            data[key] = fmt.read(parts[key], key)
        return self._decode(data, parts)

    def build(self, **given: object) -> State:
        """A state from the parts a test cares about (notation text or Python values in the
        game's names); the rest comes from the game's base state, and the game's fill rule
        puts the cards no part placed into the pile or deck."""
        base = encode(self._base(self.game) if self._base else self.game.initial_state())
        data: dict[str, JSON] = dict(base)
        nodes: dict[str, Node] = {}
        for key, value in given.items():
            if key == "phase":
                if not isinstance(value, str):
                    raise PositionError(f"phase: expected text name@who, got {value!r}")
                data["phase"] = read_phase(value, self.game.num_players)
                nodes[key] = value
                continue
            fmt = self.formats.get(key)
            if fmt is None:
                raise PositionError(
                    f"position: part {key!r}: expected a field of {self.game.name}"
                    f" ({', '.join(k for k, _ in self.fields)}) or phase"
                )
            nodes[key] = fmt.coerce(value, key)
            data[key] = fmt.read(nodes[key], key)
        if self._fill is not None:
            self._fill(self.game, data, frozenset(given))
        return self._decode(data, nodes)

    def _decode(self, data: dict[str, JSON], nodes: Mapping[str, Node]) -> State:
        params = encode(dict(self.game.params))
        try:
            return self.game.state_from_json(
                {"game": self.game.name, "params": params, "state": data}
            )
        except PositionError:
            raise
        except StateDecodeError as err:
            message = str(err)
            match = re.match(r"state\.([A-Za-z_0-9]+)", message)
            field = match.group(1) if match else ""
            if field in nodes:
                shown = show_node(nodes[field])
                shown = shown if len(shown) <= 80 else shown[:77] + "..."
                message = f"{message} (position field {field}={shown})"
            raise PositionError(f"position: {message}") from None


def show_phase(phase: JSON) -> str:
    """A phase as ``name@who``: ``who`` is a seat, ``chance``, ``none`` (over), seats joined
    by ``+``, or ``together:`` and seats joined by ``+`` when they decide simultaneously."""
    to_move = phase["to_move"]
    if to_move == [CHANCE]:
        who = "chance"
    elif not to_move:
        who = "none"
    else:
        who = "+".join(str(p) for p in to_move)
        if phase["simultaneous"]:
            who = "together:" + who
    return f"{phase['name']}@{who}"


def read_phase(token: Node, players: int) -> JSON:
    """The JSON phase of a ``name@who`` token."""
    text = _atom(token, "phase", "name@who")
    name, at, who = text.partition("@")
    expected = "name@who with who a seat, seats joined by +, together:seats, chance or none"
    if not at or not name:
        raise PositionError(f"phase: token {text!r}: expected {expected}")
    if who == "chance":
        return {"name": name, "to_move": [CHANCE], "simultaneous": False}
    if who == "none":
        return {"name": name, "to_move": [], "simultaneous": False}
    together = who.startswith("together:")
    seats = who.removeprefix("together:").split("+")
    if not all(re.fullmatch(r"[0-9]{1,3}", s) and int(s) < players for s in seats):
        raise PositionError(f"phase: token {text!r}: expected {expected} (seats 0..{players - 1})")
    return {"name": name, "to_move": [int(s) for s in seats], "simultaneous": together}


def notation_of(game: Game) -> Notation:
    """``game``'s notation, built once per loaded game (kept on the game object: two
    games that compare equal may still be different classes with different notations)."""
    found: Notation | None = getattr(game, "_position_notation", None)
    if found is None:
        found = game.make_notation()
        game._position_notation = found  # type: ignore[attr-defined]
    return found


# -- helpers for the games' notations ------------------------------------------------------------


def seat_format(players: int, none: bool = True) -> Name:
    """A seat number 0..players-1 (``-`` for -1 when ``none``)."""
    return Name([str(p) for p in range(players)], "seat", none=none)


def seat_set(players: int) -> NameSet:
    """A bitmask of seats as the list of seat numbers."""
    return NameSet([str(p) for p in range(players)], "seat")


def dealt_start(game: Game) -> State:
    """The builder's usual base: the first decision of a game dealt with ``Rng(0)``."""
    from clangames.engine.chance import play_chance
    from clangames.engine.rng import Rng

    state, _ = play_chance(game.initial_state(), Rng(0))
    return state


def rest(
    expected: Sequence[int], placed: Sequence[int], names: Sequence[str], pile: str
) -> list[int]:
    """The cards of each kind no part of a scenario placed (``expected - placed``), for
    the builder to put in ``pile``; PositionError naming the kind placed too often."""
    left = [e - p for e, p in zip(expected, placed, strict=True)]
    for kind, n in enumerate(left):
        if n < 0:
            raise PositionError(
                f"position: {names[kind]} is placed {placed[kind]} times, the game has"
                f" {expected[kind]} (give {pile} or the parts holding it explicitly)"
            )
    return left
