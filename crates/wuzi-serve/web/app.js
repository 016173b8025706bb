// The wuzi board page. The server owns the game and the searches (its JSON API and event
// stream); this script sends what the user does and draws what the server says. The board
// picture itself comes from the server (the position as SVG); the script adds the live marks
// over it: the candidates of a multi-line search, the five, the hover and keyboard cursor.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

const S = {
  session: null,
  state: null,
  mode: 'play',
  info: null,          // the latest progress of the running search
  infoKey: null,       // the position that progress belongs to
  analysing: false,    // analysis is wanted: restart it when the position changes
  preview: null,       // {line, upto}: a line shown up to a move
  cursor: null,        // keyboard cursor {x, y}
  hover: null,
  events: null,
  maxThreads: 1,
  messageTimer: null,
};

// ---- points -------------------------------------------------------------------------

function pointName(x, y) {
  let n = x + 1;
  let letters = '';
  while (n > 0) {
    letters = String.fromCharCode(97 + ((n - 1) % 26)) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters + (y + 1);
}

function parseName(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name);
  if (!m) return null;
  let x = 0;
  for (const c of m[1]) x = x * 26 + (c.charCodeAt(0) - 96);
  return { x: x - 1, y: Number(m[2]) - 1 };
}

function positionKey(state) {
  return state ? `${state.rule}/${state.width}x${state.height}/${state.moves.slice(0, state.ply).join('')}` : '';
}

// ---- the server ---------------------------------------------------------------------

async function api(path, body, method) {
  const init = { method: method || (body === undefined ? 'GET' : 'POST'), headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function sessionPath(action) {
  return `/api/sessions/${S.session}${action ? '/' + action : ''}`;
}

async function act(action, body) {
  try {
    const data = await api(sessionPath(action), body || {});
    const state = data && data.state ? data.state : data;
    if (state && state.moves) setState(state);
    return data;
  } catch (e) {
    showMessage(e.message);
    if (e.status === 404 && /session/.test(e.message)) await openSession(true);
    return null;
  }
}

function showMessage(text) {
  const m = $('message');
  m.textContent = text;
  m.hidden = false;
  clearTimeout(S.messageTimer);
  S.messageTimer = setTimeout(() => { m.hidden = true; }, 5000);
}

async function openSession(fresh) {
  let state = null;
  const saved = sessionStorage.getItem('wuzi-session');
  if (saved && !fresh) {
    try { state = await api(`/api/sessions/${saved}`); } catch (e) { state = null; }
  }
  if (!state) {
    try {
      state = await api('/api/sessions', { rule: $('rule').value, size: sizeValue() });
    } catch (e) {
      $('status').textContent = `Cannot open a board: ${e.message}`;
      return;
    }
  }
  S.session = state.session;
  sessionStorage.setItem('wuzi-session', S.session);
  listen();
  setState(state);
}

function listen() {
  if (S.events) S.events.close();
  const source = new EventSource(sessionPath('events'));
  S.events = source;
  source.addEventListener('state', (e) => setState(JSON.parse(e.data)));
  source.addEventListener('info', (e) => {
    const info = JSON.parse(e.data);
    if (!S.state || !S.state.job || S.state.job.id !== info.job) return;
    S.info = info;
    S.infoKey = positionKey(S.state);
    renderThinking();
    renderBoard();
  });
  source.addEventListener('done', (e) => onDone(JSON.parse(e.data)));
  source.onerror = async () => {
    // The stream reconnects by itself; a server that forgot the session needs a new one.
    try { await api(sessionPath()); } catch (err) {
      if (err.status === 404) { source.close(); await openSession(true); }
    }
  };
}

// ---- state --------------------------------------------------------------------------

function setState(state) {
  const before = S.state;
  // An answer and the event stream can cross: keep the newest state.
  if (before && before.session === state.session && state.seq < before.seq) return;
  S.state = state;
  if (positionKey(before) !== positionKey(state)) {
    S.preview = null;
    if (S.infoKey !== positionKey(state)) S.info = null;
  }
  render();
  // Analysis follows the position: a new position, a new analysis (until Stop).
  if (S.mode === 'analyse' && S.analysing && !state.job && !state.result &&
      positionKey(state) !== S.analysedKey) {
    startAnalysis();
  }
  if (S.mode === 'play') maybeEngineMove();
}

function onDone(done) {
  if (done.error) showMessage(done.error);
  if (done.kind === 'move') engineAsked = null;
}

function human() { return $('colour').value; }

function engineToMove(state) {
  return state && !state.result && state.ply === state.moves.length && state.to_move !== human();
}

let engineAsked = null;
function maybeEngineMove() {
  const st = S.state;
  if (!engineToMove(st) || st.job) return;
  const key = positionKey(st);
  if (engineAsked === key) return;
  engineAsked = key;
  think('move');
}

function thinkBody(mode) {
  const body = { mode, threads: Number($('threads').value) || 1 };
  if (mode === 'move') {
    body.time_ms = Number($('time').value);
    const depth = Number($('depth').value);
    if (depth > 0) body.depth = depth;
    // Sent as typed: the server refuses a level out of 0 to 100 with a clear message.
    const level = $('level').value.trim();
    if (level !== '') body.level = Number(level);
  } else {
    body.lines = Number($('lines').value);
  }
  return body;
}

async function think(mode) {
  S.info = null;
  const accepted = await act('think', thinkBody(mode));
  if (!accepted && mode === 'move') engineAsked = null;
  return accepted;
}

async function startAnalysis() {
  if (!S.state || S.state.result) return;
  S.analysing = true;
  S.analysedKey = positionKey(S.state);
  if (!(await think('analyse'))) S.analysing = false;
  renderButtons();
}

function stopAnalysis() {
  S.analysing = false;
  S.analysedKey = null;
  if (S.state && S.state.job && S.state.job.kind !== 'move') act('stop');
  renderButtons();
}

// ---- drawing ------------------------------------------------------------------------

function render() {
  renderStatus();
  renderBoard();
  renderThinking();
  renderButtons();
  renderNav();
  renderReview();
}

function renderStatus() {
  const st = S.state;
  const status = $('status');
  status.classList.remove('over');
  if (!st) return;
  const result = st.result;
  if (result) {
    status.classList.add('over');
    let text = result.text;
    if (S.mode === 'play' && result.winner) {
      text = (result.winner === human() ? 'You win! ' : 'wuzi wins. ') + text;
    }
    status.textContent = text;
    status.dataset.result = result.winner || 'draw';
    return;
  }
  delete status.dataset.result;
  const side = st.to_move === 'black' ? 'Black' : 'White';
  if (st.job && st.job.kind === 'move') status.textContent = `wuzi is thinking (${side})…`;
  else if (st.job && st.job.kind === 'review') status.textContent = `Evaluating the game… ${st.job.done} / ${st.job.total}`;
  else if (S.mode === 'play' && st.ply === st.moves.length) {
    status.textContent = st.to_move === human() ? `Your move (${side})` : `${side} to move`;
  } else status.textContent = `${side} to move`;
}

function boardSvgText() {
  const st = S.state;
  if (S.preview && S.preview.svg) return S.preview.svg;
  if (S.info && S.info.board_svg && S.infoKey === positionKey(st)) return S.info.board_svg;
  return st.board_svg || '';
}

function renderBoard() {
  const st = S.state;
  if (!st) return;
  const board = $('board');
  const text = boardSvgText();
  if (board.dataset.svg !== text) {
    board.innerHTML = text;
    board.dataset.svg = text;
  }
  board.classList.toggle('no-numbers', !$('numbers').checked);
  const svg = board.querySelector('svg');
  if (!svg) return;
  svg.dataset.cell = st.geometry.cell;
  svg.dataset.margin = st.geometry.margin;
  let overlay = svg.querySelector('#overlay');
  if (overlay) overlay.remove();
  overlay = document.createElementNS(SVG_NS, 'g');
  overlay.id = 'overlay';
  svg.appendChild(overlay);
  drawCandidates(overlay);
  drawFive(overlay);
  drawCursor(overlay);
}

function centre(p) {
  const g = S.state.geometry;
  return [g.margin + p.x * g.cell, g.margin + p.y * g.cell];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawCandidates(overlay) {
  const info = S.info;
  if (!info || S.preview || S.infoKey !== positionKey(S.state) || info.lines.length < 2) return;
  for (const line of info.lines) {
    const p = line.move && parseName(line.move);
    if (!p) continue;
    const [cx, cy] = centre(p);
    const g = el('g', { class: 'candidate', 'data-point': line.move, 'data-rank': line.multipv }, overlay);
    const cell = S.state.geometry.cell;
    el('rect', {
      x: cx - cell * 0.45, y: cy - cell * 0.45, width: cell * 0.9, height: cell * 0.9, rx: 5,
      fill: line.multipv === 1 ? '#2e7d32' : '#1565c0', opacity: 0.85,
    }, g);
    const mover = info.to_move === 'black' ? line.black_win : 1 - line.black_win;
    const t = el('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#fff' }, g);
    t.textContent = `${Math.round(mover * 100)}`;
  }
}

function drawFive(overlay) {
  const result = S.state.result;
  if (!result || !result.five.length) return;
  const points = result.five.map(parseName);
  const [x1, y1] = centre(points[0]);
  const [x2, y2] = centre(points[points.length - 1]);
  el('line', { x1, y1, x2, y2, stroke: '#d32f2f', 'stroke-width': 5, 'stroke-linecap': 'round', opacity: 0.8, class: 'five-line' }, overlay);
  for (const p of points) {
    const [cx, cy] = centre(p);
    el('circle', { cx, cy, r: S.state.geometry.cell * 0.5, fill: 'none', stroke: '#d32f2f', 'stroke-width': 3, class: 'five-mark', 'data-point': pointName(p.x, p.y) }, overlay);
  }
}

function drawCursor(overlay) {
  const st = S.state;
  for (const [p, cls] of [[S.hover, 'hover'], [S.cursor, 'cursor']]) {
    if (!p) continue;
    const [cx, cy] = centre(p);
    const cell = st.geometry.cell;
    if (cls === 'hover') {
      if (!canClick() || stoneAt(p)) continue;
      el('circle', { cx, cy, r: cell * 0.44, fill: st.to_move === 'black' ? '#111' : '#fff', opacity: 0.35, class: 'hover' }, overlay);
    } else {
      el('rect', { x: cx - cell / 2, y: cy - cell / 2, width: cell, height: cell, fill: 'none', stroke: '#1e63c4', 'stroke-width': 2.5, class: 'cursor' }, overlay);
    }
  }
}

function stoneAt(p) {
  return S.state.moves.slice(0, S.state.ply).includes(pointName(p.x, p.y));
}

function scoreText(score, mate) {
  if (mate !== null && mate !== undefined) return mate > 0 ? `win in ${mate}` : `loss in ${-mate}`;
  return (score > 0 ? '+' : '') + score;
}

function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

function renderThinking() {
  const st = S.state;
  const info = S.infoKey === positionKey(st) ? S.info : null;
  let blackWin = null;
  if (info && info.lines.length) {
    const best = info.lines[0];
    $('t-depth').textContent = `${info.depth}/${info.seldepth}`;
    $('t-score').textContent = scoreText(best.score, best.mate);
    $('t-nps').textContent = `${count(info.nodes)} nodes · ${count(info.nps)} n/s`;
    blackWin = best.black_win;
    $('t-pv').textContent = best.pv.map((m, i) => `${i + 1}. ${m}`).join('  ');
  } else {
    const ev = st && st.evals[st.ply];
    $('t-depth').textContent = ev ? String(ev.depth) : '–';
    $('t-score').textContent = ev ? scoreText(st.to_move === 'black' ? ev.score : -ev.score, ev.mate === null ? null : (st.to_move === 'black' ? ev.mate : -ev.mate)) : '–';
    $('t-nps').textContent = '–';
    $('t-pv').textContent = '';
    if (ev) blackWin = ev.black_win;
  }
  const bar = $('winbar-black');
  bar.style.width = `${Math.round((blackWin === null ? 0.5 : blackWin) * 100)}%`;
  $('t-win-black').textContent = blackWin === null ? 'Black –' : `Black ${Math.round(blackWin * 100)}%`;
  $('t-win-white').textContent = blackWin === null ? 'White –' : `White ${Math.round((1 - blackWin) * 100)}%`;
  renderLines(info);
}

function renderLines(info) {
  const list = $('t-lines');
  list.textContent = '';
  if (!info) return;
  for (const line of info.lines) {
    const li = document.createElement('li');
    li.dataset.rank = line.multipv;
    const score = document.createElement('span');
    score.className = 'line-score';
    score.textContent = `${scoreText(line.score, line.mate)} (d${line.depth})`;
    li.appendChild(score);
    line.pv.forEach((move, i) => {
      const b = document.createElement('button');
      b.className = 'line-move';
      if (S.preview && S.preview.line === line.multipv && S.preview.upto === i + 1) b.classList.add('shown');
      b.textContent = move;
      b.title = 'Show the line up to here (Esc hides it); double-click to play it';
      const show = () => previewLine(line.pv, line.multipv, i + 1);
      b.addEventListener('focus', show);
      b.addEventListener('click', show);
      b.addEventListener('dblclick', () => playLine(line.pv.slice(0, i + 1)));
      li.appendChild(b);
    });
    list.appendChild(li);
  }
}

async function previewLine(pv, rank, upto) {
  const moves = pv.slice(0, upto).join('');
  try {
    const response = await fetch(`${sessionPath('picture')}?pv=${encodeURIComponent(moves)}`);
    if (!response.ok) return;
    const svg = await response.text();
    S.preview = { line: rank, upto, svg };
    renderBoard();
    for (const b of document.querySelectorAll('.line-move.shown')) b.classList.remove('shown');
    const li = document.querySelector(`#t-lines li[data-rank="${rank}"]`);
    if (li) { const b = li.querySelectorAll('.line-move')[upto - 1]; if (b) b.classList.add('shown'); }
  } catch (e) { /* the picture is a nicety */ }
}

function clearPreview() {
  if (!S.preview) return;
  S.preview = null;
  renderBoard();
  for (const b of document.querySelectorAll('.line-move.shown')) b.classList.remove('shown');
}

async function playLine(moves) {
  S.preview = null;
  const wasAnalysing = S.analysing;
  S.analysing = false;
  for (const m of moves) {
    if (!(await act('move', { point: m }))) break;
  }
  if (wasAnalysing) startAnalysis();
}

function renderButtons() {
  const st = S.state;
  if (!st) return;
  const job = st.job;
  $('move-now').hidden = !(job && job.kind === 'move');
  $('stop').disabled = !job && !S.analysing;
  $('analyse').disabled = S.analysing || !!job || !!st.result;
  $('analyse').textContent = S.analysing ? 'Analysing…' : 'Analyse';
  $('take-back').disabled = st.moves.length === 0;
  $('resign').disabled = !!st.end_result || st.moves.length === 0 && human() === 'black';
  $('evaluate').disabled = !!job || st.moves.length === 0;
  const names = `black=${encodeURIComponent(playerName('black'))}&white=${encodeURIComponent(playerName('white'))}`;
  $('save-sgf').href = `${sessionPath('record')}?format=sgf&${names}`;
  $('save-psq').href = `${sessionPath('record')}?format=psq&${names}`;
}

function playerName(colour) {
  if (S.mode !== 'play') return '';
  return colour === human() ? 'You' : 'wuzi';
}

function renderNav() {
  const st = S.state;
  $('nav-pos').textContent = `move ${st.ply} / ${st.moves.length}`;
  $('nav-first').disabled = $('nav-prev').disabled = st.ply === 0;
  $('nav-last').disabled = $('nav-next').disabled = st.ply === st.moves.length;
}

// Black's winning chances after each move, and the moves that lost the most.
function drops(st) {
  const out = [];
  for (let k = 1; k < st.evals.length; k++) {
    const before = st.evals[k - 1];
    const after = st.evals[k];
    if (!before || !after) continue;
    const black = k % 2 === 1;
    const loss = black ? before.black_win - after.black_win : after.black_win - before.black_win;
    if (loss > 0.08) out.push({ ply: k, loss });
  }
  out.sort((a, b) => b.loss - a.loss);
  return out.slice(0, 3);
}

function renderReview() {
  const st = S.state;
  const job = st.job && st.job.kind === 'review' ? st.job : null;
  $('review-progress').textContent = job ? `${job.done} / ${job.total}` : '';
  const graph = $('graph');
  graph.textContent = '';
  const W = 600, H = 180, pad = 12;
  const n = Math.max(st.moves.length, 1);
  const x = (ply) => pad + (ply / n) * (W - 2 * pad);
  const y = (w) => pad + (1 - w) * (H - 2 * pad);
  el('rect', { x: 0, y: 0, width: W, height: H / 2, fill: '#ffffff' }, graph);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, fill: '#e9e4da' }, graph);
  el('line', { x1: pad, x2: W - pad, y1: y(0.5), y2: y(0.5), stroke: '#bbb', 'stroke-dasharray': '4 4' }, graph);
  const pts = [];
  st.evals.forEach((e, ply) => { if (e) pts.push([x(ply), y(e.black_win), ply]); });
  if (pts.length > 1) {
    el('polyline', { points: pts.map((p) => `${p[0]},${p[1]}`).join(' '), fill: 'none', stroke: '#222', 'stroke-width': 2, class: 'eval-line' }, graph);
  }
  for (const [px, py, ply] of pts) el('circle', { cx: px, cy: py, r: 2.5, fill: '#222', class: 'eval-point', 'data-ply': ply }, graph);
  const worst = drops(st);
  for (const d of worst) {
    const e = st.evals[d.ply];
    el('circle', { cx: x(d.ply), cy: y(e.black_win), r: 7, fill: 'none', stroke: '#d32f2f', 'stroke-width': 2.5, class: 'drop', 'data-ply': d.ply }, graph);
  }
  el('line', { x1: x(st.ply), x2: x(st.ply), y1: 0, y2: H, stroke: '#1e63c4', 'stroke-width': 2, class: 'graph-cursor' }, graph);
  const list = $('moves');
  list.textContent = '';
  const dropPlies = new Set(worst.map((d) => d.ply));
  st.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.textContent = `${i + 1}. ${m}`;
    if (i + 1 === st.ply) b.classList.add('current');
    if (dropPlies.has(i + 1)) { b.classList.add('drop'); b.title = 'this move lost the most'; }
    b.addEventListener('click', () => goto(i + 1));
    li.appendChild(b);
    list.appendChild(li);
  });
}

// ---- what the user does ---------------------------------------------------------------

function canClick() {
  const st = S.state;
  if (!st || st.result) return false;
  if (S.mode === 'review') return false;
  if (S.mode === 'play') return !(st.job && st.job.kind === 'move') && st.to_move === human();
  return true;
}

async function playAt(p) {
  const st = S.state;
  if (!st) return;
  if (!canClick()) {
    if (S.mode === 'play' && st.job) showMessage('wuzi is thinking; "Move now" hurries it.');
    return;
  }
  clearPreview();
  await act('move', { point: pointName(p.x, p.y) });
}

function eventPoint(event) {
  const svg = $('board').querySelector('svg');
  if (!svg || !S.state) return null;
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  const g = S.state.geometry;
  const x = Math.round((at.x - g.margin) / g.cell);
  const y = Math.round((at.y - g.margin) / g.cell);
  if (x < 0 || y < 0 || x >= S.state.width || y >= S.state.height) return null;
  return { x, y };
}

async function goto(ply) {
  if (!S.state) return;
  const target = Math.max(0, Math.min(ply, S.state.moves.length));
  if (target !== S.state.ply) await act('goto', { ply: target });
}

async function newGame() {
  engineAsked = null;
  S.info = null;
  S.analysing = false;
  const state = await act('new', { rule: $('rule').value, size: sizeValue() });
  if (state) {
    history.replaceState(null, '', location.pathname);
    if (S.mode === 'play') maybeEngineMove();
  }
}

function sizeValue() {
  const v = $('size').value;
  return v === 'other' ? $('size-other').value.trim() : v;
}

async function takeBack() {
  const st = S.state;
  if (!st || st.moves.length === 0) return;
  let n = 1;
  if (S.mode === 'play' && !(st.job && st.job.kind === 'move') && st.to_move === human()) n = 2;
  n = Math.min(n, st.moves.length);
  engineAsked = null;
  const result = await act('undo', { count: n });
  if (result && S.mode === 'play') {
    engineAsked = null;
    maybeEngineMove();
  }
}

async function loadText(text) {
  if (!text.trim()) { showMessage('Paste a move list, an SGF or a PSQ record first.'); return; }
  S.analysing = false;
  engineAsked = null;
  const state = await act('load', { text, rule: $('rule').value, size: sizeValue() });
  if (state) {
    syncSettings(state);
    if (S.mode === 'play') setMode('analyse');
  }
}

function syncSettings(state) {
  $('rule').value = state.rule;
  const square = state.width === state.height;
  const known = square && ['15', '19', '20'].includes(String(state.width));
  $('size').value = known ? String(state.width) : 'other';
  $('size-other').value = square ? String(state.width) : `${state.width}x${state.height}`;
  $('size-other-label').hidden = known;
}

function shareLink() {
  const st = S.state;
  const params = new URLSearchParams({ rule: st.rule, size: st.width === st.height ? String(st.width) : `${st.width}x${st.height}`, moves: st.moves.join(''), ply: String(st.ply) });
  const url = `${location.origin}${location.pathname}#${params}`;
  const field = $('share-url');
  field.hidden = false;
  field.value = url;
  field.select();
  if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => showMessage('Link copied.'), () => {});
  history.replaceState(null, '', url);
}

async function openShared() {
  if (!location.hash || location.hash.length < 2) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const moves = params.get('moves');
  if (moves === null) return;
  const body = { text: moves || ' ', rule: params.get('rule') || 'freestyle', size: params.get('size') || '15' };
  if (!moves) {
    await act('new', { rule: body.rule, size: body.size });
  } else {
    const state = await act('load', body);
    if (!state) return;
  }
  syncSettings(S.state);
  const ply = Number(params.get('ply'));
  if (Number.isInteger(ply) && ply >= 0 && ply < S.state.moves.length) await goto(ply);
  setMode('analyse');
}

function setMode(mode) {
  S.mode = mode;
  for (const b of document.querySelectorAll('#tabs button')) b.setAttribute('aria-selected', String(b.dataset.mode === mode));
  for (const p of document.querySelectorAll('.mode-panel')) p.hidden = p.dataset.panel !== mode;
  if (mode !== 'analyse' && S.analysing) stopAnalysis();
  localStorage.setItem('wuzi-mode', mode);
  if (S.state) render();
  if (mode === 'play') maybeEngineMove();
}

function saveSettings() {
  const keep = {};
  for (const id of ['rule', 'size', 'size-other', 'colour', 'time', 'depth', 'threads', 'level', 'lines', 'review-time']) keep[id] = $(id).value;
  keep.numbers = $('numbers').checked;
  localStorage.setItem('wuzi-settings', JSON.stringify(keep));
}

function loadSettings() {
  let keep = {};
  try { keep = JSON.parse(localStorage.getItem('wuzi-settings') || '{}'); } catch (e) { keep = {}; }
  for (const [id, v] of Object.entries(keep)) {
    if (id === 'numbers') $('numbers').checked = !!v;
    else if ($(id)) $(id).value = v;
  }
  $('size-other-label').hidden = $('size').value !== 'other';
}

function bind() {
  const board = $('board');
  board.addEventListener('pointerup', (e) => {
    if (e.button !== 0) return;
    const p = eventPoint(e);
    if (p) { S.cursor = null; playAt(p); }
  });
  board.addEventListener('pointermove', (e) => {
    if (e.pointerType !== 'mouse') return;
    const p = eventPoint(e);
    const same = p && S.hover && p.x === S.hover.x && p.y === S.hover.y;
    if (!same) { S.hover = p; renderBoard(); }
  });
  board.addEventListener('pointerleave', () => { S.hover = null; renderBoard(); });
  board.addEventListener('keydown', (e) => {
    if (!S.state) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      const c = S.cursor || { x: Math.floor(S.state.width / 2), y: Math.floor(S.state.height / 2) };
      const [dx, dy] = moves[e.key];
      S.cursor = { x: Math.max(0, Math.min(S.state.width - 1, c.x + dx)), y: Math.max(0, Math.min(S.state.height - 1, c.y + dy)) };
      renderBoard();
      e.preventDefault();
      e.stopPropagation();
    } else if ((e.key === 'Enter' || e.key === ' ') && S.cursor) {
      playAt(S.cursor);
      e.preventDefault();
      e.stopPropagation();
    }
  });
  board.addEventListener('blur', () => { S.cursor = null; renderBoard(); });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !S.state) return;
    const st = S.state;
    const keys = {
      ArrowLeft: () => goto(st.ply - 1), ArrowRight: () => goto(st.ply + 1),
      Home: () => goto(0), End: () => goto(st.moves.length),
      u: takeBack, n: newGame, a: () => { if (S.mode !== 'analyse') setMode('analyse'); startAnalysis(); },
      Escape: () => { clearPreview(); if (S.analysing) stopAnalysis(); else if (st.job) act('stop'); },
    };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => setMode(b.dataset.mode));
  $('nav-first').addEventListener('click', () => goto(0));
  $('nav-prev').addEventListener('click', () => goto(S.state.ply - 1));
  $('nav-next').addEventListener('click', () => goto(S.state.ply + 1));
  $('nav-last').addEventListener('click', () => goto(S.state.moves.length));
  $('numbers').addEventListener('change', () => { saveSettings(); renderBoard(); });
  $('new-game').addEventListener('click', newGame);
  $('new-board').addEventListener('click', newGame);
  $('take-back').addEventListener('click', takeBack);
  $('resign').addEventListener('click', () => act('resign', { color: human() }));
  $('move-now').addEventListener('click', () => act('stop'));
  $('move-now').hidden = true;
  $('analyse').addEventListener('click', startAnalysis);
  $('stop').addEventListener('click', stopAnalysis);
  $('lines').addEventListener('change', () => { saveSettings(); if (S.analysing) startAnalysis(); });
  $('load').addEventListener('click', () => loadText($('paste').value));
  $('file').addEventListener('change', async () => {
    const file = $('file').files[0];
    if (!file) return;
    if (file.size > 200000) { showMessage('That file is too large for a game record.'); return; }
    await loadText(await file.text());
    $('file').value = '';
  });
  $('share').addEventListener('click', shareLink);
  $('evaluate').addEventListener('click', () => act('review', { time_ms: Number($('review-time').value), threads: Number($('threads').value) || 1 }));
  $('graph').addEventListener('pointerup', (e) => {
    const graph = $('graph');
    const m = graph.getScreenCTM();
    if (!m || !S.state) return;
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const n = Math.max(S.state.moves.length, 1);
    goto(Math.round(((at.x - 12) / (600 - 24)) * n));
  });
  $('size').addEventListener('change', () => { $('size-other-label').hidden = $('size').value !== 'other'; });
  for (const id of ['rule', 'size', 'size-other', 'colour', 'time', 'depth', 'threads', 'level', 'review-time']) {
    $(id).addEventListener('change', saveSettings);
  }
  $('colour').addEventListener('change', () => { if (S.state) render(); if (S.mode === 'play') maybeEngineMove(); });
  // A level put right after a refusal lets the engine move.
  $('level').addEventListener('change', () => { if (S.mode === 'play') maybeEngineMove(); });
}

async function start() {
  loadSettings();
  bind();
  try {
    const status = await api('/api/status');
    S.maxThreads = status.max_threads;
    $('threads').max = String(status.max_threads);
    $('threads').title = `1 to ${status.max_threads}`;
  } catch (e) { /* the defaults do */ }
  const mode = localStorage.getItem('wuzi-mode');
  setMode(['play', 'analyse', 'review'].includes(mode) ? mode : 'play');
  await openSession(false);
  await openShared();
  document.body.dataset.ready = '1';
}

start();
