// The playground page. It computes nothing itself: every answer, picture and explanation comes
// from the WebAssembly build of the library (crates/cute-wasm over crates/cute-ops), one batch
// request at a time. This file only builds the inputs, shows the answers and reads the pictures
// (the SVG's cells and labels) for hovering and selecting.
import init, { answer, view, ops as opsJson } from './pkg/cute_wasm.js';

const $ = (id) => document.getElementById(id);

/** An answer line as an object; a trap in the module becomes an error too. */
function parse(thunk) {
  try {
    return JSON.parse(thunk());
  } catch (e) {
    return { error: String((e && e.message) || e), kind: 'Internal' };
  }
}

/** `cute batch`'s answer to {op, args}: {ok: TEXT} or {error, kind}. */
function run(op, args) {
  return parse(() => answer(JSON.stringify({ op, args: args === undefined ? [] : args })));
}

/** A view of a request: 'picture', 'explain', 'show' or 'banks_report'. */
function viewOf(what, op, args) {
  return parse(() => view(what, JSON.stringify({ op, args })));
}

// ---------------------------------------------------------------------------------------------
// Tabs and their inputs
// ---------------------------------------------------------------------------------------------

const EXAMPLES = {
  composition: ['(6,2):(8,2)', '(4,3):(3,1)'],
  complement: ['(2,2):(1,6)', '24'],
  coalesce: ['(2,(1,6)):(1,(6,2))'],
  right_inverse: ['(4,(2,4)):(2,(1,8))'],
  left_inverse: ['(4,(2,4)):(2,(1,8))'],
  logical_divide: ['(8,8):(8,1)', '(2,4)'],
  zipped_divide: ['(8,8):(8,1)', '(2,4)'],
  tiled_divide: ['(8,8):(8,1)', '(2,4)'],
  flat_divide: ['(8,8):(8,1)', '(2,4)'],
  logical_product: ['(2,2):(2,1)', '(2,3):(3,1)'],
  zipped_product: ['(2,2):(2,1)', '(2,3):(3,1)'],
  tiled_product: ['(2,2):(2,1)', '(2,3):(3,1)'],
  flat_product: ['(2,2):(2,1)', '(2,3):(3,1)'],
  blocked_product: ['(2,2):(2,1)', '(2,3):(3,1)'],
  raked_product: ['(2,2):(2,1)', '(2,3):(3,1)'],
  tile_to_shape: ['(2,2):(2,1)', '(6,8)'],
  find_layout: ['0,4,1,5,2,6,3,7'],
  equal: ['(2,2):(1,2)', '4:1'],
  injective: ['(2,2):(1,1)'],
  swizzle: ['3', '4', '3'],
  make_layout: ['(2,4)', 'LayoutRight'],
  crd2idx: ['(1,2)', '(2,(2,2)):(4,(2,1))'],
  idx2crd: ['5', '(2,(2,2))'],
  upcast: ['2', '(4,8):(8,1)'],
  table: ['(2,2):(2,1)'],
  mma_atom: ['SM80_16x8x16_F32F16F16F32_TN', 'layout_c_tv'],
  tiled_mma: ['SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', '_', 'layout_c_tv'],
  list_atoms: ['sm80'],
  copy_atom: ['SM75_U32x4_LDSM_N', 'half_t', 'src'],
  make_tiled_copy: ['SM75_U32x4_LDSM_N', 'half_t', '(32,1):(1,0)', '(1,8):(0,1)', 'tiled_layout_tv'],
  make_tiled_copy_A: ['SM75_U32x4_LDSM_N', 'half_t', 'SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', '_', 'tiled_layout_tv'],
  make_tiled_copy_B: ['SM75_U32x2_LDSM_N', 'half_t', 'SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', '_', 'tiled_layout_tv'],
  make_tiled_copy_C: ['UniversalCopy<uint32_t>', 'float', 'SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', '_', 'tiled_layout_tv'],
  make_tiled_copy_C_atom: ['UniversalCopy<uint32_t>', 'float', 'SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', '_', 'tiled_layout_tv'],
  make_layout_tv: ['(4,8):(8,1)', '(2,2):(2,1)', 'layout_tv'],
};

/** The operations the library draws with their operands beside the result (render::svg_op). */
const OP_PICTURES = ['composition', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide',
  'logical_product', 'zipped_product', 'tiled_product', 'flat_product', 'blocked_product', 'raked_product'];

const ATOM_RE = /(mma|copy|atom|layout_tv)/i;

const TABS = [
  { id: 'layout', label: 'Layout', about: 'A layout, a composed layout Sw<B,M,S> o OFF o L, or a swizzle: its print_layout table and picture.' },
  { id: 'operation', label: 'Operations', about: '' },
  { id: 'tv', label: 'Thread-value', about: 'A thread-value layout (thread, value) -> tile index on a tile: click a thread to see its values.' },
  { id: 'banks', label: 'Bank conflicts', about: 'Shared-memory banks of a layout for an element size, request by request (wavefronts).' },
  { id: 'swizzle', label: 'Swizzle', about: 'A layout before and after a swizzle Sw<B,M,S> (composition(Sw, L)).' },
  { id: 'atoms', label: 'Atoms / tiled', about: 'MMA and copy atoms, TiledMMA and TiledCopy, from the library\'s operation table.' },
];

const FIELDS = {
  layout: [{ label: 'layout' }],
  tv: [{ label: 'TV layout (thread, value) -> index' }, { label: 'tile shape' }],
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
  operation: { op: 'composition', args: EXAMPLES.composition },
  tv: { op: 'tv', args: ['((4,8),(2,2)):((16,1),(8,64))', '(16,8)'] },
  banks: { op: 'banks', args: ['(8,32):(32,1)', '32', '4', 'columns'] },
  swizzle: { op: 'composition', args: ['Sw<3,0,3>', '(8,8):(8,1)'] },
};

let OPS = [];
let atomOps = [];
let state = { tab: 'layout', op: 'show', args: DEFAULTS.layout.args };

function isSwizzleRequest(req) {
  const [a, b] = req.args || [];
  return req.op === 'composition' && typeof a === 'string' && /^\s*Sw</.test(a) && !a.includes(':')
    && typeof b === 'string' && b.includes(':') && !/^\s*Sw/.test(b);
}

function tabFor(req) {
  if (req.op === 'show') return 'layout';
  if (req.op === 'tv') return 'tv';
  if (req.op === 'banks') return 'banks';
  if (isSwizzleRequest(req)) return 'swizzle';
  if (atomOps.some((o) => o.name === req.op)) return 'atoms';
  return 'operation';
}

function argText(a) {
  return typeof a === 'string' ? a : JSON.stringify(a);
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

// The label of each parameter, as the operation's declaration gives it (`cute_wasm::ops`).
function paramLabels(spec) {
  return spec.params.map((p) => p.label);
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
  let req = DEFAULTS[id];
  if (id === 'atoms') {
    const o = atomOps[0];
    req = { op: o.name, args: EXAMPLES[o.name] || [] };
  }
  setRequest({ op: req.op, args: [...req.args] }, id);
}

function field(label, value, opts) {
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
  return l;
}

function opChooser(list, current) {
  const l = document.createElement('label');
  l.textContent = 'operation';
  const sel = document.createElement('select');
  sel.id = 'op';
  sel.setAttribute('data-testid', 'op');
  for (const o of list) {
    const e = document.createElement('option');
    e.value = o.name;
    e.textContent = o.name;
    sel.appendChild(e);
  }
  if (!list.some((o) => o.name === current)) {
    const e = document.createElement('option');
    e.value = current;
    e.textContent = current;
    sel.appendChild(e);
  }
  sel.value = current;
  sel.addEventListener('change', () => {
    const spec = OPS.find((o) => o.name === sel.value);
    let args = EXAMPLES[sel.value];
    if (!args) {
      const n = spec ? Math.max(spec.min, 1) : 1;
      args = state.args.slice(0, n).map(argText);
      while (args.length < n) args.push('');
    }
    setRequest({ op: sel.value, args: [...args] }, state.tab);
  });
  l.appendChild(sel);
  return l;
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
    const names = spec ? paramLabels(spec) : [];
    const n = Math.max(state.args.length, spec ? spec.min : 0);
    for (let k = 0; k < n; k++) {
      const name = names[Math.min(k, names.length - 1)] || `argument ${k + 1}`;
      form.appendChild(field(`${k + 1}. ${name}`, k < state.args.length ? argText(state.args[k]) : ''));
    }
    if (spec) {
      about = `${spec.name} ${spec.usage}: ${spec.summary}`;
      const row = document.createElement('div');
      row.className = 'row';
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

function showText(args) {
  const r = run('show', args);
  return r.kind === 'UnknownOp' ? viewOf('show', 'show', args) : r;
}

function compute() {
  const { tab, op, args, raw } = state;
  // A request from the URL is answered from its own text, exactly as `cute batch` answers it.
  if (raw !== undefined && tab !== 'tv' && tab !== 'banks') {
    const r = parse(() => answer(raw));
    if (!(tab === 'layout' && r.kind === 'UnknownOp')) return r;
  }
  if (tab === 'layout') return showText(args);
  if (tab === 'tv') return showText(args.slice(0, 1));
  if (tab === 'banks') {
    const a = [args[0] ?? '', args[1] ?? '32', args[2] ?? '4', args[3] ?? 'rows'];
    return viewOf('banks_report', 'banks', a.map(argText));
  }
  return run(op, args);
}

function setResult(r) {
  const ok = r.ok !== undefined;
  $('result').textContent = ok ? r.ok : '';
  $('error').textContent = ok ? '' : r.error;
  $('error-kind').textContent = ok ? '' : r.kind;
  $('error-box').hidden = ok;
}

function setProps() {
  const dl = $('props');
  dl.textContent = '';
  if (state.tab !== 'layout' || typeof state.args[0] !== 'string') return;
  for (const p of ['size', 'cosize', 'rank', 'depth']) {
    const r = run(p, [state.args[0]]);
    if (r.ok === undefined) continue;
    const d = document.createElement('div');
    d.innerHTML = '<dt></dt><dd></dd>';
    d.firstChild.textContent = p;
    d.lastChild.textContent = r.ok;
    d.lastChild.setAttribute('data-testid', p);
    dl.appendChild(d);
  }
}

function figure(caption, r) {
  const f = document.createElement('figure');
  const c = document.createElement('figcaption');
  c.textContent = caption;
  f.appendChild(c);
  const d = document.createElement('div');
  if (r.ok !== undefined) d.innerHTML = r.ok;
  else d.textContent = `no picture: ${r.error}`;
  f.appendChild(d);
  return f;
}

function setPicture(result) {
  const pic = $('picture');
  const note = $('picture-note');
  pic.textContent = '';
  note.textContent = '';
  const { tab, op, args } = state;
  if (tab === 'swizzle') {
    const pair = document.createElement('div');
    pair.className = 'pair';
    pair.appendChild(figure(`before: ${argText(args[1])}`, viewOf('picture', 'show', [args[1]])));
    pair.appendChild(figure(`after: ${argText(args[0])} o ${argText(args[1])}`, viewOf('picture', op, args)));
    pic.appendChild(pair);
    if (result.ok !== undefined) {
      note.textContent = `before: ${bankLine(args[1])}\nafter:  ${bankLine(result.ok)}`;
    }
    return;
  }
  if (result.ok === undefined && tab !== 'tv' && tab !== 'banks') {
    // A refusal: the operands that are layouts, drawn, beside the explanation below.
    const pair = document.createElement('div');
    pair.className = 'pair';
    args.forEach((a, k) => {
      if (typeof a !== 'string' || !a.includes(':')) return;
      const p = viewOf('picture', 'show', [a]);
      if (p.ok !== undefined) pair.appendChild(figure(`operand ${k + 1}`, p));
    });
    if (pair.children.length > 0) pic.appendChild(pair);
    return;
  }
  if ((tab === 'operation' || tab === 'atoms') && !OP_PICTURES.includes(op) && typeof args[0] === 'string') {
    const a = viewOf('picture', 'show', [args[0]]);
    const b = viewOf('picture', op, args);
    if (a.ok !== undefined && b.ok !== undefined && !b.ok.includes('(' + op + ' = ')) {
      const pair = document.createElement('div');
      pair.className = 'pair';
      pair.appendChild(figure('operand', a));
      pair.appendChild(figure('result', b));
      pic.appendChild(pair);
      return;
    }
  }
  let r;
  if (tab === 'banks') {
    const a = [args[0] ?? '', args[1] ?? '32', args[2] ?? '4', args[3] ?? 'rows'];
    r = viewOf('picture', 'banks', a.map(argText));
  } else {
    r = viewOf('picture', op, args);
  }
  if (r.ok !== undefined) pic.innerHTML = r.ok;
  else note.textContent = `no picture: ${r.error}`;
}

function setExplain(result) {
  const box = $('explain-box');
  const { tab, op, args } = state;
  if (tab !== 'operation' && tab !== 'atoms') {
    box.hidden = true;
    return;
  }
  // The derivation where the library explains this operation on these arguments; for a refusal,
  // the condition that failed and its counter-example.
  const e = viewOf('explain', op, args);
  const shown = e.ok !== undefined || (result.kind !== undefined && e.kind === result.kind);
  box.hidden = !shown;
  $('explain').textContent = e.ok !== undefined ? e.ok : `${e.kind}: ${e.error}`;
}

/** The summary line of the bank report of `layout` (32 banks of 4 bytes, a column per request). */
function bankLine(layout) {
  const r = viewOf('banks_report', 'banks', [argText(layout), '32', '4', 'columns']);
  return r.ok !== undefined ? r.ok.split('\n')[1] : r.error;
}

function render() {
  const req = { op: state.op, args: state.args };
  const line = JSON.stringify(req);
  $('request').textContent = line;
  const hash = `#${encodeURIComponent(state.raw !== undefined ? state.raw : line)}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  const r = compute();
  setResult(r);
  setProps();
  setPicture(r);
  setExplain(r);
  $('tv-bar').hidden = !isTvPicture();
  $('tv-selection').textContent = '';
  $('hover').textContent = 'hover a cell for its coordinates and value';
  const t = Number($('tv-thread').value);
  if (!$('tv-bar').hidden && $('tv-thread').value !== '' && Number.isInteger(t)) selectThread(t);
}

function setRequest(req, tab, raw) {
  state = { tab: tab || tabFor(req), op: req.op, args: Array.isArray(req.args) ? req.args : [], raw };
  buildForm();
  render();
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
  const label = labels && labels.children[k] ? labels.children[k].textContent : '';
  const titleEl = panel.querySelector('text.title');
  return { k, m: Math.floor(k / cols), n: k % cols, rows, cols, label, title: titleEl ? titleEl.textContent : '', rects, labels };
}

/** The plain layout a panel title names, if any (`L`, `A = L`, `Sw<..> o 0 o L`). */
function layoutOfTitle(title) {
  let t = title.split(/\s{3}\(/)[0];
  t = t.includes('=') ? t.slice(t.lastIndexOf('=') + 1) : t;
  if (t.includes(' o ')) t = t.slice(t.lastIndexOf(' o ') + 3);
  t = t.trim().split(/\s{2,}/)[0];
  return run('shape', [t]).ok !== undefined ? t : null;
}

function describe(c) {
  if (isTvPicture()) return `tile (${c.m},${c.n}): ${c.label || 'no (thread, value)'}`;
  const idx = c.m + c.rows * c.n;
  let s = `row ${c.m}, col ${c.n} · 1-D ${idx}`;
  const l = layoutOfTitle(c.title);
  if (l) {
    const shape = run('shape', [l]).ok;
    const nat = run('idx2crd', [String(idx), shape]);
    const off = run('crd2idx', [String(idx), l]);
    if (nat.ok !== undefined) s += ` · natural ${nat.ok}`;
    if (off.ok !== undefined) s += ` · index L(${idx}) = ${off.ok}`;
  }
  return `${s} · value ${c.label}`;
}

/** Whether the picture is a thread-value picture (cells labelled `T<t> V<v>`). */
function isTvPicture() {
  const l = $('picture').querySelector('g.labels text');
  return state.tab === 'tv' || (l !== null && /^T\d+ V\d+/.test(l.textContent))
    || $('picture').querySelector('rect[data-t]') !== null;
}

function selectThread(t) {
  const pic = $('picture');
  const svg = pic.querySelector('svg');
  if (!svg) return;
  const tagged = [...svg.querySelectorAll('rect[data-t]')];
  if (tagged.length > 0) {
    // CuTe's MMA picture: every cell names its operand, tile coordinate, thread and value.
    const found = tagged.filter((r) => r.dataset.t === String(t));
    for (const r of tagged) r.classList.toggle('sel', r.dataset.t === String(t));
    svg.classList.toggle('dim', found.length > 0);
    $('tv-thread').value = String(t);
    const by = {};
    for (const r of found) (by[r.dataset.op] = by[r.dataset.op] || []).push(`V${r.dataset.v} at (${r.dataset.row},${r.dataset.col})`);
    $('tv-selection').textContent = found.length
      ? `thread ${t}: ${Object.entries(by).map(([op, l]) => `${op}: ${l.join(', ')}`).join('; ')}`
      : `thread ${t} holds no cell of this tile`;
    return;
  }
  // Every panel (a tiled copy has a source and a destination): cells labelled `T<t> V<v>`.
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
      const text = labels && labels.children[k] ? labels.children[k].textContent : '';
      const hit = new RegExp(`^T${t} V(\\d+)`).exec(text);
      r.classList.toggle('sel', !!hit);
      if (hit) found.push([name, Number(hit[1]), Math.floor(k / cols), k % cols]);
    });
  }
  svg.classList.toggle('dim', found.length > 0);
  found.sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
  $('tv-thread').value = String(t);
  $('tv-selection').textContent = found.length
    ? `thread ${t}: ${found.map(([p, v, m, n]) => `${p}V${v} at (${m},${n})`).join(', ')}`
    : `thread ${t} holds no cell of this tile`;
}

function wirePicture() {
  const pic = $('picture');
  let hot = null;
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
  pic.addEventListener('click', (e) => {
    if (!isTvPicture()) return;
    const r = e.target.closest ? e.target.closest('rect') : null;
    if (r && r.dataset.t !== undefined) {
      selectThread(Number(r.dataset.t));
      return;
    }
    const c = r ? cellOf(r) : null;
    if (!c) {
      // a click on a cell's label
      const text = e.target.closest ? e.target.closest('text') : null;
      const m = text ? /^T(\d+) /.exec(text.textContent) : null;
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
  await init({ module_or_path: new URL('./pkg/cute_wasm_bg.wasm', import.meta.url) });
  OPS = JSON.parse(opsJson());
  atomOps = OPS.filter((o) => ATOM_RE.test(o.name));
  window.cute = {
    run,
    answer: (line) => answer(line),
    picture: (op, args) => viewOf('picture', op, args),
    explain: (op, args) => viewOf('explain', op, args),
    show: (text) => showText([text]),
    ops: OPS,
    get request() {
      return { op: state.op, args: state.args };
    },
  };
  buildTabs();
  wirePicture();
  window.addEventListener('hashchange', () => {
    const h = requestFromHash();
    if (h && h.raw !== JSON.stringify({ op: state.op, args: state.args })) setRequest(h.req, undefined, h.raw);
  });
  const h = requestFromHash();
  if (h) setRequest(h.req, undefined, h.raw);
  else setRequest(DEFAULTS.layout);
  document.documentElement.dataset.ready = 'true';
}

// Resolves once window.cute is there and the first view is drawn (for scripts driving the page).
window.cuteReady = main();
window.cuteReady.catch((e) => {
  setResult({ error: `the WebAssembly module did not load: ${e}`, kind: 'Internal' });
  document.documentElement.dataset.ready = 'error';
});
