// The gda-streams dashboard: starts from /api/history (the process's last minutes of samples), polls /api/summary
// (the counters and gauges, the model) and draws the last WINDOW_MINUTES of samples as SVG line charts; draws /api/regions (the scorer's predicted class per grid cell, the
// other features marginalised) on a canvas. Plain JavaScript, no library: the samples stay in this page only.
'use strict';
const POLL_MS = 2000;
const WINDOW_MINUTES = 5;
const MAX_SAMPLES = WINDOW_MINUTES * 60000 / POLL_MS + 1;
// The plot command's palette (Tableau 10), by the class's position in the model; regions are a light tint of it.
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22',
  '#17becf'];
const TINT = 0.28;
const samples = [];
let classOrder = [];
let regionsKey = '';

// When the process asks for a bearer token (gda.http.token), the data routes answer 401: ask the user once, keep the
// token in this tab's sessionStorage only (gone when the tab closes) and send it as the Authorization header.
async function api(path) {
  const token = sessionStorage.getItem('gda.http.token');
  const r = await fetch(path, {cache: 'no-store', headers: token ? {Authorization: 'Bearer ' + token} : {}});
  if (r.status !== 401) return r;
  sessionStorage.removeItem('gda.http.token');
  const entered = window.prompt(token ? 'Wrong token; bearer token (gda.http.token):' : 'Bearer token (gda.http.token):');
  if (!entered) return r;
  sessionStorage.setItem('gda.http.token', entered.trim());
  return api(path);
}

const $ = id => document.getElementById(id);
const fmt = (v, digits) => v == null || Number.isNaN(v) ? '–'
  : Number(v).toLocaleString('en', {maximumFractionDigits: digits ?? 0});
const classIndex = label => Math.max(0, classOrder.indexOf(label));
const colour = label => COLOURS[classIndex(label) % COLOURS.length];
// Class k >= 10 reuses colour k mod 10 (as in the plot command): its mean and swatch take the shape of its ten
// (circles, squares, diamonds, triangles up, down) and a line parts two regions of one colour where they meet.
const SHAPES = ['circle', 'square', 'diamond', 'up', 'down'];
const shape = label => SHAPES[Math.floor(classIndex(label) / COLOURS.length) % SHAPES.length];
const SWATCH = {circle: 'border-radius:50%', square: 'border-radius:0',
  diamond: 'clip-path:polygon(50% 0,100% 50%,50% 100%,0 50%)', up: 'clip-path:polygon(50% 0,100% 100%,0 100%)',
  down: 'clip-path:polygon(0 0,100% 0,50% 100%)'};
const swatch = label => `<span class="swatch" style="background:${colour(label)};${SWATCH[shape(label)]}"></span>`;
function marker(c, x, y, r, kind) {
  c.beginPath();
  if (kind === 'circle') c.arc(x, y, r, 0, 2 * Math.PI);
  else if (kind === 'square') c.rect(x - 0.85 * r, y - 0.85 * r, 1.7 * r, 1.7 * r);
  else if (kind === 'diamond') {
    c.moveTo(x, y - 1.2 * r); c.lineTo(x + 1.2 * r, y); c.lineTo(x, y + 1.2 * r); c.lineTo(x - 1.2 * r, y);
  } else {
    const s = kind === 'up' ? 1 : -1;
    c.moveTo(x, y - 1.2 * s * r); c.lineTo(x + 1.1 * r, y + 0.8 * s * r); c.lineTo(x - 1.1 * r, y + 0.8 * s * r);
  }
  c.closePath();
}
// Where a cell and its right or lower neighbour hold two classes of one colour, their shared edge in that colour.
function sameColourEdges(g) {
  const edges = [];
  for (let row = 0; row < g.rows; row++) {
    for (let col = 0; col < g.columns; col++) {
      const here = g.labels[g.cells[row][col]];
      const next = [[row, col + 1, col + 1, row, col + 1, row + 1], [row + 1, col, col, row + 1, col + 1, row + 1]];
      for (const [r, k, x0, y0, x1, y1] of next) {
        if (r >= g.rows || k >= g.columns) continue;
        const there = g.labels[g.cells[r][k]];
        if (there !== here && colour(there) === colour(here)) edges.push({colour: colour(here), x0, y0, x1, y1});
      }
    }
  }
  return edges;
}
function tint(hex) {
  const n = parseInt(hex.slice(1), 16);
  const mix = c => Math.round(255 - TINT * (255 - c));
  return `rgb(${mix(n >> 16)},${mix((n >> 8) & 255)},${mix(n & 255)})`;
}
const sum = o => Object.values(o).reduce((a, b) => a + b, 0);
function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
}

// Rates between consecutive samples: (Δ counter) / (Δ seconds).
function series(name) {
  const out = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1], b = samples[i], dt = (b.time - a.time) / 1000;
    if (dt <= 0) continue;
    const m0 = a.metrics, m1 = b.metrics;
    let v;
    if (name === 'answered') v = (sum(m1.predictions) - sum(m0.predictions)) / dt;
    else if (name === 'applied') v = (m1.eventsApplied - m0.eventsApplied) / dt;
    else if (name === 'dead') v = (sum(m1.deadLetters) - sum(m0.deadLetters)) / dt;
    else if (name === 'latency') {
      const n = m1.latencyCount - m0.latencyCount;
      v = n > 0 ? 1000 * (m1.latencySumSeconds - m0.latencySumSeconds) / n : null;
    } else if (name === 'pending') v = m1.pendingEvents;
    else if (name === 'version') v = b.model ? b.model.version : null;
    else if (name === 'age') v = b.model ? b.model.ageSeconds : null;
    out.push([b.time, v]);
  }
  return out;
}

function lineChart(title, points, unit) {
  const w = Math.max(300, $('charts').clientWidth), h = 118, left = 44, right = 8, top = 6, bottom = 18;
  const now = samples.length ? samples[samples.length - 1].time : Date.now();
  const t0 = now - WINDOW_MINUTES * 60000;
  const values = points.filter(p => p[1] != null).map(p => p[1]);
  const highest = Math.max(0, ...values);
  const max = highest > 0 ? highest * 1.1 : 1.1; // an all-zero series still gets a 0 … 1 scale
  const px = t => left + (t - t0) / (now - t0) * (w - left - right);
  const py = v => top + (1 - v / max) * (h - top - bottom);
  let path = '', pen = 'M';
  for (const [t, v] of points) {
    if (v == null) { pen = 'M'; continue; }
    path += `${pen}${px(t).toFixed(1)},${py(v).toFixed(1)} `;
    pen = 'L';
  }
  let grid = '';
  for (const f of [0, 0.5, 1]) {
    const v = max / 1.1 * f, y = py(v);
    grid += `<line x1="${left}" x2="${w - right}" y1="${y}" y2="${y}" stroke="#eee"/>`
      + `<text x="${left - 4}" y="${y + 3}" text-anchor="end">${fmt(v, v < 10 ? 2 : 0)}</text>`;
  }
  for (let m = 0; m <= WINDOW_MINUTES; m++) {
    const x = px(now - m * 60000);
    grid += `<text x="${x}" y="${h - 4}" text-anchor="middle">${m ? '−' + m + ' min' : 'now'}</text>`;
  }
  const last = values.length ? values[values.length - 1] : null;
  return `<div class="chart"><div class="t"><span>${title}</span><b>${fmt(last, 2)} ${unit}</b></div>`
    + `<svg width="${w}" height="${h}">${grid}<path d="${path}" fill="none" stroke="#1f77b4" stroke-width="1.6"/>`
    + '</svg></div>';
}

function render(s) {
  const m = s.model;
  $('title').textContent = `${s.role} · model '${s.modelId}'`
    + (m ? ` · version ${m.version} · published ${fmt(m.ageSeconds, 1)} s ago` : ' · no model yet');
  // Why /health/ready says 503: starting, rebalancing, no model in force, or a model that scores nothing.
  $('notReady').textContent = s.notReady ? 'not ready: ' + s.notReady : '';
  if (m) {
    classOrder = m.classes.map(c => c.label);
    const maxCount = Math.max(...m.classes.map(c => c.count), 1);
    $('model').innerHTML = `<table><tr><th>class</th><th class="n">count</th><th class="n">prior</th><th></th></tr>`
      + m.classes.map(c => `<tr><td>${swatch(c.label)}${escapeHtml(c.label)}</td>`
        + `<td class="n">${fmt(c.count)}</td><td class="n">${fmt(c.prior, 3)}</td>`
        + `<td style="width:35%"><div class="bar" style="width:${100 * c.count / maxCount}%;background:`
        + `${colour(c.label)}"></div></td></tr>`).join('')
      + `<tr><td><b>total</b></td><td class="n"><b>${fmt(m.totalCount)}</b></td><td></td><td></td></tr></table>`
      + `<p class="note">version ${m.version}, published ${escapeHtml(m.updatedAt)}<br>`
      + `features: ${m.features.map(escapeHtml).join(', ')}</p>`;
    features(m.features);
  }
  const x = s.metrics;
  const tiles = s.role === 'scoring'
    ? [['scored', x.predictions.scored], ['unscored', x.predictions.unscored], ['dead letters', sum(x.deadLetters)],
      ['pending', x.pendingEvents],
      ['mean latency ms, all', x.latencyCount ? 1000 * x.latencySumSeconds / x.latencyCount : null],
      ['model age s', m ? m.ageSeconds : null]]
    : [['events applied', x.eventsApplied], ['dead letters', sum(x.deadLetters)],
      ['model version', m ? m.version : null], ['model age s', m ? m.ageSeconds : null]];
  $('tiles').innerHTML = tiles.map(([k, v]) => `<div class="tile"><div class="v">${fmt(v, 1)}</div>`
    + `<div class="k">${k}</div></div>`).join('')
    + Object.entries(x.deadLetters).filter(([, n]) => n > 0)
      .map(([r, n]) => `<div class="tile"><div class="v">${fmt(n)}</div><div class="k">dead: ${escapeHtml(r)}</div></div>`)
      .join('');
  const charts = s.role === 'scoring'
    ? [['events answered', 'answered', '/s'], ['mean scoring latency', 'latency', 'ms'],
      ['dead letters', 'dead', '/s'], ['pending events', 'pending', ''], ['model age', 'age', 's']]
    : [['events applied', 'applied', '/s'], ['dead letters', 'dead', '/s'], ['model version', 'version', ''],
      ['model age', 'age', 's']];
  $('charts').innerHTML = charts.map(([t, n, u]) => lineChart(t, series(n), u)).join('');
  $('window').textContent = WINDOW_MINUTES;
  if (m) regions(m.version);
}

function features(list) {
  const xs = $('x'), ys = $('y');
  if (xs.options.length === list.length) return;
  for (const sel of [xs, ys]) sel.innerHTML = list.map(f => `<option>${escapeHtml(f)}</option>`).join('');
  const params = new URLSearchParams(location.search);
  xs.value = list.includes(params.get('x')) ? params.get('x') : list[list.length > 3 ? 2 : 0];
  ys.value = list.includes(params.get('y')) ? params.get('y') : list[list.length > 3 ? 3 : 1];
  for (const sel of [xs, ys]) sel.onchange = () => { regionsKey = ''; poll(); };
}

async function regions(version) {
  const x = $('x').value, y = $('y').value, key = `${version}|${x}|${y}`;
  if (key === regionsKey) return;
  regionsKey = key;
  const note = $('regions-note');
  if (x === y) { note.textContent = 'choose two different features'; return; }
  const r = await api(`/api/regions?x=${encodeURIComponent(x)}&y=${encodeURIComponent(y)}`);
  const g = await r.json();
  if (!r.ok) { note.textContent = g.error; return; }
  const c = $('plane').getContext('2d');
  const W = c.canvas.width, H = c.canvas.height, left = 44, bottom = 30, pw = W - left - 6, ph = H - bottom - 6;
  c.clearRect(0, 0, W, H);
  const cw = pw / g.columns, ch = ph / g.rows;
  for (let row = 0; row < g.rows; row++) {
    for (let col = 0; col < g.columns; col++) {
      c.fillStyle = tint(colour(g.labels[g.cells[row][col]]));
      c.fillRect(left + col * cw, 6 + row * ch, Math.ceil(cw), Math.ceil(ch));
    }
  }
  c.lineWidth = 1;
  for (const e of sameColourEdges(g)) {
    c.strokeStyle = e.colour;
    c.beginPath(); c.moveTo(left + e.x0 * cw, 6 + e.y0 * ch); c.lineTo(left + e.x1 * cw, 6 + e.y1 * ch); c.stroke();
  }
  const sx = v => left + (v - g.xMin) / (g.xMax - g.xMin) * pw;
  const sy = v => 6 + (g.yMax - v) / (g.yMax - g.yMin) * ph;
  c.font = '11px system-ui, sans-serif';
  for (const mean of g.means) {
    c.fillStyle = colour(mean.label);
    marker(c, sx(mean.x), sy(mean.y), 6, shape(mean.label)); c.fill();
    c.strokeStyle = '#fff'; c.lineWidth = 2; c.stroke();
    c.fillStyle = '#222'; c.fillText(mean.label, sx(mean.x) + 9, sy(mean.y) + 4);
  }
  c.fillStyle = '#667';
  for (let i = 0; i <= 4; i++) {
    const vx = g.xMin + i / 4 * (g.xMax - g.xMin), vy = g.yMin + i / 4 * (g.yMax - g.yMin);
    c.textAlign = 'center'; c.fillText(vx.toFixed(2), sx(vx), H - 16);
    c.textAlign = 'right'; c.fillText(vy.toFixed(2), left - 4, sy(vy) + 4);
  }
  c.textAlign = 'center'; c.fillText(g.x, left + pw / 2, H - 3);
  c.save(); c.translate(11, 6 + ph / 2); c.rotate(-Math.PI / 2); c.fillText(g.y, 0, 0); c.restore();
  c.textAlign = 'left';
  note.textContent = `model v${g.version}, ${g.covariance} covariance; ${g.columns}×${g.rows} cells, each the class `
    + `predicted at its centre; markers: class means`
    + (g.marginalised.length ? `; ${g.marginalised.join(', ')} marginalised` : '');
}

async function poll() {
  try {
    const r = await api('/api/summary');
    const s = await r.json();
    if (!r.ok) { $('error').textContent = s.error; return; }
    // A rate over less than half a poll interval says little: such a sample updates the figures, not the charts.
    if (!samples.length || s.time - samples[samples.length - 1].time >= POLL_MS / 2) samples.push(s);
    while (samples.length > MAX_SAMPLES) samples.shift();
    $('error').textContent = '';
    render(s);
  } catch (e) {
    $('error').textContent = 'not reachable: ' + e;
  }
}
async function start() {
  try {
    const r = await api('/api/history');
    if (r.ok) samples.push(...await r.json());
  } catch (e) {
    // no history: the charts start from this page's own polls
  }
  await poll();
  setInterval(poll, POLL_MS);
}
start();
