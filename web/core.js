// What the page shows for a request, computed without a document: the answer, the layout's
// properties, the picture(s), the explanation, a thread's values. Every value comes from the
// WebAssembly module (`cute batch`'s answers and views); this file only chooses which requests
// to make. The worker (worker.js) runs it off the page's thread; the page calls the module
// through `makeApi` for small requests of its own (hover).

/** The calls into the module: `answer(line)` and `view(what, line)`, each an answer line. */
export function makeApi(answer, view) {
  const parse = (thunk) => {
    try {
      return JSON.parse(thunk());
    } catch (e) {
      return { error: String((e && e.message) || e), kind: 'Internal' };
    }
  };
  const run = (op, args) => parse(() => answer(JSON.stringify({ op, args: args === undefined ? [] : args })));
  const viewOf = (what, op, args) => parse(() => view(what, JSON.stringify({ op, args })));
  const raw = (line) => parse(() => answer(line));
  return { run, viewOf, raw };
}

/** The operations the library draws with their operands beside the result (render::svg_op). */
export const OP_PICTURES = ['composition', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide',
  'logical_product', 'zipped_product', 'tiled_product', 'flat_product', 'blocked_product', 'raked_product'];

export function argText(a) {
  return typeof a === 'string' ? a : JSON.stringify(a);
}

function showText(api, args) {
  const r = api.run('show', args);
  return r.kind === 'UnknownOp' ? api.viewOf('show', 'show', args) : r;
}

export function bankArgs(args) {
  return [args[0] ?? '', args[1] ?? '32', args[2] ?? '4', args[3] ?? 'rows'].map(argText);
}

/** The answer shown for the request of `state` ({tab, op, args, raw}). */
function compute(api, state) {
  const { tab, op, args, raw } = state;
  // A request from the URL is answered from its own text, exactly as `cute batch` answers it.
  if (raw !== undefined && tab !== 'tv' && tab !== 'banks' && tab !== 'checks') {
    const r = api.raw(raw);
    if (!(tab === 'layout' && r.kind === 'UnknownOp')) return r;
  }
  if (tab === 'layout') return showText(api, args);
  if (tab === 'tv' || tab === 'checks') return showText(api, args.slice(0, 1));
  if (tab === 'banks') return api.viewOf('banks_report', 'banks', bankArgs(args));
  return api.run(op, args);
}

/** The summary line of the bank report of `layout` (32 banks of 4 bytes, a column per request). */
function bankLine(api, layout) {
  const r = api.viewOf('banks_report', 'banks', [argText(layout), '32', '4', 'columns']);
  return r.ok !== undefined ? r.ok.split('\n')[1] : r.error;
}

function picture(api, state, result) {
  const { tab, op, args } = state;
  if (tab === 'swizzle') {
    const figures = [
      { caption: `before: ${argText(args[1])}`, r: api.viewOf('picture', 'show', [args[1]]) },
      { caption: `after: ${argText(args[0])} o ${argText(args[1])}`, r: api.viewOf('picture', op, args) },
    ];
    const note = result.ok !== undefined ? `before: ${bankLine(api, args[1])}\nafter:  ${bankLine(api, result.ok)}` : '';
    return { figures, note };
  }
  if (result.ok === undefined && tab !== 'tv' && tab !== 'banks' && tab !== 'checks') {
    // A refusal: the operands that are layouts, drawn, beside the explanation.
    const figures = [];
    args.forEach((a, k) => {
      if (typeof a !== 'string') return;
      const p = api.viewOf('picture', 'show', [a]);
      if (p.ok !== undefined) figures.push({ caption: `operand ${k + 1}`, r: p });
    });
    return { figures, note: '' };
  }
  if (tab === 'layout' && state.mode === 'bank' && typeof args[0] === 'string') {
    const r = api.viewOf('picture', 'banks', [args[0], '32', String(state.bytes || 4), 'rows']);
    return { single: r, note: r.ok === undefined ? `no picture: ${r.error}` : '' };
  }
  if ((tab === 'operation' || tab === 'atoms') && !OP_PICTURES.includes(op) && typeof args[0] === 'string') {
    const a = api.viewOf('picture', 'show', [args[0]]);
    const b = api.viewOf('picture', op, args);
    if (a.ok !== undefined && b.ok !== undefined && !b.ok.includes(`(${op} = `)) {
      return { figures: [{ caption: 'operand', r: a }, { caption: 'result', r: b }], note: '' };
    }
    return { single: b, note: b.ok === undefined ? `no picture: ${b.error}` : '' };
  }
  if (tab === 'checks') {
    // The thread-value layout on its tile, and the banks of each request: the shared layout
    // after the TV layout, (thread, value) -> element, one column (a value of every thread) a
    // request.
    const [tv, tile, bytes, smem] = [0, 1, 2, 3].map((k) => argText(args[k] ?? ''));
    const figures = [{ caption: 'thread-value layout on the tile', r: api.viewOf('picture', 'tv', [tv, tile]) }];
    const both = api.run('composition', [smem, tv]);
    if (both.ok !== undefined) {
      figures.push({ caption: `banks: ${smem} after the TV layout, a request per value (column)`,
        r: api.viewOf('picture', 'banks', [both.ok, '32', bytes, 'columns']) });
    }
    return { figures, note: both.ok === undefined ? `no bank picture: ${both.error}` : '' };
  }
  let r;
  if (tab === 'banks') r = api.viewOf('picture', 'banks', bankArgs(args));
  else r = api.viewOf('picture', op, args);
  return { single: r, note: r.ok === undefined ? `no picture: ${r.error}` : '' };
}

function explain(api, state, result) {
  const { tab, op, args } = state;
  if (tab !== 'operation' && tab !== 'atoms') return null;
  // The derivation where the library explains this operation on these arguments; for a refusal,
  // the condition that failed and its counter-example.
  const e = api.viewOf('explain', op, args);
  const shown = e.ok !== undefined || (result.kind !== undefined && e.kind === result.kind);
  return shown ? (e.ok !== undefined ? e.ok : `${e.kind}: ${e.error}`) : null;
}

function props(api, state) {
  if (state.tab !== 'layout' || typeof state.args[0] !== 'string') return [];
  const out = [];
  for (const p of ['size', 'cosize', 'rank', 'depth']) {
    const r = api.run(p, [state.args[0]]);
    if (r.ok !== undefined) out.push([p, r.ok]);
  }
  return out;
}

/** Everything the page shows for `state`, but the thread selection. */
export function model(api, state) {
  const result = compute(api, state);
  const checks = state.tab === 'checks' ? kernelChecks(api, state.args) : null;
  return { result, props: props(api, state), picture: picture(api, state, result), explain: explain(api, state, result), checks };
}

// ---------------------------------------------------------------------------------------------
// A thread's values, from the thread-value layouts (not from a picture)
// ---------------------------------------------------------------------------------------------

const MMA_OPS = { mma_atom: [1, 'shape_mnk'], tiled_mma: [3, 'tile_size_mnk'] };

/**
 * The thread-value layouts a request draws, each with the tile it maps into: `[name, TV, TILE]`.
 * An MMA atom or tiled MMA: C on (M,N), A on (M,K), B on (N,K); the `tv` view: its layout and
 * tile; a `..._tv` field of another atom operation: that field on the operation's `tiler_mn`.
 * Empty where the request has none.
 */
export function tvParts(api, req) {
  const { op, args } = req;
  const text = args.map(argText);
  if (op === 'tv') return text.length >= 2 ? [['', text[0], text[1]]] : [];
  if (MMA_OPS[op]) {
    const [n, ask] = MMA_OPS[op];
    const base = text.slice(0, n);
    const mnk = api.run(op, [...base, ask]);
    if (mnk.ok === undefined) return [];
    const tile = (i, j) => api.run('select', [mnk.ok, String(i), String(j)]).ok;
    return [['C', 0, 1], ['A', 0, 2], ['B', 1, 2]].map(([name, i, j]) => {
      const tv = api.run(op, [...base, `layout_${name.toLowerCase()}_tv`]);
      return [name, tv.ok, tile(i, j)];
    }).filter(([, tv, tile]) => tv !== undefined && tile !== undefined);
  }
  const k = text.findLastIndex((a) => /_tv$/.test(a.trim()));
  if (k < 0) return [];
  const base = text.slice(0, k);
  const tv = api.run(op, [...base, text[k]]);
  const tile = api.run(op, [...base, 'tiler_mn']);
  return tv.ok !== undefined && tile.ok !== undefined ? [['', tv.ok, tile.ok]] : [];
}

/**
 * Thread `t`'s values in each thread-value layout of the request: `[{name, values: [[v, coord
 * text], ...]}]`, the coordinates of `partition_tv(make_identity_tensor(TILE), TV, t)` as
 * `print_tensor` lists them (value order), or `{error}`.
 */
export function threadValues(api, req, t) {
  const parts = tvParts(api, req);
  if (parts.length === 0) return { error: 'this request has no thread-value layout' };
  const out = [];
  for (const [name, tv, tile] of parts) {
    const id = api.run('make_identity_tensor', [tile]);
    if (id.ok === undefined) return { error: id.error };
    const p = api.run('partition_tv', [id.ok, tv, String(t)]);
    if (p.ok === undefined) return { error: p.error };
    const listed = api.run('print_tensor', [p.ok]);
    if (listed.ok === undefined) return { error: listed.error };
    const values = listed.ok.split('\n').slice(1).map((l) => l.trim()).filter((l) => l.length > 0)
      .map((crd, v) => [v, crd]);
    out.push({ name, tile, values });
  }
  return { parts: out };
}

// ---------------------------------------------------------------------------------------------
// Kernel checks of a thread-value layout: bank conflicts, coalescing, vector width, TMA
// ---------------------------------------------------------------------------------------------

/**
 * The checks tab: `args` = [TV layout, tile, element bytes, shared layout, global layout]
 * (the global layout takes the tile's coordinates, as the TV layout's tile index).
 * Each check is one operation of the table, shown with its request so it can be reproduced.
 */
function kernelChecks(api, args) {
  const [tv, tile, bytes, smem, gmem] = [0, 1, 2, 3, 4].map((k) => argText(args[k] ?? '').trim());
  const checks = [];
  const add = (title, op, a) => {
    const r = api.run(op, a);
    checks.push({ title, request: JSON.stringify({ op, args: a }), r });
  };
  if (tv && tile && bytes && smem) {
    add('shared-memory wavefronts (writes and reads by this TV layout)', 'smem_evaluate', [tile, tv, tv, bytes, smem]);
    const both = api.run('composition', [smem, tv]);
    if (both.ok !== undefined) add('bank_conflicts: the most distinct words one bank serves to the first 32 threads, all their values at once', 'bank_conflicts', [both.ok, bytes]);
  }
  if (tv && bytes && gmem) {
    // Global memory: the addresses of the first warp, (thread, value) -> GMEM(TV(thread, value)),
    // counted in 32-byte sectors and 128-byte lines as one bank of that word size counts words.
    const g = api.run('composition', [gmem, tv]);
    const threads = api.run('size', [api.run('mode', [tv, '0']).ok ?? '']);
    const values = api.run('size', [api.run('mode', [tv, '1']).ok ?? '']);
    if (g.ok !== undefined && threads.ok !== undefined && values.ok !== undefined) {
      const moved = Math.min(32, Number(threads.ok)) * Number(values.ok) * Number(bytes);
      const at = (w) => `at least ${Math.ceil(moved / w)} for its ${moved} bytes`;
      add(`global memory: 32-byte sectors the first warp's accesses touch (${at(32)})`, 'bank_conflicts', [g.ok, bytes, '32', '1', '32']);
      add(`global memory: 128-byte lines (transactions) they touch (${at(128)})`, 'bank_conflicts', [g.ok, bytes, '32', '1', '128']);
    }
  }
  if (smem) add('vector width of the shared layout (contiguous elements)', 'contiguity', [smem]);
  if (gmem) add('vector width of the global layout (contiguous elements)', 'contiguity', [gmem]);
  if (gmem && smem) {
    add('TMA modes (box extent : global mode, construct_tma_gbasis)', 'tma_gbasis', [gmem, smem, '_', 'gbasis']);
    add('TMA box (make_tma_copy)', 'tma_gbasis', [gmem, smem, '_', 'box']);
    add('TMA tensor map: global dims', 'tma_gbasis', [gmem, smem, '_', 'gmem_shape']);
    add('TMA tensor map: global strides (elements)', 'tma_gbasis', [gmem, smem, '_', 'gmem_stride']);
  }
  return checks;
}
