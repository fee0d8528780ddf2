// Big pictures drawn as pixels, off the page's thread. The library's SVG pictures are made of a
// few kinds of elements (render/svg.rs, render/mma.rs): a <style> block of classes, <rect>s
// (cells), <text>s (labels, headers, titles), <path>s of horizontal and vertical lines (the
// grid, highlights) and <g> groups (`panel`, `cells`, `labels`). A picture of tens of thousands
// of cells is read once into a scene here and painted onto an OffscreenCanvas at the scale and
// place the page asks for, labels left out where they would be too small to read (level of
// detail) and thread colours kept; the page shows the bitmap, so it never holds a DOM of the
// picture. Smaller pictures stay SVG in the page.

const ENTITIES = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
const unescape = (s) => s.replace(/&(lt|gt|amp|quot|#39);/g, (m) => ENTITIES[m]);

function attrs(text) {
  const a = {};
  const re = /([\w:-]+)="([^"]*)"/g;
  let m;
  while ((m = re.exec(text)) !== null) a[m[1]] = unescape(m[2]);
  return a;
}

function decls(text) {
  const d = {};
  for (const part of text.split(';')) {
    const i = part.indexOf(':');
    if (i > 0) d[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return d;
}

/** The classes of a <style> block: name -> declarations; `text` rules under the name `text`. */
export function styles(css) {
  const out = {};
  const re = /(\.?[\w-]+)\{([^}]*)\}/g;
  let m;
  while ((m = re.exec(css)) !== null) out[m[1].replace(/^\./, '')] = decls(m[2]);
  return out;
}

const num = (x, d = 0) => {
  const v = parseFloat(x);
  return Number.isFinite(v) ? v : d;
};

/** A picture's SVG text read into a scene: its size, rects, texts, line paths and panels. */
export function parseSvg(svg) {
  const scene = { width: 0, height: 0, font: 12, css: {}, rects: [], texts: [], paths: [], panels: [] };
  const re = /<(\/?)([a-zA-Z]+)([^>]*?)(\/?)>([^<]*)/g;
  const stack = [];
  let panel = null;
  let text = null;
  let m;
  while ((m = re.exec(svg)) !== null) {
    const [, close, tag, rest, selfClose, after] = m;
    if (close) {
      if (tag === 'g') {
        const g = stack.pop();
        if (g && g.cls === 'panel') panel = null;
      } else if (tag === 'text') {
        text = null;
      }
      continue;
    }
    const a = attrs(rest);
    switch (tag) {
      case 'svg': {
        const vb = (a.viewBox || '').split(/\s+/).map(Number);
        scene.width = vb.length === 4 ? vb[2] : num(a.width);
        scene.height = vb.length === 4 ? vb[3] : num(a.height);
        scene.font = num(a['font-size'], 12);
        break;
      }
      case 'style':
        // (the rules hold no '<': the whole block is the text after the tag)
        scene.css = styles(after);
        break;
      case 'g': {
        const g = { cls: a.class || '', style: a.style ? decls(a.style) : null, id: a.id || '' };
        stack.push(g);
        if (g.cls === 'panel') {
          panel = { title: '', cells: [], labels: [] };
          scene.panels.push(panel);
        }
        break;
      }
      case 'rect': {
        const r = {
          x: num(a.x), y: num(a.y),
          w: a.width === '100%' ? scene.width : num(a.width),
          h: a.height === '100%' ? scene.height : num(a.height),
          cls: a.class || '', fill: a.fill || null, data: null,
        };
        if (a['data-t'] !== undefined) {
          r.data = { op: a['data-op'], row: a['data-row'], col: a['data-col'], t: a['data-t'], v: a['data-v'] };
        }
        const group = stack.length ? stack[stack.length - 1] : null;
        if (panel && group && group.cls === 'cells') panel.cells.push(scene.rects.length);
        scene.rects.push(r);
        break;
      }
      case 'text':
      case 'tspan': {
        const group = stack.length ? stack[stack.length - 1] : null;
        const size = group && group.style && group.style['font-size'] ? num(group.style['font-size']) : null;
        if (tag === 'text') {
          text = { x: num(a.x), y: num(a.y), cls: a.class || '', size, lines: [unescape(after)] };
          scene.texts.push(text);
          if (panel && group && group.cls === 'labels') panel.labels.push(text);
          if (panel && text.cls === 'title') panel.title = text.lines[0];
        } else if (text) {
          text.lines.push(unescape(after));
          text.tspan = { cls: a.class || '', dy: num(a.dy) };
        }
        if (selfClose) text = null;
        break;
      }
      case 'path': {
        const segs = [];
        const pre = /M(-?[\d.]+) (-?[\d.]+)([hv])(-?[\d.]+)/g;
        let p;
        while ((p = pre.exec(a.d || '')) !== null) {
          const [x, y, d] = [Number(p[1]), Number(p[2]), Number(p[4])];
          if (p[3] === 'h') segs.push(x, y, x + d, y);
          else segs.push(x, y, x, y + d);
        }
        scene.paths.push({ cls: a.class || '', segs: Float64Array.from(segs) });
        break;
      }
      default:
        break;
    }
  }
  return scene;
}

/** The number of cells (`rect`s) of an SVG picture's text, counted without reading it. */
export function countRects(svg) {
  let n = 0;
  let i = -1;
  while ((i = svg.indexOf('<rect', i + 1)) !== -1) n += 1;
  return n;
}

/** The smallest on-screen height of a label a picture keeps, in CSS pixels (level of detail). */
export const MIN_LABEL_PX = 6;

/**
 * Paints `scene` onto `canvas` (an OffscreenCanvas, made `w` x `h` device pixels): picture
 * units from (`x0`, `y0`) at `scale` device pixels per unit; `dpr` device pixels make a CSS
 * pixel (labels under `MIN_LABEL_PX` CSS pixels are left out, cell outlines under 4).
 */
export function paint(canvas, scene, { x0, y0, scale, w, h, dpr }) {
  canvas.width = w;
  canvas.height = h;
  const g = canvas.getContext('2d');
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.fillStyle = '#fff';
  g.fillRect(0, 0, w, h);
  g.setTransform(scale, 0, 0, scale, -x0 * scale, -y0 * scale);
  const x1 = x0 + w / scale;
  const y1 = y0 + h / scale;
  const css = scene.css;
  const fillOf = (r) => {
    const c = css[r.cls];
    return (c && c.fill) || r.fill || null;
  };
  // Cells, culled to the view.
  for (const r of scene.rects) {
    if (r.x > x1 || r.y > y1 || r.x + r.w < x0 || r.y + r.h < y0) continue;
    const f = fillOf(r);
    if (f && f !== 'none') {
      g.fillStyle = f;
      g.fillRect(r.x, r.y, r.w, r.h);
    }
    const c = css[r.cls];
    if (c && c.stroke && c.stroke !== 'none' && Math.min(r.w, r.h) * scale >= 4 * dpr) {
      g.strokeStyle = c.stroke;
      g.lineWidth = num(c['stroke-width'], 1);
      g.strokeRect(r.x, r.y, r.w, r.h);
    }
  }
  // Lines: the grid is drawn at least a device pixel wide, fainter when the cells are small.
  for (const p of scene.paths) {
    const c = css[p.cls] || {};
    if (!c.stroke || c.stroke === 'none') continue;
    const width = num(c['stroke-width'], 1);
    g.strokeStyle = c.stroke;
    g.lineWidth = Math.max(width, 1 / scale);
    g.globalAlpha = width * scale < 0.5 ? 0.35 : 1;
    g.beginPath();
    const s = p.segs;
    for (let i = 0; i < s.length; i += 4) {
      if (Math.max(s[i], s[i + 2]) < x0 || Math.min(s[i], s[i + 2]) > x1
        || Math.max(s[i + 1], s[i + 3]) < y0 || Math.min(s[i + 1], s[i + 3]) > y1) continue;
      g.moveTo(s[i], s[i + 1]);
      g.lineTo(s[i + 2], s[i + 3]);
    }
    g.stroke();
    g.globalAlpha = 1;
  }
  // A selected thread's cells: the others dimmed, its own outlined.
  if (scene.highlight && scene.highlight.size > 0) {
    g.fillStyle = 'rgba(255,255,255,0.6)';
    scene.rects.forEach((r, i) => {
      if ((r.data || scene.panels.some((p) => p.cells.length && i >= p.cells[0] && i <= p.cells[p.cells.length - 1]))
        && !scene.highlight.has(i)) g.fillRect(r.x, r.y, r.w, r.h);
    });
    g.strokeStyle = '#000';
    g.lineWidth = Math.max(3, 2 / scale);
    for (const i of scene.highlight) {
      const r = scene.rects[i];
      g.strokeRect(r.x, r.y, r.w, r.h);
    }
  }
  // Labels, where they are big enough to read.
  const base = css.text || {};
  for (const t of scene.texts) {
    const c = css[t.cls] || {};
    const size = t.size || num(c['font-size'], scene.font);
    if (size * scale < MIN_LABEL_PX * dpr) continue;
    if (t.x > x1 + 200 || t.y - size > y1 || t.y < y0 || t.x < x0 - 400) continue;
    g.font = `${c['font-weight'] || ''} ${size}px "DejaVu Sans Mono", monospace`;
    g.textAlign = (c['text-anchor'] || base['text-anchor']) === 'start' ? 'left' : 'center';
    g.fillStyle = c.fill || base.fill || '#000';
    g.fillText(t.lines[0], t.x, t.y);
    if (t.lines.length > 1 && t.tspan) {
      const tc = css[t.tspan.cls] || {};
      g.font = `${num(tc['font-size'], size)}px "DejaVu Sans Mono", monospace`;
      g.fillStyle = tc.fill || '#333';
      g.fillText(t.lines[1], t.x, t.y + t.tspan.dy);
    }
  }
}

/**
 * The cell of `scene` at picture point (`x`, `y`): `{panel title, k, m, n, rows, cols, label,
 * data}` (grid position within its panel, the label's text, the `data-*` of an MMA cell), or
 * null.
 */
export function cellAt(scene, x, y) {
  for (let i = scene.rects.length - 1; i >= 1; i--) {
    const r = scene.rects[i];
    if (x < r.x || y < r.y || x >= r.x + r.w || y >= r.y + r.h) continue;
    if (r.data) return { data: r.data, label: `T${r.data.t} V${r.data.v}` };
    for (const p of scene.panels) {
      const k = p.cells.indexOf(i);
      if (k < 0) continue;
      const y0 = scene.rects[p.cells[0]].y;
      let cols = p.cells.findIndex((j) => scene.rects[j].y !== y0);
      if (cols < 0) cols = p.cells.length;
      const label = p.labels[k] ? p.labels[k].lines.join(' ') : '';
      return { k, m: Math.floor(k / cols), n: k % cols, rows: p.cells.length / cols, cols, label, title: p.title };
    }
    if (r.cls !== 'e' && r.cls !== 'frame') return null;
  }
  return null;
}
