// lsp-robust.js: the --robust and --large sessions of lsp-client.js (see there), and the large file that
// bench/lsp.js times.
//
// --robust writes raw bytes to the server (vscode-jsonrpc's writer only sends well-formed messages) and reads the
// answers with vscode-jsonrpc's reader. Each step prints what came back, one line, for FileCheck.
'use strict';

const fs = require('fs');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');
const cp = require('child_process');
const {Client, fileURI, position, range, compare} = require('./lsp-client.js');

const ROOT = path.resolve(__dirname, '..', '..');

/// A file of at least `lines` lines: the examples for gfx942 (or no target) one after another, their comments
/// kept, each kernel renamed with a suffix _N so that no name repeats, under one `target gfx942;`.
function largeFile(lines) {
  const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.tile')).sort()
      .map((f) => fs.readFileSync(path.join(ROOT, 'examples', f), 'utf8'))
      .filter((t) => !/^target\s+gfx950/m.test(t));
  const out = ['target gfx942;', ''];
  for (let n = 0; out.length < lines; ++n) {
    const t = examples[n % examples.length].replace(/^target\s+\w+\s*;/m, '')
        .replace(/\bkernel\s+(\w+)/g, (_, name) => `kernel ${name}_${n}`);
    out.push(...t.split('\n'));
  }
  return out.slice(0, Math.max(lines, out.length)).join('\n') + '\n';
}

/// A server driven with raw bytes.
class RawServer {
  constructor(tilec) {
    this.proc = cp.spawn(tilec, ['lsp'], {stdio: ['pipe', 'pipe', 'inherit']});
    this.proc.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve(signal || code)));
    this.messages = [];
    this.waiters = [];
    const reader = new rpc.StreamMessageReader(this.proc.stdout);
    reader.listen((m) => {
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => !w());
    });
  }
  write(bytes) { this.proc.stdin.write(bytes); }
  send(object) { this.frame(JSON.stringify(object)); }
  frame(body) {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    this.write(Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`), bytes]));
  }
  /// The next message that `match` accepts (messages before it are dropped).
  next(match, what) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within 120 s`)), 120000);
      const look = () => {
        const i = this.messages.findIndex(match);
        if (i < 0) return false;
        clearTimeout(timer);
        resolve(this.messages.splice(0, i + 1)[i]);
        return true;
      };
      if (!look()) this.waiters.push(look);
    });
  }
  answer(id) { return this.next((m) => m.id === id && !m.method, `answer to ${JSON.stringify(id)}`); }
}

function show(m) {
  if (m.error) return `error ${m.error.code}: ${m.error.message}`;
  return `result ${JSON.stringify(m.result).slice(0, 100)}`;
}

async function robust(tilec) {
  const s = new RawServer(tilec);
  const say = (what, m) => console.log(`${what}: id ${JSON.stringify(m.id)} ${show(m)}`);
  const uri = 'file:///robust.tile';
  const hover = (id, params) => ({jsonrpc: '2.0', id, method: 'textDocument/hover', params});

  s.send(hover(1, {textDocument: {uri}, position: {line: 0, character: 0}}));
  say('before initialize', await s.answer(1));
  s.send({jsonrpc: '2.0', method: 'textDocument/didOpen', params: {textDocument: {uri, version: 1, text: 'x'}}});
  s.frame('{"jsonrpc": "2.0", "id": 2, "method": ');
  say('truncated JSON', await s.answer(null));
  s.frame('[1, 2, 3]');
  say('an array', await s.answer(null));
  s.write('Content-Type: application/vscode-jsonrpc\r\n\r\n');
  say('no Content-Length', await s.answer(null));
  s.write('Content-Length: twelve\r\n\r\n');
  say('a bad Content-Length', await s.answer(null));
  s.frame(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])); // {"\xff\xfe":1}
  say('invalid UTF-8', await s.answer(null));
  s.frame('['.repeat(100000) + ']'.repeat(100000));
  say('nested 100000 deep', await s.answer(null));
  s.frame('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}');
  say('an object as id', await s.answer(null));
  s.frame('{"jsonrpc": "2.0", "id": 3}');
  say('no method', await s.answer(3));
  s.frame('{"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": 7}');
  say('params not an object', await s.answer(4));

  s.send({jsonrpc: '2.0', id: 5, method: 'initialize', params: {capabilities: {}}});
  const init = await s.answer(5);
  const capabilities = init.result && Object.keys(init.result.capabilities).sort().join(' ');
  console.log(`initialize: id 5 ${capabilities ? 'capabilities ' + capabilities : show(init)}`);
  s.send({jsonrpc: '2.0', method: 'initialized', params: {}});
  s.send({jsonrpc: '2.0', id: 6, method: 'initialize', params: {capabilities: {}}});
  say('initialize again', await s.answer(6));
  s.send({jsonrpc: '2.0', id: 'seven', method: 'tilec/frobnicate', params: {}});
  say('an unknown request', await s.answer('seven'));
  s.send({jsonrpc: '2.0', method: 'tilec/unknownNotification', params: {}});
  s.send({jsonrpc: '2.0', method: '$/cancelRequest', params: {id: 1}});
  s.send(hover(8, {textDocument: {uri: 'file:///not-open.tile'}, position: {line: 0, character: 0}}));
  say('hover on a file not open', await s.answer(8));
  s.send({jsonrpc: '2.0', method: 'textDocument/didOpen', params: {textDocument: {uri, version: 1}}}); // no text
  s.send({jsonrpc: '2.0', method: 'textDocument/didChange', params: {textDocument: {uri}, contentChanges: 5}});

  // A 4 MB document: a kernel of 150,000 statements, each assigning a tile never declared.
  const huge = 'kernel huge(A: global f16[M, N]) {\n  workgroup 256;\n  grid over A tile [64, 64];\n' +
               '  t = load A[block];\n'.repeat(150000) + '}\n';
  s.send({jsonrpc: '2.0', method: 'textDocument/didOpen',
          params: {textDocument: {uri, languageId: 'tile', version: 1, text: huge}}});
  const published = await s.next((m) => m.method === 'textDocument/publishDiagnostics', 'diagnostics');
  const d = published.params.diagnostics;
  console.log(`a ${(huge.length / 1e6).toFixed(0)} MB document: ${d.length} diagnostics, the first at ` +
              `${range(d[0].range)}: ${d[0].message}`);
  console.log(`  the last: ${d[d.length - 1].message}`);
  s.send(hover(9, {textDocument: {uri}}));
  say('hover without a position', await s.answer(9));
  s.send(hover(10, {textDocument: {uri}, position: {line: -1, character: 2 ** 40}}));
  say('hover at a position out of range', await s.answer(10));
  s.send(hover(11, {textDocument: {uri}, position: {line: 1e9, character: 1e9}}));
  say('hover past the end', await s.answer(11));
  s.send({jsonrpc: '2.0', id: 12, method: 'workspace/executeCommand', params: {command: 'rm -rf', arguments: []}});
  say('an unknown command', await s.answer(12));
  s.send({jsonrpc: '2.0', id: 13, method: 'workspace/executeCommand',
          params: {command: 'tilec.report', arguments: [uri]}});
  say('the report of a file with errors', await s.answer(13));
  s.send({jsonrpc: '2.0', id: 14, method: 'shutdown', params: null}); // null params: some clients send them
  say('shutdown', await s.answer(14));
  s.send(hover(15, {textDocument: {uri}, position: {line: 0, character: 0}}));
  say('after shutdown', await s.answer(15));
  s.write('Content-Length: 1000\r\n\r\n{"jsonrpc": "2.0"'); // and the input ends
  s.proc.stdin.end();
  console.log(`end of input after shutdown: exit status ${await s.exited}`);
}

async function large(tilec, lines) {
  const text = largeFile(lines);
  const file = path.join(require('os').tmpdir(), `lsp-large-${process.pid}.tile`);
  const uri = fileURI(file);
  const client = new Client(tilec);
  await client.initialize();
  const count = text.split('\n').length - 1;
  const kernels = (text.match(/^kernel /gm) || []).length;
  let p = await client.open(uri, text);
  console.log(`opened ${count} lines, ${kernels} kernels: ${p.diagnostics.length} diagnostics`);
  compare(tilec, text, p);
  // An error in a kernel in the middle: a tile whose vec does not divide its columns.
  const all = text.split('\n');
  const middle = all.findIndex((l, i) => i > all.length / 2 && /^  tile a: f16\[128, 32\] warp_raked vec 8;/.test(l));
  all[middle] = all[middle].replace('vec 8', 'vec 3');
  const edited = all.join('\n');
  p = await client.change(uri, edited, 2);
  console.log(`changed line ${middle + 1}: ${p.diagnostics.length} diagnostics`);
  for (const d of p.diagnostics) console.log(`  ${range(d.range)}: ${d.message}`);
  compare(tilec, edited, p);
  // Hover and definition in the last kernel.
  const lastKernel = all.map((l, i) => (/^kernel /.test(l) ? i : -1)).filter((i) => i >= 0).pop();
  const tail = all.slice(lastKernel).join('\n');
  const tileLine = /^  tile (\w+):/m.exec(tail);
  const at = position(tail, `/^  tile ${tileLine[1]}:/${tileLine[1]}`);
  at.line += lastKernel;
  const h = await client.request('textDocument/hover', {textDocument: {uri}, position: at});
  console.log(`hover on line ${at.line + 1}: ${h.contents.value.split('\n')[1]}`);
  const use = all.findIndex((l, i) => i > at.line && new RegExp(`\\b${tileLine[1]}\\b`).test(l));
  const def = await client.request('textDocument/definition', {
    textDocument: {uri}, position: {line: use, character: all[use].search(new RegExp(`\\b${tileLine[1]}\\b`))}});
  console.log(`definition from line ${use + 1}: ${range(def.range)}`);
  const symbols = await client.request('textDocument/documentSymbol', {textDocument: {uri}});
  console.log(`symbols: ${symbols.length} kernels`);
  p = await client.change(uri, text, 3);
  console.log(`changed back: ${p.diagnostics.length} diagnostics`);
  console.log(`exit status ${await client.shutdown()}`);
}

module.exports = {robust, large, largeFile};
