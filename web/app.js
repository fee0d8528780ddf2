// The playground page. It computes nothing itself: every answer, picture and explanation comes
// from the WebAssembly build of the library (crates/cute-wasm over crates/cute-ops). The requests
// of a view are made in a worker (worker.js, core.js), so the page stays responsive however large
// the layout; this file builds the inputs, shows the answers, fits the pictures to their frame
// (zoom and pan), and reads the pictures' cells for hovering. A thread's values are listed from
// its thread-value layouts (core.js `threadValues`), not from a picture.
import init, { answer, view, ops as opsJson } from './pkg/cute_wasm.js';
import { makeApi, argText, tvParts } from './core.js';
import { styles, MIN_LABEL_PX } from './raster.js';

const $ = (id) => document.getElementById(id);

let api = null;

// ---------------------------------------------------------------------------------------------
// The worker
// ---------------------------------------------------------------------------------------------

/** The compiled module, handed to every worker started. */
let wasmModule = null;
let worker = null;
const pending = new Map();
let nextId = 1;
/** When the request the worker is answering now was sent (null when it is idle). */
let busySince = null;

/** Starts a worker (again, after one was stopped): the module compiled once is handed over. */
function startWorker() {
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (e) => {
    const m = e.data;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) busySince = null;
    p(m);
  };
  worker.onerror = (e) => {
    setResult({ error: `the worker failed: ${e.message || e}`, kind: 'Internal' });
  };
  if (wasmModule) worker.postMessage({ type: 'init', module: wasmModule });
}
startWorker();

/** Sends `msg` to the worker; resolves with its answer ({stopped: true} if it was stopped). */
function ask(msg, transfer) {
  const id = nextId++;
  if (pending.size === 0) busySince = performance.now();
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ ...msg, id }, transfer || []);
  });
}

/** A request that has kept the worker busy past this many milliseconds is given up when a
 * newer one comes (the worker is stopped and started again), so a large layout typed
 * keystroke by keystroke never queues its answers. */
const STOP_AFTER_MS = 250;

/** How many times a worker was stopped. */
let stops = 0;

function stopIfStale() {
  if (busySince === null || performance.now() - busySince < STOP_AFTER_MS) return false;
  stops += 1;
  worker.terminate();
  for (const resolve of pending.values()) resolve({ stopped: true });
  pending.clear();
  busySince = null;
  startWorker();
  return true;
}

// ---------------------------------------------------------------------------------------------
// Tabs and their inputs
// ---------------------------------------------------------------------------------------------

const TABS = [
  { id: 'layout', label: 'Layout', about: 'A layout, a composed layout Sw<B,M,S> o OFF o L, or a swizzle: its print_layout table and picture.' },
  { id: 'operation', label: 'Operations', about: '' },
  { id: 'tv', label: 'Thread-value', about: 'A thread-value layout (thread, value) -> tile index on a tile: click a thread to see its values.' },
  { id: 'checks', label: 'Kernel checks', about: 'A thread-value layout against a shared and a global layout: wavefronts and bank conflicts of its accesses (the smem_evaluate model), the sectors and lines its first warp touches, vector widths, the TMA box and tensor-map arguments.' },
  { id: 'banks', label: 'Bank conflicts', about: 'Shared-memory banks of a layout for an element size, request by request (wavefronts).' },
  { id: 'swizzle', label: 'Swizzle', about: 'A layout before and after a swizzle Sw<B,M,S> (composition(Sw, L)).' },
  { id: 'atoms', label: 'Atoms / tiled', about: 'MMA and copy atoms, TiledMMA and TiledCopy, from the library\'s operation table.' },
];

const FIELDS = {
  layout: [{ label: 'layout' }],
  tv: [{ label: 'TV layout (thread, value) -> index' }, { label: 'tile shape' }],
  checks: [
    { label: 'TV layout (thread, value) -> tile index' },
    { label: 'tile shape' },
    { label: 'element size (bytes)', options: ['1', '2', '4', '8', '16'] },
    { label: 'shared layout (tile index -> element), or Sw<B,M,S> o 0 o L' },
    { label: 'global layout (tile coordinate -> element)' },
  ],
  banks: [
    { label: 'layout (element offsets)' },
    { label: 'banks' },
    { label: 'element size (bytes)', options: ['1', '2', '4', '8', '16'] },
    { label: 'access: rows, columns or a chunk size N' },
  ],
  swizzle: [{ label: 'swizzle Sw<B,M,S>' }, { label: 'layout' }],
};

const DEFAULTS = {
  layout: { op: 'show', args: ['(2,(2,2)):(4,(2,1))'] },
  operation: { op: 'composition', args: ['(6,2):(8,2)', '(4,3):(3,1)'] },
  tv: { op: 'tv', args: ['((4,8),(2,2)):((16,1),(8,64))', '(16,8)'] },
  checks: { op: 'checks', args: ['((4,8),(2,2)):((16,1),(8,64))', '(16,8)', '2', 'Sw<1,2,3> o 0 o (16,8):(8,1)', '(16,8):(1,16)'] },
  banks: { op: 'banks', args: ['(8,32):(32,1)', '32', '4', 'columns'] },
  swizzle: { op: 'composition', args: ['Sw<3,0,3>', '(8,8):(8,1)'] },
  atoms: { op: 'mma_atom', args: ['SM80_16x8x16_F32F16F16F32_TN', 'thr_id'] },
};

/** What each kind of argument is, for the explanation under each input. */
const KIND_ABOUT = {
  Int: 'an integer, 16',
  Tuple: 'an integer or a nested tuple, (2,(3,4))',
  Shape: 'a shape: positive integers in a (nested) tuple, (4,(2,2))',
  Stride: 'a stride tuple, (1,(4,12)), or basis strides (1@0,1@1)',
  Coord: 'a coordinate, (1,2); _ keeps a mode: (_,1)',
  Profile: 'a profile: a tuple whose leaves do not matter, (_,(_,_))',
  Layout: 'a layout SHAPE:STRIDE, (4,2):(2,1)',
  Basis: 'a basis element v@i, 1@0',
  F2Layout: 'a layout with F2 (XOR) strides, (8,8):(F2(1),F2(9))',
  Symbolic: 'a layout with symbols, (4,N):(1,4)',
  Swizzle: 'a swizzle Sw<B,M,S>',
  Composed: 'a composed layout OUTER o OFFSET o INNER, Sw<3,4,3> o 0 o (8,64):(64,1)',
  Tensor: 'a tensor, counting_iter(0) o (4,4):(4,1)',
  Pointer: 'a pointer, smem_ptr[16b](0x0)',
  Tiler: 'a tiler: an integer, _, a layout, or a tuple of them, (2,4)',
  Type: 'an element type, half_t',
  Atom: 'an atom name, SM80_16x8x16_F32F16F16F32_TN',
  Field: 'a field name, layout_c_tv',
  Name: 'a name',
  Op: 'an operation name, coalesce',
  Binding: 'a symbol value NAME=VALUE, N=4',
  Underscore: 'the placeholder _',
  Values: 'integers separated by commas, 0,2,4,7',
  Tag: 'the word itself',
  Option: 'an option and its value, --palette red',
  Text: 'free text',
  Bool: '1 or 0',
};

const ATOM_TOPIC = 'atoms';

let OPS = [];
let atomOps = [];
let state = { tab: 'layout', op: 'show', args: DEFAULTS.layout.args, mode: 'index' };

function isSwizzleRequest(req) {
  const [a, b] = req.args || [];
  if (req.op !== 'composition' || typeof a !== 'string' || typeof b !== 'string') return false;
  // The kinds come from the library: a swizzle (max_alignment takes it, shape does not) first,
  // a layout second.
  return api.run('shape', [a]).ok === undefined && api.run('max_alignment', [a]).ok !== undefined
    && api.run('shape', [b]).ok !== undefined;
}

function tabFor(req) {
  if (req.op === 'show') return 'layout';
  if (req.op === 'tv') return 'tv';
  if (req.op === 'checks') return 'checks';
  if (req.op === 'banks') return 'banks';
  if (isSwizzleRequest(req)) return 'swizzle';
  if (atomOps.some((o) => o.name === req.op)) return 'atoms';
  return 'operation';
}

function textArg(s) {
  const t = s.trim();
  if (t.startsWith('[')) {
    try {
      return JSON.parse(t);
    } catch (_) {
      return s;
    }
  }
  return s;
}

function buildTabs() {
  const nav = $('tabs');
  nav.textContent = '';
  for (const t of TABS) {
    if (t.id === 'atoms' && atomOps.length === 0) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.id = `tab-${t.id}`;
    b.dataset.tab = t.id;
    b.setAttribute('data-testid', `tab-${t.id}`);
    b.textContent = t.label;
    b.addEventListener('click', () => switchTab(t.id));
    b.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const all = [...nav.querySelectorAll('button')];
      const k = all.indexOf(b) + (e.key === 'ArrowRight' ? 1 : -1);
      const next = all[(k + all.length) % all.length];
      next.focus();
      next.click();
    });
    nav.appendChild(b);
  }
}

function switchTab(id) {
  if (id === state.tab) return;
  const req = DEFAULTS[id];
  setRequest({ op: req.op, args: [...req.args] }, id);
}

function field(label, value, opts, help) {
  const l = document.createElement('label');
  l.textContent = label;
  let input;
  if (opts && opts.options) {
    input = document.createElement('select');
    for (const o of opts.options) {
      const e = document.createElement('option');
      e.value = o;
      e.textContent = o;
      input.appendChild(e);
    }
    if (!opts.options.includes(value) && value !== '') {
      const e = document.createElement('option');
      e.value = value;
      e.textContent = value;
      input.appendChild(e);
    }
  } else {
    input = document.createElement('input');
    input.type = 'text';
    input.spellcheck = false;
  }
  input.value = value;
  input.className = 'arg';
  input.addEventListener('input', onEdit);
  l.appendChild(input);
  if (help) {
    const h = document.createElement('span');
    h.className = 'arg-help';
    h.textContent = help;
    l.appendChild(h);
  }
  return l;
}

/** How many search results are listed under the search box. */
const OP_RESULTS = 8;

/** The operations matching `q` (name first, then summary), best first. */
function searchOps(list, q) {
  const s = q.trim().toLowerCase();
  if (!s) return list;
  const score = (o) => {
    const n = o.name.toLowerCase();
    if (n === s) return 0;
    if (n.startsWith(s)) return 1;
    if (n.split('_').some((w) => w.startsWith(s))) return 2;
    if (n.includes(s)) return 3;
    if (o.summary.toLowerCase().includes(s)) return 4;
    return 9;
  };
  return list.map((o) => [score(o), o]).filter(([k]) => k < 9)
    .sort((a, b) => a[0] - b[0] || a[1].name.localeCompare(b[1].name)).map(([, o]) => o);
}

function chooseOp(name) {
  const spec = OPS.find((o) => o.name === name);
  let args = spec && spec.example.length ? [...spec.example] : null;
  if (!args) {
    const n = spec ? Math.max(spec.min, 1) : 1;
    args = state.args.slice(0, n).map(argText);
    while (args.length < n) args.push('');
  }
  setRequest({ op: name, args }, state.tab);
}

function fillOps(sel, list, current, q) {
  sel.textContent = '';
  const found = searchOps(list, q);
  if (q.trim()) {
    // Search results, best first, under a line that counts them (chosen until one is picked).
    const head = document.createElement('option');
    head.value = '';
    head.disabled = true;
    head.textContent = `${found.length} operations match "${q.trim()}"`;
    sel.appendChild(head);
    for (const o of found) {
      const e = document.createElement('option');
      e.value = o.name;
      e.textContent = o.name;
      e.title = o.summary;
      sel.appendChild(e);
    }
  } else {
    // Grouped by topic, in the table's order.
    const groups = new Map();
    for (const o of found) {
      if (!groups.has(o.topic)) {
        const g = document.createElement('optgroup');
        g.label = o.topic_title;
        groups.set(o.topic, g);
        sel.appendChild(g);
      }
      const e = document.createElement('option');
      e.value = o.name;
      e.textContent = o.name;
      e.title = o.summary;
      groups.get(o.topic).appendChild(e);
    }
  }
  if (q.trim()) {
    sel.value = '';
  } else {
    if (!found.some((o) => o.name === current)) {
      const e = document.createElement('option');
      e.value = current;
      e.textContent = current;
      sel.insertBefore(e, sel.firstChild);
    }
    sel.value = current;
  }
  $('op-count').textContent = q.trim() ? `${found.length} of ${list.length} operations match; Enter picks the first`
    : `${list.length} operations, by topic`;
  // The best matches, each with its summary, a click away.
  const ul = $('op-results');
  ul.textContent = '';
  if (q.trim()) {
    for (const o of found.slice(0, OP_RESULTS)) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = o.name;
      b.addEventListener('click', () => chooseOp(o.name));
      const span = document.createElement('span');
      span.textContent = ` ${o.summary}`;
      li.append(b, span);
      ul.appendChild(li);
    }
  }
}

function opChooser(list, current) {
  const box = document.createElement('div');
  box.className = 'op-chooser';
  const sl = document.createElement('label');
  sl.textContent = 'find an operation';
  const search = document.createElement('input');
  search.type = 'search';
  search.id = 'op-search';
  search.setAttribute('data-testid', 'op-search');
  search.placeholder = 'divide, swizzle, partition ...';
  search.spellcheck = false;
  sl.appendChild(search);
  box.appendChild(sl);
  const l = document.createElement('label');
  l.textContent = 'operation';
  const sel = document.createElement('select');
  sel.id = 'op';
  sel.setAttribute('data-testid', 'op');
  l.appendChild(sel);
  const count = document.createElement('span');
  count.id = 'op-count';
  count.className = 'arg-help';
  sl.appendChild(count);
  const results = document.createElement('ul');
  results.id = 'op-results';
  results.className = 'op-results';
  results.setAttribute('data-testid', 'op-results');
  box.appendChild(results);
  box.appendChild(l);
  // (the count element must be in the document before fillOps writes it)
  queueMicrotask(() => fillOps(sel, list, current, ''));
  search.addEventListener('input', () => fillOps(sel, list, current, search.value));
  search.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const first = searchOps(list, search.value)[0];
    if (first) chooseOp(first.name);
  });
  sel.addEventListener('change', () => {
    if (sel.value) chooseOp(sel.value);
  });
  return box;
}

function kindsText(p) {
  return p.kinds.map((k) => (k.startsWith('Tag:') ? k.slice(4) : (KIND_ABOUT[k] || k))).join('; or ');
}

function buildForm() {
  const form = $('form');
  form.textContent = '';
  const tab = state.tab;
  const t = TABS.find((x) => x.id === tab);
  let about = t ? t.about : '';
  if (tab === 'operation' || tab === 'atoms') {
    const list = tab === 'atoms' ? atomOps : OPS.filter((o) => !atomOps.includes(o));
    form.appendChild(opChooser(list, state.op));
    const spec = OPS.find((o) => o.name === state.op);
    const params = spec ? spec.params : [];
    const n = Math.max(state.args.length, spec ? spec.min : 0);
    for (let k = 0; k < n; k++) {
      const p = params[Math.min(k, params.length - 1)];
      const name = p ? `${p.name} (${p.label})` : `argument ${k + 1}`;
      const help = p ? `${p.arity === 'optional' ? 'optional: ' : ''}${kindsText(p)}` : '';
      form.appendChild(field(`${k + 1}. ${name}`, k < state.args.length ? argText(state.args[k]) : '', null, help));
    }
    if (spec) {
      about = `${spec.name} ${spec.usage}: ${spec.summary}`;
      if (spec.law) about += `\nLaw: ${spec.law}`;
      const row = document.createElement('div');
      row.className = 'row';
      if (spec.example.length) {
        const ex = document.createElement('button');
        ex.type = 'button';
        ex.className = 'small';
        ex.setAttribute('data-testid', 'example');
        ex.textContent = 'example';
        ex.title = `${spec.name} ${spec.example.join(' ')}  ->  ${spec.output}`;
        ex.addEventListener('click', () => setRequest({ op: spec.name, args: [...spec.example] }, tab));
        row.appendChild(ex);
      }
      if (n < spec.max) {
        const add = document.createElement('button');
        add.type = 'button';
        add.className = 'small';
        add.textContent = '+ argument';
        add.addEventListener('click', () => setRequest({ op: state.op, args: [...state.args, ''] }, tab));
        row.appendChild(add);
      }
      if (n > spec.min && n > 0) {
        const del = document.createElement('button');
        del.type = 'button';
        del.className = 'small';
        del.textContent = '- argument';
        del.addEventListener('click', () => setRequest({ op: state.op, args: state.args.slice(0, -1) }, tab));
        row.appendChild(del);
      }
      form.appendChild(row);
    }
  } else {
    const fs = FIELDS[tab];
    const n = Math.max(fs.length, state.args.length);
    for (let k = 0; k < n; k++) {
      const f = fs[Math.min(k, fs.length - 1)];
      form.appendChild(field(f.label, k < state.args.length ? argText(state.args[k]) : '', f));
    }
  }
  $('about').textContent = about;
  for (const b of $('tabs').querySelectorAll('button')) {
    b.setAttribute('aria-selected', String(b.dataset.tab === tab));
    b.tabIndex = b.dataset.tab === tab ? 0 : -1;
  }
}

let editTimer = 0;
function onEdit() {
  clearTimeout(editTimer);
  editTimer = setTimeout(() => {
    const args = [...$('form').querySelectorAll('.arg')].map((i) => textArg(i.value));
    state = { ...state, args, raw: undefined };
    render();
  }, 120);
}

// ---------------------------------------------------------------------------------------------
// The answer
// ---------------------------------------------------------------------------------------------

/** Past this many characters a result is shown cut (a 256x256 table is 1 MB of text, which
 * would take the page's thread longer than a frame to lay out); `show all` shows the rest. */
const RESULT_SHOWN = 60000;

function setResult(r) {
  const ok = r.ok !== undefined;
  const text = ok ? r.ok : '';
  // (a bank report's summary line wraps; tables keep their lines)
  $('result').classList.toggle('wrap', state.tab === 'banks');
  const more = $('result-more');
  if (text.length > RESULT_SHOWN) {
    const lines = text.slice(0, RESULT_SHOWN).split('\n').slice(0, -1);
    $('result').textContent = lines.map((l) => (l.length > 600 ? `${l.slice(0, 600)} ...` : l)).join('\n');
    more.hidden = false;
    more.textContent = `show all (${Math.round(text.length / 1024)} KiB)`;
    more.onclick = () => {
      $('result').textContent = text;
      more.hidden = true;
    };
  } else {
    $('result').textContent = text;
    more.hidden = true;
  }
  $('error').textContent = ok ? '' : r.error;
  $('error-kind').textContent = ok ? '' : r.kind;
  $('error-box').hidden = ok;
}

function setProps(props) {
  const dl = $('props');
  dl.textContent = '';
  for (const [p, v] of props) {
    const d = document.createElement('div');
    d.innerHTML = '<dt></dt><dd></dd>';
    d.firstChild.textContent = p;
    d.lastChild.textContent = v;
    d.lastChild.setAttribute('data-testid', p);
    dl.appendChild(d);
  }
}

function setChecks(checks) {
  const box = $('checks');
  box.textContent = '';
  box.hidden = !checks;
  if (!checks) return;
  for (const c of checks) {
    const d = document.createElement('div');
    d.className = 'check';
    const h = document.createElement('h3');
    h.textContent = c.title;
    const q = document.createElement('code');
    q.textContent = c.request;
    const p = document.createElement('pre');
    p.textContent = c.r.ok !== undefined ? c.r.ok : `${c.r.kind}: ${c.r.error}`;
    if (c.r.ok === undefined) p.className = 'refused';
    d.append(h, q, p);
    box.appendChild(d);
  }
}

let seq = 0;
let progressTimer = 0;

/** The progress line: what is being computed and for how long. */
function progress(text) {
  $('progress').textContent = text;
}

async function render() {
  const req = { op: state.op, args: state.args };
  const line = JSON.stringify(req);
  const hash = `#${encodeURIComponent(state.raw !== undefined ? state.raw : line)}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  const my = ++seq;
  const t0 = performance.now();
  document.documentElement.dataset.busy = 'true';
  clearInterval(progressTimer);
  progress('computing ...');
  progressTimer = setInterval(() => progress(`computing ... ${Math.round(performance.now() - t0)} ms`), 100);
  const snapshot = { ...state };
  const stopped = stopIfStale();
  if (stopped) progress('computing ... (the previous request was given up)');
  const answerMsg = await ask({ type: 'model', state: snapshot });
  if (my !== seq || answerMsg.stopped) return; // a newer request was made meanwhile
  clearInterval(progressTimer);
  const m = answerMsg.model;
  if (!m) {
    setResult({ error: answerMsg.error || 'no answer', kind: 'Internal' });
    progress('');
    document.documentElement.dataset.busy = 'false';
    return;
  }
  $('request').textContent = line;
  document.documentElement.dataset.shown = state.raw !== undefined ? state.raw : line;
  setResult(m.result);
  setProps(m.props);
  setChecks(m.checks);
  // (the thread bar sits above the picture: shown or hidden before the picture is fitted)
  $('tv-selection').textContent = '';
  $('tv-bar').hidden = tvRequest() === null && !/copy/.test(state.op);
  await setPicture(m.picture);
  if (my !== seq) return;
  if ($('tv-bar').hidden === isTvPicture()) {
    $('tv-bar').hidden = !isTvPicture();
    await layoutPictures();
  }
  const box = $('explain-box');
  box.hidden = m.explain === null;
  $('explain').textContent = m.explain || '';
  $('hover').textContent = 'hover a cell for its coordinates and value';
  progress(`answered in ${Math.round(performance.now() - t0)} ms${pictureInfo()}`);
  const t = Number($('tv-thread').value);
  if (!$('tv-bar').hidden && $('tv-thread').value !== '' && Number.isInteger(t)) await selectThread(t);
  document.documentElement.dataset.busy = 'false';
}

function setRequest(req, tab, raw) {
  const to = tab || tabFor(req);
  // (a display mode stays while the tab does)
  state = { tab: to, op: req.op, args: Array.isArray(req.args) ? req.args : [], raw, mode: to === state.tab ? state.mode : undefined };
  buildForm();
  return render();
}

/** The request in the URL fragment, with its text (answered as is), or null if there is none. */
function requestFromHash() {
  if (location.hash.length <= 1) return null;
  let raw;
  try {
    raw = decodeURIComponent(location.hash.slice(1));
  } catch (_) {
    raw = location.hash.slice(1);
  }
  let req = { op: '', args: [] };
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === 'object') req = { op: typeof v.op === 'string' ? v.op : '', args: Array.isArray(v.args) ? v.args : [] };
  } catch (_) {
    // not JSON: `cute batch`'s answer (BadRequest) is shown
  }
  return { req, raw };
}

// ---------------------------------------------------------------------------------------------
// Pictures: fit, zoom and pan; big ones painted by the worker
// ---------------------------------------------------------------------------------------------

/** The pictures on show: {kind: 'svg', el, w, h} or {kind: 'raster', key, w, h, canvas, x0, y0}. */
let items = [];
let zoom = { fit: true, scale: 1 };
/** The source of the picture for export: an SVG element or a raster key. */
let exportable = null;
/** The cell height (CSS pixels) below which an SVG picture's labels are hidden (level of detail). */
const MIN_CELL_PX = 10;

function figure(caption, r) {
  const f = document.createElement('figure');
  const c = document.createElement('figcaption');
  c.textContent = caption;
  f.appendChild(c);
  const d = document.createElement('div');
  d.className = 'fig';
  f.appendChild(d);
  place(d, r);
  return f;
}

/** Puts a picture answer into `holder`: SVG markup, a canvas for a big picture, or the error. */
function place(holder, r) {
  if (r.ok !== undefined) {
    holder.innerHTML = r.ok;
    const el = holder.querySelector('svg');
    if (el) {
      const vb = el.viewBox.baseVal;
      items.push({ kind: 'svg', el, w: vb.width, h: vb.height });
    }
  } else if (r.raster) {
    const canvas = document.createElement('canvas');
    canvas.className = 'raster';
    canvas.setAttribute('data-cells', String(r.raster.cells));
    holder.appendChild(canvas);
    items.push({ kind: 'raster', key: r.raster.key, w: r.raster.width, h: r.raster.height, canvas, x0: 0, y0: 0, legend: r.raster.legend });
  } else {
    holder.textContent = `no picture: ${r.error}`;
  }
}

async function setPicture(p) {
  const pic = $('picture');
  const note = $('picture-note');
  pic.textContent = '';
  note.textContent = p.note || '';
  items = [];
  zoom = { fit: true, scale: 1 };
  if (p.figures) {
    if (p.figures.length > 0) {
      const pair = document.createElement('div');
      pair.className = 'pair';
      for (const f of p.figures) pair.appendChild(figure(f.caption, f.r));
      pic.appendChild(pair);
    }
  } else if (p.single && (p.single.ok !== undefined || p.single.raster)) {
    place(pic, p.single);
  }
  exportable = items.length ? items[items.length - 1] : null;
  $('picture-tools').hidden = items.length === 0;
  buildModes();
  relabel();
  setLegend();
  await layoutPictures();
}

/** The room a picture has: the frame's width, and the viewport's height below its top. */
function room() {
  const pic = $('picture');
  // (the frame's outer width: its scroll bars, present while zoomed in, do not count)
  const w = Math.max(120, pic.offsetWidth - 8);
  const top = pic.getBoundingClientRect().top + window.scrollY;
  const h = Math.max(180, window.innerHeight - top - 56);
  return { w, h };
}

/** The scale that fits every picture in the room (never above 1). */
function fitScale() {
  const { w, h } = room();
  if (items.length === 0) return 1;
  const gaps = 12 * (items.length - 1) + 2 * items.length;
  const caption = items.length > 1 || $('picture').querySelector('figcaption') ? 26 : 0;
  const sw = items.reduce((a, it) => a + it.w, 0);
  const sh = Math.max(...items.map((it) => it.h));
  return Math.min(1, (w - gaps) / sw, (h - caption) / sh);
}

async function layoutPictures() {
  if (items.length === 0) return;
  const s = zoom.fit ? fitScale() : zoom.scale;
  zoom.scale = s;
  const { w: rw, h: rh } = room();
  $('picture').style.maxHeight = `${Math.round(rh + 8)}px`;
  const paints = [];
  for (const it of items) {
    if (it.kind === 'svg') {
      it.el.setAttribute('width', String(Math.max(1, Math.floor(it.w * s))));
      it.el.setAttribute('height', String(Math.max(1, Math.floor(it.h * s))));
      const cell = it.el.querySelector('g.cells rect, rect[data-t]');
      const cellPx = cell ? Number(cell.getAttribute('height')) * s : 99;
      it.el.classList.toggle('lod', cellPx < MIN_CELL_PX);
    } else {
      const cw = Math.max(1, Math.floor(Math.min(it.w * s, rw / items.length)));
      const ch = Math.max(1, Math.floor(Math.min(it.h * s, rh)));
      it.canvas.style.width = `${cw}px`;
      it.canvas.style.height = `${ch}px`;
      it.cw = cw;
      it.ch = ch;
      clampView(it);
      paints.push(paintRaster(it));
    }
  }
  $('zoom-level').textContent = `${Math.round(s * 100)}%${zoom.fit ? ' (fit)' : ''}`;
  await Promise.all(paints);
}

function clampView(it) {
  const s = zoom.scale;
  it.x0 = Math.max(0, Math.min(it.x0, it.w - it.cw / s));
  it.y0 = Math.max(0, Math.min(it.y0, it.h - it.ch / s));
}

/** Asks the worker for the bitmap of a raster picture's view; one request in flight per picture. */
async function paintRaster(it) {
  if (it.busy) {
    it.again = true;
    return;
  }
  it.busy = true;
  const dpr = window.devicePixelRatio || 1;
  const v = { x0: it.x0, y0: it.y0, scale: zoom.scale * dpr, w: Math.round(it.cw * dpr), h: Math.round(it.ch * dpr), dpr };
  const r = await ask({ type: 'paint', key: it.key, view: v });
  it.busy = false;
  if (r.bitmap) {
    it.canvas.width = r.bitmap.width;
    it.canvas.height = r.bitmap.height;
    it.canvas.getContext('bitmaprenderer').transferFromImageBitmap(r.bitmap);
    it.canvas.dataset.painted = 'true';
  }
  if (it.again) {
    it.again = false;
    await paintRaster(it);
  }
}

function pictureInfo() {
  const r = items.find((it) => it.kind === 'raster');
  return r ? ` · picture of ${r.canvas.dataset.cells} cells drawn by the worker (labels below ${MIN_LABEL_PX} px left out)` : '';
}

function setZoom(s, cx, cy) {
  const pic = $('picture');
  const old = zoom.scale;
  const scale = Math.max(0.02, Math.min(8, s));
  zoom = { fit: false, scale };
  // Keep the point under (cx, cy) (frame pixels) where it is.
  const px = cx ?? pic.clientWidth / 2;
  const py = cy ?? pic.clientHeight / 2;
  for (const it of items) {
    if (it.kind === 'raster') {
      const ux = it.x0 + px / old;
      const uy = it.y0 + py / old;
      it.x0 = ux - px / scale;
      it.y0 = uy - py / scale;
    }
  }
  const sx = (pic.scrollLeft + px) / old;
  const sy = (pic.scrollTop + py) / old;
  layoutPictures().then(() => {
    pic.scrollLeft = sx * scale - px;
    pic.scrollTop = sy * scale - py;
  });
}

function wireZoom() {
  const pic = $('picture');
  $('zoom-in').addEventListener('click', () => setZoom(zoom.scale * 1.5));
  $('zoom-out').addEventListener('click', () => setZoom(zoom.scale / 1.5));
  $('zoom-fit').addEventListener('click', () => {
    zoom = { fit: true, scale: 1 };
    for (const it of items) {
      it.x0 = 0;
      it.y0 = 0;
    }
    layoutPictures();
  });
  $('zoom-one').addEventListener('click', () => setZoom(1));
  pic.addEventListener('wheel', (e) => {
    if (!(e.ctrlKey || e.metaKey)) {
      const r = items.find((it) => it.kind === 'raster' && it.canvas.contains(e.target));
      if (!r || zoom.fit) return;
      e.preventDefault();
      r.x0 += e.deltaX / zoom.scale;
      r.y0 += e.deltaY / zoom.scale;
      clampView(r);
      paintRaster(r);
      return;
    }
    e.preventDefault();
    const b = pic.getBoundingClientRect();
    setZoom(zoom.scale * (e.deltaY < 0 ? 1.25 : 0.8), e.clientX - b.left, e.clientY - b.top);
  }, { passive: false });
  // Drag to pan (a click without movement stays a click).
  let drag = null;
  pic.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, sl: pic.scrollLeft, st: pic.scrollTop, moved: false,
      raster: items.find((it) => it.kind === 'raster' && it.canvas === e.target) };
    if (drag.raster) drag.v = [drag.raster.x0, drag.raster.y0];
  });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    drag.moved = true;
    pic.classList.add('panning');
    if (drag.raster) {
      drag.raster.x0 = drag.v[0] - dx / zoom.scale;
      drag.raster.y0 = drag.v[1] - dy / zoom.scale;
      clampView(drag.raster);
      paintRaster(drag.raster);
    } else {
      pic.scrollLeft = drag.sl - dx;
      pic.scrollTop = drag.st - dy;
    }
  });
  window.addEventListener('pointerup', () => {
    if (drag && drag.moved) {
      // swallow the click that ends a drag
      pic.addEventListener('click', (e) => e.stopPropagation(), { capture: true, once: true });
    }
    drag = null;
    pic.classList.remove('panning');
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (zoom.fit) layoutPictures();
    }, 100);
  });
}

// ---------------------------------------------------------------------------------------------
// Display modes, legend, export, theme
// ---------------------------------------------------------------------------------------------

/** The cell label modes the picture on show offers (a big picture painted by the worker
 * keeps the library's labels). */
function modesFor() {
  if (state.tab === 'layout') return ['index', 'coordinate', 'bank'];
  if (items.some((it) => it.kind === 'raster')) return [isTvPicture() ? 'thread/value' : 'index'];
  return isTvPicture() ? ['thread/value', 'index', 'coordinate'] : ['index', 'coordinate'];
}

function buildModes() {
  const sel = $('mode');
  const modes = modesFor();
  if (!modes.includes(state.mode)) state.mode = modes[0];
  sel.textContent = '';
  for (const m of modes) {
    const o = document.createElement('option');
    o.value = m;
    o.textContent = m;
    sel.appendChild(o);
  }
  sel.value = state.mode;
}

/**
 * Relabels the cells of the SVG pictures for the display mode: `index` and `thread/value` keep
 * the library's labels (the layout's value, the cell's (thread, value)), `coordinate` writes
 * each cell's (row, column), `index` on a thread-value picture the tile's 1-D index
 * (row + rows * column) that the layout maps onto; `bank` is the library's bank picture.
 */
function relabel() {
  const mode = state.mode;
  for (const it of items) {
    if (it.kind !== 'svg') continue;
    for (const panel of it.el.querySelectorAll('g.panel')) {
      const cells = panel.querySelector('g.cells');
      const labels = panel.querySelector('g.labels');
      if (!cells || !labels) continue;
      const rects = [...cells.querySelectorAll('rect')];
      const y0 = rects.length ? rects[0].getAttribute('y') : null;
      let cols = rects.findIndex((r) => r.getAttribute('y') !== y0);
      if (cols < 0) cols = rects.length;
      const rows = rects.length / Math.max(cols, 1);
      const tv = labels.children[0] && /^T\d+ V\d+/.test(labels.children[0].dataset.label || labels.children[0].textContent);
      [...labels.children].forEach((t, k) => {
        // (the label's first line; a bank picture's second line, its bank, stays)
        const line = t.firstChild && t.firstChild.nodeType === 3 ? t.firstChild : null;
        const own = t.dataset.label !== undefined ? t.dataset.label : (line ? line.nodeValue : '');
        const m = Math.floor(k / cols);
        const n = k % cols;
        let s = own;
        if (mode === 'coordinate') s = `(${m},${n})`;
        else if (mode === 'index' && tv) s = String(m + rows * n);
        if (s === own && t.dataset.label === undefined) return;
        t.dataset.label = own;
        if (line) line.nodeValue = s;
        else t.insertBefore(document.createTextNode(s), t.firstChild);
      });
    }
  }
}

const LEGEND_LIMIT = 40;

/** The legend of the colours of the main picture: one swatch per colour class it uses. */
function setLegend() {
  const box = $('legend');
  box.textContent = '';
  const it = exportable;
  if (!it) return;
  let css;
  let used;
  if (it.kind === 'svg') {
    css = styles(it.el.querySelector('style') ? it.el.querySelector('style').textContent : '');
    used = new Set([...it.el.querySelectorAll('rect[class]')].map((r) => r.getAttribute('class')));
  } else {
    css = Object.fromEntries(it.legend.map(([c, f]) => [c, { fill: f }]));
    used = new Set(it.legend.map(([c]) => c));
  }
  const meaning = (c) => {
    let m;
    if ((m = /^o(\d+)$/.exec(c))) return `value ≡ ${m[1]}`;
    if ((m = /^t(\d+)$/.exec(c))) return `thread ≡ ${m[1]}`;
    if ((m = /^b(\d+)$/.exec(c))) return `bank ${m[1]}`;
    if ((m = /^r(\d+)$/.exec(c))) return `range ${m[1]}`;
    if (c === 'none') return 'no (thread, value)';
    if (c === 'multi') return 'several (thread, value)';
    return null;
  };
  const entries = [...used].map((c) => [c, meaning(c), css[c] && css[c].fill])
    .filter(([, m, f]) => m && f)
    .sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }));
  const note = it.kind === 'svg' ? it.el.querySelector('text.note') : null;
  const head = document.createElement('span');
  head.className = 'legend-head';
  const kinds = new Set(entries.map(([c]) => c.replace(/\d+$/, '')));
  head.textContent = kinds.has('t') ? 'colour = thread (mod 32):' : kinds.has('b') ? 'colour = bank:'
    : kinds.has('r') ? 'colour = where the value lies in its range:' : kinds.has('o') ? 'colour = value (mod 8):' : '';
  if (note && /colour/.test(note.textContent)) head.textContent = `${note.textContent}:`;
  if (entries.length === 0) return;
  box.appendChild(head);
  for (const [c, m, f] of entries.slice(0, LEGEND_LIMIT)) {
    const s = document.createElement('span');
    s.className = 'swatch';
    const dot = document.createElement('i');
    dot.style.background = f;
    s.append(dot, document.createTextNode(m));
    box.appendChild(s);
  }
  if (entries.length > LEGEND_LIMIT) box.appendChild(document.createTextNode(` ... ${entries.length - LEGEND_LIMIT} more`));
}

const DARK_FILTER = 'invert(1) hue-rotate(180deg)';

function isDark() {
  return document.documentElement.dataset.theme === 'dark';
}

async function svgText() {
  const it = exportable;
  if (!it) return null;
  if (it.kind === 'svg') return it.el.outerHTML;
  return (await ask({ type: 'svg', key: it.key })).svg;
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The picture as an SVG file: the library's SVG (dark: with the page's inverting filter). */
async function exportSvg() {
  let s = await svgText();
  if (!s) return null;
  // Fit: the file keeps the picture's own size (its viewBox); the page's zoom is not saved.
  s = s.replace(/^<svg([^>]*?) width="[^"]*" height="[^"]*"/, (m, a) => {
    const it = exportable;
    return `<svg${a} width="${it.w}" height="${it.h}"`;
  });
  if (isDark()) s = s.replace(/^<svg /, `<svg style="filter:${DARK_FILTER}" `);
  return new Blob([s], { type: 'image/svg+xml' });
}

/** The picture as a PNG file at twice its size (at most 8192 pixels a side), light or dark. */
async function exportPng() {
  const s = await svgText();
  if (!s) return null;
  const r = await ask({ type: 'png', svg: s, dark: isDark() });
  return r.png || null;
}

function wireTools() {
  $('mode').addEventListener('change', () => {
    const before = state.mode;
    state.mode = $('mode').value;
    if (state.mode === 'bank' || before === 'bank') render();
    else relabel();
  });
  $('export-svg').addEventListener('click', async () => {
    const b = await exportSvg();
    if (b) download('cute-layout.svg', b);
  });
  $('export-png').addEventListener('click', async () => {
    const b = await exportPng();
    if (b) download('cute-layout.png', b);
  });
  $('theme').addEventListener('click', () => {
    const dark = !isDark();
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    try {
      localStorage.setItem('cute-theme', dark ? 'dark' : 'light');
    } catch (_) {
      // storage unavailable: the theme lasts for this page
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Reading the pictures: hover and thread selection
// ---------------------------------------------------------------------------------------------

/** The cell of a picture under `rect`: its grid position, label, and the panel's title. */
function cellOf(rect) {
  const cells = rect.parentNode;
  if (!cells || !cells.classList || !cells.classList.contains('cells')) return null;
  const rects = [...cells.querySelectorAll('rect')];
  const k = rects.indexOf(rect);
  const y0 = rects[0].getAttribute('y');
  let cols = rects.findIndex((r) => r.getAttribute('y') !== y0);
  if (cols < 0) cols = rects.length;
  const rows = rects.length / cols;
  const panel = cells.parentNode;
  const labels = panel.querySelector('g.labels');
  const lab = labels && labels.children[k] ? labels.children[k] : null;
  const label = lab ? (lab.dataset.label !== undefined ? lab.dataset.label : lab.textContent) : '';
  const titleEl = panel.querySelector('text.title');
  return { k, m: Math.floor(k / cols), n: k % cols, rows, cols, label, title: titleEl ? titleEl.textContent : '' };
}

/** The plain layout a panel title names, if any (`L`, `A = L`, `Sw<..> o 0 o L`). */
function layoutOfTitle(title) {
  let t = title.split(/\s{3}\(/)[0];
  t = t.includes('=') ? t.slice(t.lastIndexOf('=') + 1) : t;
  if (t.includes(' o ')) t = t.slice(t.lastIndexOf(' o ') + 3);
  t = t.trim().split(/\s{2,}/)[0];
  return api.run('shape', [t]).ok !== undefined ? t : null;
}

function describe(c) {
  if (/^T\d+ V\d+/.test(c.label)) return `tile (${c.m},${c.n}): ${c.label}`;
  if (isTvPicture()) return `tile (${c.m},${c.n}): ${c.label || 'no (thread, value)'}`;
  const idx = c.m + c.rows * c.n;
  let s = `row ${c.m}, col ${c.n} · 1-D ${idx}`;
  const l = layoutOfTitle(c.title);
  if (l) {
    const shape = api.run('shape', [l]).ok;
    const nat = api.run('idx2crd', [String(idx), shape]);
    const off = api.run('crd2idx', [String(idx), l]);
    if (nat.ok !== undefined) s += ` · natural ${nat.ok}`;
    if (off.ok !== undefined) s += ` · index L(${idx}) = ${off.ok}`;
  }
  return `${s} · value ${c.label}`;
}

/** Whether the picture is a thread-value picture (cells labelled `T<t> V<v>`). */
function isTvPicture() {
  const l = $('picture').querySelector('g.labels text');
  const text = l ? (l.dataset.label !== undefined ? l.dataset.label : l.textContent) : '';
  // (a picture painted by the worker: coloured by thread)
  const raster = items.some((it) => it.kind === 'raster' && it.legend.some(([c]) => /^t\d+$/.test(c)));
  return state.tab === 'tv' || raster || /^T\d+ V\d+/.test(text) || $('picture').querySelector('rect[data-t]') !== null;
}

/** The request whose thread-value layouts list a thread's values (not a tiled copy's picture,
 * whose source and destination panels are read from the picture), or null. */
function tvRequest() {
  const op = state.tab === 'checks' ? 'tv' : state.op;
  const args = state.tab === 'checks' ? state.args.slice(0, 2) : state.args;
  if (/copy/.test(op)) return null;
  if (op === 'tv' || op === 'mma_atom' || op === 'tiled_mma') return { op, args };
  return args.some((a) => typeof a === 'string' && /_tv$/.test(a.trim())) ? { op, args } : null;
}

const COORD2 = /^\((\d+),(\d+)\)$/;

async function selectThread(t) {
  $('tv-thread').value = String(t);
  const req = tvRequest();
  if (req === null) {
    selectThreadFromPicture(t);
    return;
  }
  const r = (await ask({ type: 'thread', req, t })).values;
  if (!r || r.error) {
    $('tv-selection').textContent = `thread ${t}: ${r ? r.error : 'no answer'}`;
    return;
  }
  const parts = r.parts;
  const total = parts.reduce((a, p) => a + p.values.length, 0);
  $('tv-selection').textContent = total === 0 ? `thread ${t} holds no cell of this tile`
    : `thread ${t}: ${parts.map((p) => `${p.name ? `${p.name}: ` : ''}${p.values.map(([v, c]) => `V${v} at ${c}`).join(', ')}`).join('; ')}`;
  // (the list sits above the picture: a fitted picture is fitted again below it)
  if (zoom.fit) await layoutPictures();
  // Outline the thread's cells: in a picture painted by the worker, then in an SVG picture.
  const raster = items.find((it) => it.kind === 'raster');
  if (raster) {
    const cells = [];
    for (const p of parts) {
      for (const [, c] of p.values) {
        const m = COORD2.exec(c);
        if (m) cells.push([p.name, Number(m[1]), Number(m[2])]);
      }
    }
    const h = await ask({ type: 'highlight', key: raster.key, cells });
    raster.canvas.dataset.selected = String(h.count || 0);
    await paintRaster(raster);
    return;
  }
  const svg = $('picture').querySelector('svg');
  if (!svg) return;
  for (const r0 of svg.querySelectorAll('rect.sel')) r0.classList.remove('sel');
  const tagged = svg.querySelector('rect[data-t]') !== null;
  let n = 0;
  if (tagged) {
    const index = new Map();
    for (const x of svg.querySelectorAll('rect[data-op]')) index.set(`${x.dataset.op} ${x.dataset.row} ${x.dataset.col}`, x);
    for (const p of parts) {
      for (const [, c] of p.values) {
        const m = COORD2.exec(c);
        const x = m && index.get(`${p.name} ${m[1]} ${m[2]}`);
        if (x) {
          x.classList.add('sel');
          n += 1;
        }
      }
    }
  } else if (parts.length === 1) {
    const cells = svg.querySelector('g.panel g.cells');
    if (cells) {
      const rects = [...cells.querySelectorAll('rect')];
      const y0 = rects.length ? rects[0].getAttribute('y') : null;
      let cols = rects.findIndex((x) => x.getAttribute('y') !== y0);
      if (cols < 0) cols = rects.length;
      for (const [, c] of parts[0].values) {
        const m = COORD2.exec(c);
        const x = m && rects[Number(m[1]) * cols + Number(m[2])];
        if (x) {
          x.classList.add('sel');
          n += 1;
        }
      }
    }
  }
  svg.classList.toggle('dim', n > 0);
}

/** A tiled copy: every panel (source, destination), cells labelled `T<t> V<v>`. */
function selectThreadFromPicture(t) {
  const svg = $('picture').querySelector('svg');
  if (!svg) return;
  const found = [];
  for (const panel of svg.querySelectorAll('g.panel')) {
    const cells = panel.querySelector('g.cells');
    if (!cells) continue;
    const rects = [...cells.querySelectorAll('rect')];
    const labels = panel.querySelector('g.labels');
    const title = panel.querySelector('text.title');
    const name = title && svg.querySelectorAll('g.panel').length > 1 ? `${title.textContent.split(':')[0]}: ` : '';
    const y0 = rects.length ? rects[0].getAttribute('y') : null;
    let cols = rects.findIndex((r) => r.getAttribute('y') !== y0);
    if (cols < 0) cols = rects.length;
    rects.forEach((r, k) => {
      const l = labels && labels.children[k];
      const text = l ? (l.dataset.label !== undefined ? l.dataset.label : l.textContent) : '';
      const hit = new RegExp(`^T${t} V(\\d+)`).exec(text);
      r.classList.toggle('sel', !!hit);
      if (hit) found.push([name, Number(hit[1]), Math.floor(k / cols), k % cols]);
    });
  }
  svg.classList.toggle('dim', found.length > 0);
  found.sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
  $('tv-selection').textContent = found.length
    ? `thread ${t}: ${found.map(([p, v, m, n]) => `${p}V${v} at (${m},${n})`).join(', ')}`
    : `thread ${t} holds no cell of this tile`;
  if (zoom.fit) layoutPictures();
}

/** The cell of a raster picture under a pointer event, asked of the worker. */
async function rasterCell(e) {
  const it = items.find((x) => x.kind === 'raster' && x.canvas === e.target);
  if (!it) return null;
  const b = it.canvas.getBoundingClientRect();
  const x = it.x0 + (e.clientX - b.left) / zoom.scale;
  const y = it.y0 + (e.clientY - b.top) / zoom.scale;
  return (await ask({ type: 'cell', key: it.key, x, y })).cell;
}

function wirePicture() {
  const pic = $('picture');
  let hot = null;
  let hoverBusy = false;
  pic.addEventListener('mouseover', (e) => {
    const r = e.target.closest ? e.target.closest('rect') : null;
    if (!r || r === hot) return;
    if (r.dataset.t !== undefined) {
      if (hot) hot.classList.remove('hot');
      hot = r;
      r.classList.add('hot');
      $('hover').textContent = `${r.dataset.op} (${r.dataset.row},${r.dataset.col}): T${r.dataset.t} V${r.dataset.v}`;
      return;
    }
    const c = cellOf(r);
    if (!c) return;
    if (hot) hot.classList.remove('hot');
    hot = r;
    r.classList.add('hot');
    $('hover').textContent = describe(c);
  });
  pic.addEventListener('mousemove', async (e) => {
    if (hoverBusy || !(e.target instanceof HTMLCanvasElement)) return;
    hoverBusy = true;
    const c = await rasterCell(e);
    hoverBusy = false;
    if (!c) return;
    $('hover').textContent = c.data ? `${c.data.op} (${c.data.row},${c.data.col}): T${c.data.t} V${c.data.v}` : describe(c);
  });
  pic.addEventListener('click', async (e) => {
    if (e.target instanceof HTMLCanvasElement) {
      const c = await rasterCell(e);
      const m = c ? /^T(\d+) /.exec(c.label) : null;
      if (m && ($('tv-bar').hidden === false)) selectThread(Number(m[1]));
      return;
    }
    if ($('tv-bar').hidden) return;
    const r = e.target.closest ? e.target.closest('rect') : null;
    if (r && r.dataset.t !== undefined) {
      selectThread(Number(r.dataset.t));
      return;
    }
    const c = r ? cellOf(r) : null;
    if (!c) {
      // a click on a cell's label
      const text = e.target.closest ? e.target.closest('text') : null;
      const lab = text ? (text.dataset.label !== undefined ? text.dataset.label : text.textContent) : '';
      const m = /^T(\d+) /.exec(lab);
      if (m) selectThread(Number(m[1]));
      return;
    }
    const m = /^T(\d+) /.exec(c.label);
    if (m) selectThread(Number(m[1]));
  });
  $('tv-thread').addEventListener('input', () => {
    const t = Number($('tv-thread').value);
    if (Number.isInteger(t) && $('tv-thread').value !== '') selectThread(t);
  });
}

// ---------------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------------

async function main() {
  try {
    if (localStorage.getItem('cute-theme') === 'dark') document.documentElement.dataset.theme = 'dark';
  } catch (_) {
    // storage unavailable
  }
  // Compiled once, for the page and for the worker.
  const url = new URL('./pkg/cute_wasm_bg.wasm', import.meta.url);
  let module;
  try {
    module = await WebAssembly.compileStreaming(fetch(url));
  } catch (_) {
    // (a server that does not send application/wasm)
    module = await WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
  wasmModule = module;
  worker.postMessage({ type: 'init', module });
  await init({ module_or_path: module });
  api = makeApi(answer, view);
  OPS = JSON.parse(opsJson());
  atomOps = OPS.filter((o) => o.topic === ATOM_TOPIC);
  window.cute = {
    run: api.run,
    answer: (line) => answer(line),
    picture: (op, args) => api.viewOf('picture', op, args),
    explain: (op, args) => api.viewOf('explain', op, args),
    show: (text) => {
      const r = api.run('show', [text]);
      return r.kind === 'UnknownOp' ? api.viewOf('show', 'show', [text]) : r;
    },
    ops: OPS,
    tvParts: (req) => tvParts(api, req),
    exportSvg,
    exportPng,
    get request() {
      return { op: state.op, args: state.args };
    },
    get zoom() {
      return { ...zoom };
    },
    get stops() {
      return stops;
    },
  };
  buildTabs();
  wirePicture();
  wireZoom();
  wireTools();
  window.addEventListener('hashchange', () => {
    const h = requestFromHash();
    if (h && h.raw !== JSON.stringify({ op: state.op, args: state.args })) setRequest(h.req, undefined, h.raw);
  });
  const h = requestFromHash();
  if (h) await setRequest(h.req, undefined, h.raw);
  else await setRequest(DEFAULTS.layout);
  document.documentElement.dataset.ready = 'true';
}

// Resolves once window.cute is there and the first view is drawn (for scripts driving the page).
window.cuteReady = main();
window.cuteReady.catch((e) => {
  setResult({ error: `the WebAssembly module did not load: ${e}`, kind: 'Internal' });
  document.documentElement.dataset.ready = 'error';
});
