#!/usr/bin/env node
// Language server latency (docs/editors.md, "Latency"): the time from a didChange to the publishDiagnostics that
// answers it, on a file of 10,000 lines.
//
//   node bench/lsp.js [--tilec PATH] [--lines N] [--edits N]
//
// The file is editors/test/lsp-robust.js's large file: the gfx942 examples one after another, comments included,
// each kernel renamed, repeated to N lines (default 10,000: about 340 kernels). The benchmark opens it (and says how
// long the first analysis took), then makes --edits changes (default 40) one at a time, each waiting for its
// diagnostics, as a user typing in one kernel would: a change to a tile's declaration, then back to the original
// text, in turn in a kernel near the start, the middle and the end, the change cycling through a new error (a vec
// that is not a power of two), a different valid vec and a syntax error (a missing ';'). Every change sends the
// whole text (full synchronization). It prints the median, 90th percentile and worst time per kind of edit. Not a
// test: nothing is checked but that each change is answered. The client is vscode-jsonrpc (editors/test/node_modules:
// `npm ci` in editors/test).
'use strict';

const path = require('path');
const {Client, fileURI} = require('../editors/test/lsp-client.js');
const {largeFile} = require('../editors/test/lsp-robust.js');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const worst = sorted[sorted.length - 1];
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, worst ${worst.toFixed(1)} ms`;
}

async function main() {
  const tilec = option('--tilec', path.resolve(__dirname, '..', 'build', 'tools', 'tilec'));
  const lines = Number(option('--lines', 10000)), edits = Number(option('--edits', 40));
  const text = largeFile(lines);
  const all = text.split('\n');
  const tiles = all.map((l, i) => (/^  tile a: f16\[128, 32\] warp_raked vec 8;/.test(l) ? i : -1))
      .filter((i) => i >= 0);
  const places = [tiles[0], tiles[Math.floor(tiles.length / 2)], tiles[tiles.length - 1]];
  const original = all[places[0]];
  const variants = [['error', original.replace('vec 8', 'vec 3')], ['valid', original.replace('vec 8', 'vec 4')],
                    ['syntax', original.replace(';', '')]];

  const client = new Client(tilec);
  await client.initialize();
  const uri = fileURI(path.join(require('os').tmpdir(), 'lsp-bench.tile'));
  let start = process.hrtime.bigint();
  let published = await client.open(uri, text);
  const openMs = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`${all.length - 1} lines, ${(text.match(/^kernel /gm) || []).length} kernels, ${text.length} bytes; ` +
              `open: ${(openMs / 1000).toFixed(2)} s to the first diagnostics (${published.diagnostics.length})`);

  const times = {error: [], valid: [], syntax: [], back: []};
  for (let n = 0, version = 1; n < edits; ++n) {
    // Even edits change a line, odd ones put it back.
    const step = Math.floor(n / 2), line = places[step % places.length];
    const [kind, text] = n % 2 ? ['back', original] : variants[Math.floor(step / places.length) % variants.length];
    all[line] = text;
    start = process.hrtime.bigint();
    published = await client.change(uri, all.join('\n'), ++version);
    times[kind].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  for (const [kind, ms] of Object.entries(times))
    if (ms.length) console.log(`didChange -> publishDiagnostics, ${kind} edit (${ms.length}): ${stats(ms)}`);
  console.log(`all ${edits} edits: ${stats([].concat(...Object.values(times)))}`);
  console.log(`exit status ${await client.shutdown()}`);
}

main().catch((e) => {
  console.error(`bench/lsp.js: ${e.message}`);
  process.exit(1);
});
