"""The pages' own script, run by Node against a small stand-in for the browser (elements,
a WebSocket, fetch): what a seat's page shows of its view, what it sends when a player
clicks, that the server's text is never set as markup, that it shows errors and the
Retry only where a retry can help, that it reconnects, and that the create page sends
a well-formed request and lists every link. (The real browser test plays a whole game;
this one covers what that game never meets.)"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from clangames.web.page import create_page, game_page

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js to run the page's script")

BROWSER = r"""
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const els = {};
function element(id) {
  return {id, textContent: '', innerHTML: '', value: '', className: '', style: {},
    children: [], scrollTop: 0, scrollHeight: 0, onclick: null, listeners: {},
    classList: {on: {}, toggle(name, on) { this.on[name] = on; }},
    addEventListener(type, f) { this.listeners[type] = f; },
    replaceChildren(...c) { this.children = c; }, appendChild(c) { this.children.push(c); },
    append(...c) { this.children.push(...c); }};
}
global.document = {getElementById: id => (els[id] = els[id] || element(id)),
  createElement: tag => element(tag),
  querySelectorAll: sel => sel === '#legal button' ? els.legal.children : []};
for (const [id, fields] of Object.entries(input.elements)) {
  Object.assign(document.getElementById(id), fields);
}
global.location = {protocol: 'http:', host: 'example:8000', origin: 'http://example:8000'};
const sockets = [], timers = [], fetched = [];
global.WebSocket = function (url) { this.url = url; this.sent = []; sockets.push(this);
  this.send = text => this.sent.push(JSON.parse(text)); };
global.setTimeout = f => timers.push(f);
global.fetch = async (url, options) => { fetched.push({url, body: JSON.parse(options.body)});
  return {ok: input.fetch.ok, json: async () => input.fetch.data}; };
const text = e => typeof e === 'string' ? e : e.textContent + e.children.map(text).join('');
(async () => {
  eval(input.script);
  for (const step of input.steps) {
    const socket = sockets[sockets.length - 1];
    if ('message' in step) socket.onmessage({data: JSON.stringify(step.message)});
    if ('press' in step) await document.getElementById(step.press).onclick();
    if ('choose' in step) document.getElementById('legal').children[step.choose].onclick();
    if ('click' in step) document.getElementById('picture').listeners.click({target: {closest:
      () => ({getAttribute: () => step.click})}});
    if ('close' in step) { socket.onclose(); timers.splice(0).forEach(f => f()); }
  }
  const shown = {};
  for (const [id, e] of Object.entries(els)) shown[id] = {text: e.textContent, html: e.innerHTML,
    display: e.style.display, children: e.children.map(text),
    hints: e.children.map(c => c.classList && c.classList.on.hint === true)};
  console.log(JSON.stringify({shown, sockets: sockets.map(s => ({url: s.url, sent: s.sent})),
    fetched}));
})();
"""


def scripts_of(page: str) -> tuple[dict[str, str], str]:
    """The JSON data blocks of ``page`` by id, and its script."""
    data = dict(
        re.findall(r'<script type="application/json" id="(\w+)">(.*?)</script>', page, re.S)
    )
    (script,) = re.findall(r"<script>(.*?)</script>", page, re.S)
    return data, script


def run(page: str, steps: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    data, script = scripts_of(page)
    elements = {name: {"textContent": value} for name, value in data.items()}
    elements.update(options.get("elements", {}))
    given = {
        "script": script,
        "elements": elements,
        "steps": steps,
        "fetch": options.get("fetch", {"ok": True, "data": {}}),
    }
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", BROWSER], input=json.dumps(given), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def a_view(**fields: Any) -> dict[str, Any]:
    view = {
        "type": "view",
        "game": "g1",
        "title": "KOA Kingmaker",
        "seat": 0,
        "moves": 7,
        "turn": 4,
        "to_move": [0],
        "svg": "<svg><text>table</text></svg>",
        "prompt": "choose a card",
        "legal": ["play <b>Seer</b>", "play Moon"],
        "labels": ["play <b>Seer</b>", "play Moon"],
        "log": ["[0] a <i>deal</i>", "[1] a move"],
        "result": None,
        "notices": ["Move 3: player 2's bot (<x>) failed (E); ..."],
        "halted": None,
        "record": None,
    }
    return {**view, **fields}


TOKEN = "tok-en_0123456789abcdefABCDEF"


def test_a_seat_page_shows_its_view_as_text_and_sends_the_chosen_action() -> None:
    out = run(game_page("g1", "KOA Kingmaker", 0, TOKEN), [{"message": a_view()}, {"choose": 1}])
    (socket,) = out["sockets"]
    assert socket["url"] == f"ws://example:8000/ws/g1?token={TOKEN}"
    assert socket["sent"] == [{"type": "act", "turn": 4, "action": "play Moon"}]
    shown = out["shown"]
    assert shown["legal"]["children"] == ["play <b>Seer</b>", "play Moon"]  # as text
    assert shown["log"]["text"] == "[0] a <i>deal</i>\n[1] a move"
    assert shown["notices"]["children"] == ["Move 3: player 2's bot (<x>) failed (E); ..."]
    assert shown["prompt"]["text"] == "choose a card" and shown["moves"]["text"] == 7
    # the picture alone is markup (the server's own escaped SVG document)
    assert shown["picture"]["html"] == "<svg><text>table</text></svg>"
    assert all(s["html"] == "" for name, s in shown.items() if name != "picture")
    assert shown["halted"]["display"] == "none"


CLAN_FEUD = {
    "title": "Clan Feud",
    "prompt": "player 0: play a card or pass",
    "legal": ["play AC29", "play AC3", "option 1", "pass"],
    "labels": [
        "play AC29 (Forty Days' Service)",
        "play AC3 (<i>Raid</i>)",
        "option 1 (return 2 feud tokens)",
        "pass",
    ],
}


def test_a_button_shows_its_options_label_and_sends_the_actions_text() -> None:
    page = game_page("g1", "Clan Feud", 0, TOKEN)
    out = run(page, [{"message": a_view(**CLAN_FEUD)}, {"choose": 0}, {"choose": 2}])
    assert out["shown"]["legal"]["children"] == CLAN_FEUD["labels"]  # as text, not markup
    assert out["shown"]["legal"]["html"] == ""
    assert out["sockets"][0]["sent"] == [
        {"type": "act", "turn": 4, "action": "play AC29"},
        {"type": "act", "turn": 4, "action": "option 1"},
    ]
    # a view without labels (an older server) still lists the action texts
    old = {k: v for k, v in a_view(**CLAN_FEUD).items() if k != "labels"}
    out = run(page, [{"message": old}, {"choose": 3}])
    assert out["shown"]["legal"]["children"] == CLAN_FEUD["legal"]
    assert out["sockets"][0]["sent"] == [{"type": "act", "turn": 4, "action": "pass"}]


def test_a_click_in_the_picture_matches_the_actions_texts_not_their_labels() -> None:
    page = game_page("g1", "Clan Feud", 0, TOKEN)
    # two plays match "play": both are hinted, nothing is sent
    out = run(page, [{"message": a_view(**CLAN_FEUD)}, {"click": "play"}])
    assert out["shown"]["legal"]["hints"] == [True, True, False, False]
    assert out["sockets"][0]["sent"] == []
    # a word only a label holds (a card's name) matches no action
    out = run(page, [{"message": a_view(**CLAN_FEUD)}, {"click": "Service)"}])
    assert out["shown"]["legal"]["hints"] == [False, False, False, False]
    assert out["sockets"][0]["sent"] == []
    # one match: chosen at once, by its action's text
    out = run(page, [{"message": a_view(**CLAN_FEUD)}, {"click": "AC3"}])
    assert out["sockets"][0]["sent"] == [{"type": "act", "turn": 4, "action": "play AC3"}]


def test_a_spectator_page_connects_without_a_token() -> None:
    out = run(game_page("g1", "KOA Kingmaker", None, None), [{"message": a_view(seat=None)}])
    assert [s["url"] for s in out["sockets"]] == ["ws://example:8000/ws/g1"]


def test_an_error_is_shown_and_cleared_by_the_next_action() -> None:
    page = game_page("g1", "KOA Kingmaker", 0, TOKEN)
    error = {"type": "error", "status": 409, "error": "stale move: look again"}
    out = run(page, [{"message": a_view()}, {"message": error}])
    assert out["shown"]["error"]["text"] == "stale move: look again"
    out = run(page, [{"message": a_view()}, {"message": error}, {"choose": 0}])
    assert out["shown"]["error"]["text"] == ""


@pytest.mark.parametrize(
    ("seat", "token", "retry", "shown"),
    [(0, TOKEN, True, "inline"), (0, TOKEN, False, "none"), (None, None, True, "none")],
)
def test_retry_is_offered_only_to_a_seat_of_a_game_a_retry_may_resume(
    seat: int | None, token: str | None, retry: bool, shown: str
) -> None:
    halted = {"message": "Move 2: the server's chance move failed", "retry": retry}
    page = game_page("g1", "KOA Kingmaker", seat, token)
    out = run(page, [{"message": a_view(seat=seat, halted=halted)}])
    assert out["shown"]["halted"]["display"] == "block"
    assert out["shown"]["halted-text"]["text"] == halted["message"]
    assert out["shown"]["retry"]["display"] == shown
    if shown == "inline":
        pressed = run(page, [{"message": a_view(halted=halted)}, {"press": "retry"}])
        assert pressed["sockets"][0]["sent"] == [{"type": "retry"}]


def test_a_closed_connection_is_opened_again() -> None:
    out = run(game_page("g1", "KOA Kingmaker", 0, TOKEN), [{"message": a_view()}, {"close": True}])
    assert [s["url"] for s in out["sockets"]] == [f"ws://example:8000/ws/g1?token={TOKEN}"] * 2


def test_the_game_page_links_its_own_record() -> None:
    page = game_page("g1", "KOA Kingmaker", 1, TOKEN)
    assert 'href="/api/games/g1/record"' in page and "(player 1)" in page
    assert "(spectator)" in game_page("g1", "KOA Kingmaker", None, None)


def test_the_create_page_sends_a_whole_request_and_lists_every_link() -> None:
    catalogue = [{"name": "koa_kingmaker", "title": "KOA Kingmaker", "min": 2, "max": 5}]
    created = {
        "game": "g1",
        "spectator": "/watch/g1",
        "seats": {"0": "/play/g1/aaa", "1": "/play/g1/bbb"},
    }
    out = run(
        create_page(catalogue),
        [{"press": "go"}],
        elements={
            "game": {"value": "koa_kingmaker"},
            "seats": {"value": "human, human,ismcts"},
            "seed": {"value": "42"},
        },
        fetch={"ok": True, "data": created},
    )
    assert out["fetched"] == [
        {
            "url": "/api/games",
            "body": {
                "game": "koa_kingmaker",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "ismcts"}],
                "seed": 42,
            },
        }
    ]
    assert out["shown"]["game"]["children"] == ["KOA Kingmaker (2-5 players)"]
    assert out["shown"]["links"]["children"] == [
        "player 0 (secret): http://example:8000/play/g1/aaa",
        "player 1 (secret): http://example:8000/play/g1/bbb",
        "spectators: http://example:8000/watch/g1",
    ]
    refused = run(
        create_page(catalogue),
        [{"press": "go"}],
        elements={"game": {"value": "koa_kingmaker"}, "seats": {"value": "human"}},
        fetch={"ok": False, "data": {"error": "'seats': expected a list of 2 seats"}},
    )
    assert refused["shown"]["links"]["text"] == "'seats': expected a list of 2 seats"
    assert "seed" not in refused["fetched"][0]["body"]
