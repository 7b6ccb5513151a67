#!/usr/bin/env node
// Loads tilec's HTML reports (--emit=html) in headless Chromium, driven by playwright-core, and checks each page
// against the compiler's own facts, obtained apart from the HTML generator:
//   - every register tile's SVG grid: the thread each cell's <title> names (and its data-t, and its wave colour) equals
//     the owner map of `tilec --emit=layout --format=json`, for every element of the rows drawn, each cell once;
//   - every LDS bank map: the lanes marked as conflicting, the phase and the wave equal the bank model's in
//     `tilec --emit=report --format=json` (lds_accesses), and every costed access has its map;
//   - every MCA timeline has a row per instruction of its loop and as many MFMA rows as the loop has MFMAs;
//   - hovering a tile map's first cell outlines the cells of its thread and no other;
//   - no console error, no uncaught exception, no request but the page itself;
//   - a screenshot of the page is not blank (decoded by the browser itself: enough non-white pixels and colours).
// It prints one line per page with its size and load time, then "html-check: N pages, M problems".
//
//   node check-reports.js [--tilec TILEC FILE.tile ...] DIR
// With --tilec it first writes NAME.html, NAME.layout.json and NAME.report.json into DIR for each FILE.tile; then it
// checks every NAME.html in DIR against its two JSON files. Exit status 1 when a check fails.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const modules = path.join(__dirname, '..', '..', '..', 'editors', 'test', 'node_modules');
let chromium;
try {
  ({ chromium } = require(path.join(modules, 'playwright-core')));
} catch (e) {
  console.error(`check-reports.js: error: cannot load playwright-core from ${modules} (${e.code}); install it with ` +
                `'npm ci' in editors/test (scripts/install-deps.sh does)`);
  process.exit(2);
}
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';

function parseArgs(argv) {
  const out = { tilec: null, files: [], dir: null };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--tilec') out.tilec = argv[++i];
    else if (argv[i].endsWith('.tile')) out.files.push(argv[i]);
    else out.dir = argv[i];
  }
  if (!out.dir) {
    console.error('usage: check-reports.js [--tilec TILEC FILE.tile ...] DIR');
    process.exit(2);
  }
  return out;
}

function makeReports(tilec, files, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const file of files) {
    const name = path.basename(file, '.tile');
    const run = (args, out) => execFileSync(tilec, [file, ...args, '-o', path.join(dir, out)], { stdio: 'inherit' });
    run(['--emit=html'], `${name}.html`);
    run(['--emit=layout', '--format=json'], `${name}.layout.json`);
    run(['--emit=report', '--format=json'], `${name}.report.json`);
  }
}

// What the page draws, read from its DOM: tile maps and bank maps.
function readPage() {
  const num = (e, a) => Number(e.getAttribute(a));
  const tiles = Array.from(document.querySelectorAll('svg.tilemap')).map((svg) => ({
    kernel: svg.dataset.kernel, tile: svg.dataset.tile, vec: num(svg, 'data-vec'), cw: num(svg, 'data-cw'),
    ch: num(svg, 'data-ch'), x0: num(svg, 'data-x0'), y0: num(svg, 'data-y0'), rowsDrawn: num(svg, 'data-rows-drawn'),
    cells: Array.from(svg.querySelectorAll('rect.cell')).map((r) => [num(r, 'x'), num(r, 'y'), num(r, 'width'),
      r.getAttribute('data-t'), r.getAttribute('class'), r.querySelector('title').textContent]),
  }));
  const banks = Array.from(document.querySelectorAll('svg.bankmap')).map((svg) => ({
    kernel: svg.closest('section.kernel').id.replace(/^kernel-/, ''), what: svg.dataset.what,
    phase: num(svg, 'data-phase'), wave: num(svg, 'data-wave'),
    lanes: Array.from(svg.querySelectorAll('g[data-lane]')).map((g) => Number(g.dataset.lane)),
    conflicting: Array.from(svg.querySelectorAll('g.conflict')).map((g) => Number(g.dataset.lane)),
  }));
  const timelines = Array.from(document.querySelectorAll('svg.timeline')).map((svg) => ({
    kernel: svg.closest('section.kernel').id.replace(/^kernel-/, ''), instructions: num(svg, 'data-instructions'),
    mfma: num(svg, 'data-mfma'), steps: svg.querySelectorAll('g.step').length,
    mfmaSteps: svg.querySelectorAll('g.step[data-kind="mfma"]').length,
  }));
  // Hovering a tile map's first cell outlines exactly the cells of its thread.
  let hover = null;
  const map = document.querySelector('svg.tilemap');
  if (map) {
    const cell = map.querySelector('rect.cell');
    cell.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    const lit = Array.from(map.querySelectorAll('.lit'));
    hover = { tile: map.dataset.tile, thread: cell.dataset.t, lit: lit.length,
              same: map.querySelectorAll(`rect.cell[data-t="${cell.dataset.t}"]`).length,
              strangers: lit.filter((c) => c.dataset.t !== cell.dataset.t).length };
  }
  return { tiles, banks, timelines, hover };
}

function checkTiles(name, layout, drawn, problems) {
  for (const kernel of layout.kernels)
    for (const tile of kernel.tiles) {
      const svg = drawn.tiles.find((t) => t.kernel === kernel.name && t.tile === tile.name);
      const where = `${name}: kernel ${kernel.name}, tile ${tile.name}`;
      if (!svg) { problems.push(`${where}: no thread map`); continue; }
      const [rows, cols] = tile.shape;
      const seen = new Set();
      for (const [x, y, width, dataT, cls, title] of svg.cells) {
        const r = Math.round((y - svg.y0) / svg.ch), a = Math.round((x - svg.x0) / svg.cw);
        const m = /thread (\d+) \(wave (\d+), lane (\d+)\)/.exec(title);
        if (!m) { problems.push(`${where}: cell at (${x}, ${y}) has no thread in its title`); continue; }
        const thread = Number(m[1]);
        if (String(thread) !== dataT || Number(m[2]) !== Math.floor(thread / 64) || Number(m[3]) !== thread % 64 ||
            !cls.split(' ').includes(`w${Math.floor(thread / 64) % 16}`) || width !== svg.cw) {
          problems.push(`${where}: cell [${r}, ${a * svg.vec}] says '${title}' with data-t ${dataT}, class ${cls}`);
          continue;
        }
        if (seen.has(`${r},${a}`)) problems.push(`${where}: cell [${r}, ${a * svg.vec}] drawn twice`);
        seen.add(`${r},${a}`);
        for (let c = a * svg.vec; c < (a + 1) * svg.vec; ++c)
          if (r >= rows || c >= cols || tile.owner[r][c] !== thread) {
            problems.push(`${where}: element [${r}, ${c}] is drawn as thread ${thread}, the owner map says ` +
                          `${r < rows && c < cols ? tile.owner[r][c] : 'outside the tile'}`);
            break;
          }
      }
      if (seen.size !== svg.rowsDrawn * cols / svg.vec)
        problems.push(`${where}: ${seen.size} cells drawn for ${svg.rowsDrawn} rows of ${cols / svg.vec} accesses`);
      if (svg.rowsDrawn !== rows) console.log(`  ${where}: ${svg.rowsDrawn} of ${rows} rows drawn`);
    }
}

function checkBanks(name, report, drawn, problems) {
  for (const kernel of report.kernels)
    for (const access of kernel.lds_accesses || []) {
      const where = `${name}: kernel ${kernel.name}, ${access.what}`;
      const svg = drawn.banks.find((b) => b.kernel === kernel.name && b.what === access.what);
      if (!svg) { problems.push(`${where}: no bank map`); continue; }
      const marked = svg.conflicting.join(','), model = access.worst_phase_conflicting_lanes.join(',');
      if (marked !== model) problems.push(`${where}: lanes marked [${marked}], the bank model's [${model}]`);
      if (svg.phase !== access.worst_phase || svg.wave !== access.worst_wave)
        problems.push(`${where}: phase ${svg.phase} of wave ${svg.wave} drawn, the model's worst is phase ` +
                      `${access.worst_phase} of wave ${access.worst_wave}`);
      if (access.worst_ways > 1 && svg.conflicting.length === 0)
        problems.push(`${where}: a ${access.worst_ways}-way conflict with no lane marked`);
    }
}

function checkHover(name, drawn, problems) {
  const h = drawn.hover;
  if (h && (h.lit !== h.same || h.strangers))
    problems.push(`${name}: hovering thread ${h.thread} in tile ${h.tile} outlined ${h.lit} cells (${h.strangers} of ` +
                  `other threads); the thread has ${h.same}`);
}

// A loop's timeline has a row per instruction of the loop and an MFMA row per MFMA it counts.
function checkTimelines(name, drawn, problems) {
  for (const t of drawn.timelines)
    if (t.steps !== t.instructions || t.mfmaSteps !== t.mfma)
      problems.push(`${name}: kernel ${t.kernel}: the timeline has ${t.steps} rows (${t.mfmaSteps} MFMA) for a loop ` +
                    `of ${t.instructions} instructions (${t.mfma} MFMA)`);
}

// Decodes a PNG in the page itself and counts its non-white pixels and distinct colours.
async function inkOf(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width; canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let ink = 0; const colours = new Set();
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) ++ink;
      if (colours.size < 64) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    }
    return { ink: ink / (d.length / 4), colours: colours.size };
  }, png.toString('base64'));
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.tilec) makeReports(args.tilec, args.files, args.dir);
  const names = fs.readdirSync(args.dir).filter((f) => f.endsWith('.html')).map((f) => f.slice(0, -5)).sort();
  const problems = [];
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const scratch = await context.newPage();
  let current = '';
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`${current}: console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`${current}: uncaught exception: ${e.message}`));
  page.on('request', (r) => {
    if (r.url() !== page.url() && !r.url().endsWith(`${current}.html`))
      problems.push(`${current}: request for ${r.url()}`);
  });
  for (const name of names) {
    current = name;
    const file = path.resolve(args.dir, `${name}.html`);
    const start = Date.now();
    await page.goto('file://' + file, { waitUntil: 'load' });
    const loadMs = Date.now() - start;
    const drawn = await page.evaluate(readPage);
    const read = (kind) => JSON.parse(fs.readFileSync(path.join(args.dir, `${name}.${kind}.json`), 'utf8'));
    checkTiles(name, read('layout'), drawn, problems);
    checkBanks(name, read('report'), drawn, problems);
    checkTimelines(name, drawn, problems);
    checkHover(name, drawn, problems);
    const { ink, colours } = await inkOf(scratch, await page.screenshot());
    if (ink < 0.01 || colours < 8) problems.push(`${name}: the screenshot is blank (${(ink * 100).toFixed(2)}% ink, ` +
                                                 `${colours} colours)`);
    console.log(`${name}: ${fs.statSync(file).size} bytes, loaded in ${loadMs} ms, ${drawn.tiles.length} tile maps, ` +
                `${drawn.banks.length} bank maps, ${drawn.timelines.length} timelines`);
  }
  await browser.close();
  for (const p of problems) console.log(`html-check: ${p}`);
  console.log(`html-check: ${names.length} pages, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => { console.error(`check-reports.js: error: ${e.message}`); process.exit(2); });
