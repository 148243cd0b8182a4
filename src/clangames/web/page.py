"""The HTML pages of ``clangames serve``: one to create a game, one per seat or spectator.

Both are static text plus a little JavaScript; everything a page shows arrives in its
seat's own view (over the WebSocket), and text from the server is set with
``textContent`` (the SVG picture is the server's own escaped document), so nothing a
player types reaches another page as markup.
"""

from __future__ import annotations

import html
import json
from typing import Any

STYLE = """
body{font-family:sans-serif;margin:1em;background:#f6f3ea;color:#222}
#picture svg{max-width:100%;height:auto;border:1px solid #ccc;background:#fff}
#legal button{margin:2px;padding:4px 8px}
#log{max-height:16em;overflow:auto;font-family:monospace;font-size:12px;background:#fff;
border:1px solid #ccc;padding:4px}
#error{color:#b00}
#halted{color:#fff;background:#b00;padding:6px}
#notices{color:#8a5a00}
#legal button.hint{outline:3px solid #e0a800}
#picture [data-label]{cursor:pointer}
.cols{display:flex;gap:1em;flex-wrap:wrap}
"""

SCRIPT = r"""
const cfg = JSON.parse(document.getElementById('cfg').textContent);
let view = null, socket = null;
function show(v) {
  view = v;
  document.getElementById('picture').innerHTML = v.svg;
  document.getElementById('prompt').textContent = v.prompt ||
      (v.result ? '' : (v.to_move.length ? 'Waiting for player(s) ' + v.to_move.join(', ') : ''));
  const legal = document.getElementById('legal');
  legal.replaceChildren();
  // Each button shows its option's label (the action's text and what it is) and sends
  // the action's text itself, which is what the server takes.
  v.legal.forEach((text, i) => {
    const b = document.createElement('button');
    b.textContent = (v.labels && v.labels[i]) || text; b.className = 'action';
    b.value = text;
    b.onclick = () => act(text);
    legal.appendChild(b);
  });
  const log = document.getElementById('log');
  log.textContent = v.log.join('\n');
  log.scrollTop = log.scrollHeight;
  const result = document.getElementById('result');
  if (v.result) {
    result.textContent = 'Game over. Scores: ' + v.result.scores.join(', ') +
      '. Winner(s): player ' + v.result.winners.join(', player ') + '.';
  }
  // Offered once the game is over or stopped at the server's move limit.
  document.getElementById('record').style.display = v.record ? 'inline' : 'none';
  document.getElementById('moves').textContent = v.moves;
  const notices = document.getElementById('notices');
  notices.replaceChildren();
  v.notices.forEach(text => {
    const li = document.createElement('li'); li.textContent = text; notices.appendChild(li);
  });
  const halted = document.getElementById('halted');
  halted.style.display = v.halted ? 'block' : 'none';
  document.getElementById('halted-text').textContent = v.halted ? v.halted.message : '';
  document.getElementById('retry').style.display =
      v.halted && v.halted.retry && cfg.token ? 'inline' : 'none';
}
function retry() {
  document.getElementById('error').textContent = '';
  socket.send(JSON.stringify({type: 'retry'}));
}
document.getElementById('retry').onclick = retry;
function matching(label) {
  const esc = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const word = new RegExp('(^|\\s)' + esc + '($|[\\s,])');
  return view.legal.filter(t => word.test(t));
}
document.getElementById('picture').addEventListener('click', e => {
  const el = e.target.closest('[data-label]');
  if (!el || !view) return;
  const found = matching(el.getAttribute('data-label'));
  if (found.length === 1) { act(found[0]); return; }
  document.querySelectorAll('#legal button').forEach(b =>
    b.classList.toggle('hint', found.includes(b.value)));
});
function act(text) {
  document.getElementById('error').textContent = '';
  socket.send(JSON.stringify({type: 'act', turn: view.turn, action: text}));
}
function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  let url = proto + '://' + location.host + '/ws/' + cfg.game;
  if (cfg.token) url += '?token=' + encodeURIComponent(cfg.token);
  socket = new WebSocket(url);
  socket.onmessage = e => {
    const m = JSON.parse(e.data);
    if (m.type === 'view') show(m);
    else if (m.type === 'error') document.getElementById('error').textContent = m.error;
  };
  socket.onclose = () => setTimeout(connect, 1000);
}
connect();
"""


def game_page(game_id: str, title: str, seat: int | None, token: str | None) -> str:
    """A seat's page (``token`` its secret) or, with ``seat`` None, a spectator's."""
    who = "spectator" if seat is None else f"player {seat}"
    cfg = json.dumps({"game": game_id, "token": token}).replace("</", "<\\/")
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)} - {who}</title>
<style>{STYLE}</style></head>
<body>
<h1>{html.escape(title)} <small>({who})</small></h1>
<script type="application/json" id="cfg">{cfg}</script>
<div id="halted" style="display:none"><span id="halted-text"></span>
<button id="retry" style="display:none">Retry</button></div>
<div class="cols">
<div id="picture"></div>
<div style="min-width:20em">
<p id="prompt"></p>
<div id="legal"></div>
<p id="error"></p>
<ul id="notices"></ul>
<p id="result"></p>
<p>Moves so far: <span id="moves">0</span>
<a id="record" style="display:none" href="/api/games/{html.escape(game_id)}/record">download the
record</a></p>
<pre id="log"></pre>
</div></div>
<script>{SCRIPT}</script>
</body></html>"""


CREATE_SCRIPT = """
const games = JSON.parse(document.getElementById('games').textContent);
const sel = document.getElementById('game');
games.forEach(g => { const o = document.createElement('option'); o.value = g.name;
  o.textContent = g.title + ' (' + g.min + '-' + g.max + ' players)'; sel.appendChild(o); });
function seatsFromText() {
  return document.getElementById('seats').value.split(',').map(s => s.trim()).map(s =>
    s === 'human' ? {kind: 'human'} : {kind: 'bot', bot: s});
}
document.getElementById('go').onclick = async () => {
  const seats = seatsFromText();
  const body = {game: sel.value, players: seats.length, seats: seats};
  const seed = document.getElementById('seed').value;
  if (seed) body.seed = parseInt(seed, 10);
  const r = await fetch('/api/games', {method: 'POST', body: JSON.stringify(body),
    headers: {'Content-Type': 'application/json'}});
  const data = await r.json();
  const out = document.getElementById('links');
  out.replaceChildren();
  if (!r.ok) { out.textContent = data.error; return; }
  const add = (label, href) => { const li = document.createElement('li');
    const a = document.createElement('a'); a.href = href; a.textContent = location.origin + href;
    li.append(label + ': ', a); out.appendChild(li); };
  Object.entries(data.seats).forEach(([seat, href]) => add('player ' + seat + ' (secret)', href));
  add('spectators', data.spectator);
};
"""


def create_page(catalogue: list[dict[str, Any]]) -> str:
    """The page that creates a game: the game, the seats (``human`` or a bot's name, comma
    separated) and an optional seed; it then lists each human seat's secret link."""
    data = json.dumps(catalogue).replace("</", "<\\/")
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>clangames serve</title><style>{STYLE}</style></head>
<body><h1>clangames: a new game</h1>
<script type="application/json" id="games">{data}</script>
<p><label>Game <select id="game"></select></label></p>
<p><label>Seats (human or a bot: random, ismcts), comma separated
<input id="seats" value="human,human,random" size="40"></label></p>
<p><label>Seed (optional) <input id="seed" size="12"></label></p>
<p><button id="go">Create</button></p>
<ul id="links"></ul>
<p>Give each player their own secret link; anyone may watch with the spectators' link.</p>
<script>{CREATE_SCRIPT}</script>
</body></html>"""
