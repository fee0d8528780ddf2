// The page's worker: the WebAssembly module off the page's thread, so that a large request
// (a 256x256 layout, a tiled MMA of 16x16 atoms) never blocks typing. Messages:
//   {type: 'init', module}              the compiled module (first, from the page)
//   {id, type: 'model', state}          -> {id, model}  (core.js `model`; big pictures become scenes)
//   {id, type: 'thread', req, t}        -> {id, values} (core.js `threadValues`)
//   {id, type: 'paint', key, view}      -> {id, bitmap} (raster.js `paint` of a kept scene)
//   {id, type: 'cell', key, x, y}       -> {id, cell}   (raster.js `cellAt`)
//   {id, type: 'highlight', key, cells} -> {id, count}  (a thread's cells outlined in later paints)
//   {id, type: 'svg', key}              -> {id, svg}    (the SVG text of a kept scene, for export)
//   {id, type: 'png', svg, dark}        -> {id, png}    (a PNG blob of an SVG picture, for export)
import init, { answer, view } from './pkg/cute_wasm.js';
import { makeApi, model, threadValues } from './core.js';
import { parseSvg, countRects, paint, cellAt } from './raster.js';

/** Pictures with more cells than this are painted here rather than put into the page as SVG. */
export const RASTER_CELLS = 6000;

// The page sends the module it compiled ({type: 'init', module}), so it is compiled once.
let started;
const ready = new Promise((resolve) => {
  started = resolve;
}).then((module) => init({ module_or_path: module }));
const api = makeApi(answer, view);
// The scenes of the latest model's big pictures, by key.
let scenes = new Map();
let nextKey = 1;

/** A picture answer, as the page gets it: `{ok: SVG}` when small, `{raster: {key, width,
 * height, cells}}` when big (the scene stays here), or the error. */
function keep(r) {
  if (r.ok === undefined || countRects(r.ok) <= RASTER_CELLS) return r;
  const scene = parseSvg(r.ok);
  scene.svg = r.ok;
  const key = nextKey++;
  scenes.set(key, scene);
  // The colour classes the cells use, with their fills (the page's legend).
  const used = new Set(scene.rects.map((x) => x.cls));
  const legend = [...used].filter((c) => scene.css[c] && scene.css[c].fill).map((c) => [c, scene.css[c].fill]);
  return { raster: { key, width: scene.width, height: scene.height, cells: scene.rects.length, legend } };
}

function handle(msg) {
  switch (msg.type) {
    case 'model': {
      scenes = new Map();
      const m = model(api, msg.state);
      if (m.picture.single) m.picture.single = keep(m.picture.single);
      if (m.picture.figures) for (const f of m.picture.figures) f.r = keep(f.r);
      return { model: m };
    }
    case 'thread':
      return { values: threadValues(api, msg.req, msg.t) };
    case 'paint': {
      const scene = scenes.get(msg.key);
      if (!scene) return { bitmap: null };
      const v = msg.view;
      const canvas = new OffscreenCanvas(Math.max(1, v.w), Math.max(1, v.h));
      paint(canvas, scene, v);
      const bitmap = canvas.transferToImageBitmap();
      return { bitmap, transfer: [bitmap] };
    }
    case 'cell': {
      const scene = scenes.get(msg.key);
      return { cell: scene ? cellAt(scene, msg.x, msg.y) : null };
    }
    case 'png': {
      // The picture at twice its size, at most 8192 pixels a side.
      const scene = parseSvg(msg.svg);
      const k = Math.min(2, 8192 / Math.max(scene.width, scene.height, 1));
      const w = Math.max(1, Math.round(scene.width * k));
      const h = Math.max(1, Math.round(scene.height * k));
      const canvas = new OffscreenCanvas(w, h);
      paint(canvas, scene, { x0: 0, y0: 0, scale: k, w, h, dpr: 1 });
      if (msg.dark) {
        const out = new OffscreenCanvas(w, h);
        const g = out.getContext('2d');
        g.filter = 'invert(1) hue-rotate(180deg)';
        g.drawImage(canvas, 0, 0);
        return { later: out.convertToBlob({ type: 'image/png' }).then((png) => ({ png })) };
      }
      return { later: canvas.convertToBlob({ type: 'image/png' }).then((png) => ({ png })) };
    }
    case 'highlight': {
      // Outlines the cells of a thread: `cells` are [operand, row, col] of an MMA picture's
      // cells, or [panel, row, col] of a panel's grid (the first panel when the name is '').
      const scene = scenes.get(msg.key);
      if (!scene) return { ok: false };
      scene.highlight = new Set();
      if (!scene.byData) {
        scene.byData = new Map();
        scene.rects.forEach((r, i) => {
          if (r.data) scene.byData.set(`${r.data.op} ${r.data.row} ${r.data.col}`, i);
        });
      }
      for (const [name, row, col] of msg.cells) {
        let i = scene.byData.get(`${name} ${row} ${col}`);
        if (i === undefined && scene.panels.length > 0 && name === '') {
          const p = scene.panels[0];
          const y0 = scene.rects[p.cells[0]].y;
          let cols = p.cells.findIndex((j) => scene.rects[j].y !== y0);
          if (cols < 0) cols = p.cells.length;
          i = p.cells[row * cols + col];
        }
        if (i !== undefined) scene.highlight.add(i);
      }
      return { ok: true, count: scene.highlight.size };
    }
    case 'svg': {
      const scene = scenes.get(msg.key);
      return { svg: scene ? scene.svg : null };
    }
    default:
      return { error: `unknown message ${msg.type}` };
  }
}

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type === 'init') {
    started(msg.module);
    return;
  }
  await ready;
  let out;
  try {
    out = handle(msg);
    if (out.later) out = await out.later;
  } catch (err) {
    out = { error: String((err && err.message) || err) };
  }
  const transfer = out.transfer || [];
  delete out.transfer;
  self.postMessage({ id: msg.id, ...out }, transfer);
};
