"""Build King's Kilt positions from a readable picture of the pyramid.

A picture lists rows from the top (row 6, the King) down to row 1, one line each, with a
clan per space: a full name ("Bruce"), a two-letter code ("Br") or "." for an empty space.
A line's length says which row it is, so rows may be left out (they are empty). Every
card not placed somewhere explicitly goes into the draw pile's hidden member layer (or out
of the game), so the 64-card accounting always adds up: ``check_consistency`` runs on every
position built here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

import clangames
from clangames import Multiset, Phase
from clangames.kings_kilt import KingsKiltGame, KingsKiltState

CODES = {
    "Ml": "Macleod",
    "Mk": "Mackay",
    "Mb": "Macbeth",
    "Br": "Bruce",
    "Bu": "Buchanan",
    "Do": "Douglas",
    "Ha": "Hamilton",
    "St": "Stewart",
}

ClanSpec = str | int
"""A clan by name, two-letter code or index."""


def load(players: int = 3, **params: object) -> KingsKiltGame:
    """A King's Kilt game (typed)."""
    game = clangames.load("kings_kilt", players=players, **params)
    if not isinstance(game, KingsKiltGame):
        raise TypeError(f"expected a KingsKiltGame, got {game!r}")
    return game


def clan(game: KingsKiltGame, spec: ClanSpec) -> int:
    """The clan index of a name, code or index."""
    if isinstance(spec, int):
        return spec
    return game.clans.index(CODES.get(spec, spec))


def mask(game: KingsKiltGame, clans: Iterable[ClanSpec]) -> int:
    """A clan bitmask."""
    out = 0
    for c in clans:
        out |= 1 << clan(game, c)
    return out


def counts(game: KingsKiltGame, clans: Iterable[ClanSpec] | Mapping[ClanSpec, int]) -> Multiset:
    """A multiset of clans, from a list (repeats count) or a {clan: count} mapping."""
    if isinstance(clans, Mapping):
        items = [clan(game, c) for c, k in clans.items() for _ in range(k)]
    else:
        items = [clan(game, c) for c in clans]
    return Multiset.from_kinds(len(game.clans), items)


def pos(game: KingsKiltGame, row: int, index: int) -> int:
    """The flat position of space (row, index)."""
    return game.geo.at[(row, index)]


def parse_picture(game: KingsKiltGame, picture: str | Sequence[str]) -> tuple[int, ...]:
    """The flat pyramid of a picture. Each line is one row, recognised by its number of
    spaces (row r has width + 1 - r); rows left out are empty."""
    lines = picture.strip().splitlines() if isinstance(picture, str) else list(picture)
    width = game.geo.width
    pyr = [-1] * game.geo.size
    seen = set()
    for line in lines:
        cells = line.split()
        if not cells:
            continue
        row = width + 1 - len(cells)
        if not 1 <= row <= width or row in seen:
            raise ValueError(f"{line!r} is not a row of the pyramid (or repeats one)")
        seen.add(row)
        for i, cell in enumerate(cells):
            if cell != ".":
                pyr[pos(game, row, i)] = clan(game, cell)
    return tuple(pyr)


def picture_of(state: KingsKiltState) -> list[str]:
    """The picture of a state's pyramid (two-letter codes, top row first)."""
    game = state.game
    code = {name: c for c, name in CODES.items()}
    out = []
    for row in range(game.geo.width, 0, -1):
        cells = []
        for p in game.geo.row_positions(row):
            c = state.pyramid[p]
            cells.append("." if c < 0 else code.get(game.clans[c], game.clans[c]))
        out.append(" ".join(cells))
    return out


def position(
    game: KingsKiltGame,
    picture: str | Sequence[str],
    *,
    player: int = 0,
    hands: Sequence[Iterable[ClanSpec] | Mapping[ClanSpec, int]] | None = None,
    families: Sequence[Iterable[ClanSpec]] | None = None,
    revealed: Sequence[Iterable[ClanSpec]] | None = None,
    top: ClanSpec | None = "auto",
    leaders: Iterable[ClanSpec] | Mapping[ClanSpec, int] = (),
    reshuffled: Iterable[ClanSpec] | Mapping[ClanSpec, int] = (),
    discards: Iterable[ClanSpec] | Mapping[ClanSpec, int] = (),
    removed: Iterable[ClanSpec] | Mapping[ClanSpec, int] = (),
    members: Iterable[ClanSpec] | Mapping[ClanSpec, int] = (),
    rest: str = "members",
    passed: Iterable[int] = (),
    crowned: bool | None = None,
    nobles_triggered: bool | None = None,
    guardians_triggered: bool | None = None,
    turns: int = 10,
) -> KingsKiltState:
    """Player ``player``'s turn in the position drawn by ``picture``.

    Defaults: empty hands; player p's family is clans p, p+1, p+2 (mod 8), none revealed;
    no leaders, reshuffled cards or discards; the triggers and the crown follow from the
    highest occupied row. The cards placed nowhere else go to ``rest``: "members" (the
    hidden layer of the draw pile) or "removed" (out of the game, so the pile holds only
    what is listed). ``top`` "auto" turns up the highest-numbered clan left over (None:
    nothing shows)."""
    base = clangames.resolve_chance(game.initial_state(), clangames.Rng(7))
    if not isinstance(base, KingsKiltState):
        raise TypeError("not a King's Kilt state")
    n = game.num_players
    k = len(game.clans)
    pyr = parse_picture(game, picture)
    hand_sets = tuple(counts(game, h) for h in hands) if hands else (Multiset.empty(k),) * n
    fams = (
        tuple(mask(game, f) for f in families)
        if families
        else tuple(mask(game, [p % k, (p + 1) % k, (p + 2) % k]) for p in range(n))
    )
    revs = tuple(mask(game, r) for r in revealed) if revealed else (0,) * n
    lead = counts(game, leaders)
    resh = counts(game, reshuffled)
    disc = counts(game, discards)
    used = [0] * k
    for c in pyr:
        if c >= 0:
            used[c] += 1
    for f in fams:
        for c in range(k):
            used[c] += f >> c & 1
    for ms in (*hand_sets, lead, resh, disc):
        for c, m in enumerate(ms.counts):
            used[c] += m
    rem = counts(game, removed)
    mem = counts(game, members)
    for ms in (rem, mem):
        for c, m in enumerate(ms.counts):
            used[c] += m
    total = game.components.cards_per_clan
    left = [total - u for u in used]
    if min(left) < 0:
        raise ValueError(f"more cards placed than exist: {left}")
    if top == "auto":
        top_clan = max((c for c in range(k) if left[c] > 0), default=-1)
    elif top is None:
        top_clan = -1
    else:
        top_clan = clan(game, top)
    if top_clan >= 0:
        left[top_clan] -= 1
        if left[top_clan] < 0:
            raise ValueError("no card of the top clan is left for the draw pile")
    leftover = Multiset(tuple(left))
    if rest == "members":
        mem = mem.union(leftover)
    elif rest == "removed":
        rem = rem.union(leftover)
    else:
        raise ValueError(f"rest must be 'members' or 'removed', got {rest!r}")
    rows = game.geo.row
    highest = max((rows[p] for p in range(game.geo.size) if pyr[p] >= 0), default=0)
    width = game.geo.width
    state = attrs.evolve(
        base,
        phase=Phase.turn("turn", player),
        pyramid=pyr,
        top=top_clan,
        leaders=lead,
        members=mem,
        reshuffled=resh,
        family_deck=0,
        families=fams,
        from_deck=(0,) * game.num_players,
        revealed=revs,
        hands=hand_sets,
        discards=disc,
        removed=rem,
        passed=sum(1 << p for p in passed),
        crowned=highest >= width if crowned is None else crowned,
        nobles_triggered=highest >= width - 2 if nobles_triggered is None else nobles_triggered,
        guardians_triggered=(
            highest >= width - 1 if guardians_triggered is None else guardians_triggered
        ),
        actor=player,
        vacancy=-1,
        reveal_queue=(),
        dealt=0,
        turns=turns,
    )
    state.check_consistency()
    return state


FULL_BASE = """
Ml Mk Mb Br Bu Do
"""
"""Row 1 full, nothing above it."""


def texts(state: clangames.State, player: int | None = None) -> list[str]:
    """The legal actions' text forms."""
    return [state.action_text(a) for a in state.legal_actions(player)]


def do(state: clangames.State, *moves: str) -> KingsKiltState:
    """Apply actions given as text (chance outcomes too), one after another."""
    for text in moves:
        state = state.apply_text(text)
    if not isinstance(state, KingsKiltState):
        raise TypeError("not a King's Kilt state")
    return state


def weights(state: clangames.State) -> dict[str, int]:
    """A chance node's outcomes by text, with their integer weights."""
    return {state.action_text(a): w for a, w in state.chance_weights()}


def finish_with_passes(state: KingsKiltState) -> KingsKiltState:
    """Everyone still in passes, in turn order, until the game is over."""
    while not state.is_terminal:
        state = do(state, "pass")
    return state


def check_invariants(state: clangames.State) -> None:
    """King's Kilt invariants that hold in every reachable state (AssertionError if not):
    every card accounted for, families and reveals well formed, hands within their deal,
    triggers and crown consistent with the pyramid, no advancing after the King, no
    passing before it unless nothing else is possible."""
    from clangames.kings_kilt import Advance, Betray, Pass

    assert isinstance(state, KingsKiltState)
    game = state.game
    k = len(game.clans)
    totals = [0] * k
    for c in state.pyramid:
        if c >= 0:
            totals[c] += 1
    if state.top >= 0:
        totals[state.top] += 1
    for ms in (
        state.leaders,
        state.members,
        state.reshuffled,
        state.discards,
        state.removed,
        *state.hands,
    ):
        assert min(ms.counts) >= 0
        for c, m in enumerate(ms.counts):
            totals[c] += m
    for fam in (*state.families, state.family_deck):
        for c in range(k):
            totals[c] += fam >> c & 1
    assert totals == [game.components.cards_per_clan] * k, totals
    in_play = state.actor >= 0
    for p in range(game.num_players):
        assert state.revealed[p] & ~state.families[p] == 0
        assert len(state.hands[p]) <= game.hand_size
        if in_play:
            assert state.families[p].bit_count() == game.components.family_size
    geo = game.geo
    highest = max((geo.row[p] for p in range(geo.size) if state.pyramid[p] >= 0), default=0)
    if highest >= geo.nobleman_row:
        assert state.nobles_triggered
    if highest >= geo.guardian_row:
        assert state.guardians_triggered
    if highest >= geo.king_row:
        assert state.crowned
    if state.guardians_triggered:
        assert state.nobles_triggered
    if state.phase.name == "turn":
        assert state.vacancy < 0 and state.reveal_queue == ()
        assert not state.passed >> state.actor & 1
        legal = state.legal_actions()
        if state.crowned:
            assert not any(isinstance(a, Advance) for a in legal)
            assert isinstance(legal[-1], Pass)
        elif any(isinstance(a, Pass) for a in legal):
            assert len(legal) == 1
        for a in legal:
            if isinstance(a, Betray):
                assert a.influence in state.hands[state.actor]
    for p in state.to_move:
        assert p < 0 or not (state.phase.name == "turn" and state.passed >> p & 1)


def playouts(default: int) -> int:
    """How many conformance playouts to run: ``default``, or ``CLANGAMES_SOAK_GAMES``
    (3000 unless set) when ``CLANGAMES_SOAK=1``."""
    import os

    if os.environ.get("CLANGAMES_SOAK") == "1":
        return int(os.environ.get("CLANGAMES_SOAK_GAMES", "3000"))
    return default


# A full pyramid with a King (rows 6 down to 1); no clan has more than 4 cards in it.
FULL = """
Mk
Mk Bu
Ml Mb Br
Do Ha St Ml
Mk Mb Br Bu Do
Ml Mk Mb Br Bu Do
"""
