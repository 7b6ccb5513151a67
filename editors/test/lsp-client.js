#!/usr/bin/env node
// lsp-client.js: a Language Server Protocol client for `tilec lsp`, built on vscode-jsonrpc (the JSON-RPC library of
// VS Code's own language client), for test/Editors and bench/lsp.js.
//
//   node lsp-client.js TILEC FILE ACTION...
//       Starts `TILEC lsp` (with the words of $TILEC_LSP_ARGS after it), initializes it as VS Code does (UTF-16
//       positions, Markdown hovers, hierarchical symbols), opens FILE and runs the actions in order, then shuts the
//       server down and prints its exit status. Positions and ranges are printed 1-based, as tilec prints them: L:C,
//       or L:C-L:C with the end column just past the range; columns count the negotiated encoding's units (UTF-16
//       unless utf-8 was agreed). A position SPEC is /REGEX/WORD or /REGEX/WORD#N: the start of the Nth (default 1st)
//       whole word WORD on the first line REGEX (JavaScript syntax) finds.
//         --encoding            the position encoding the server chose: utf-16, or utf-8 when
//                               $TILEC_LSP_ENCODINGS (the encodings offered, comma-separated) offers it
//         --diagnostics         the diagnostics published for the current text
//         --compare             checks them against what `TILEC FILE` prints for the current text: every error
//                               and warning at its line and column, with the range its caret line underlines, the
//                               same severity and message, and its notes; prints "compare: OK ..." or each
//                               difference (exit status 1)
//         --hover SPEC          the hover text and the range it covers
//         --definition SPEC     where the name at SPEC is declared
//         --symbols             the document symbols, as a tree
//         --lens                the code lenses
//         --report [KERNEL]     runs the tilec.report command (the whole file without KERNEL; KERNEL is a name,
//                               not starting with --)
//         --replace /REGEX/TEXT replaces the first match of REGEX in the text with TEXT (didChange, full text)
//         --splice /REGEX/TEXT  the same as a ranged change (the range of the match in the negotiated encoding)
//         --change-to FILE2     replaces the text with FILE2's (didChange)
//         --close               closes the document (its diagnostics are cleared)
//         --no-shutdown         at the end, sends exit without shutdown (the server's status is then 1)
//   node lsp-client.js TILEC --robust
//       Sends what a broken or hostile client might: requests before initialize, malformed JSON, a header without
//       Content-Length, invalid UTF-8, deep nesting, unknown methods, bad parameters, a 20 MB document, requests
//       after shutdown, a truncated message at the end of input. Prints one line per answer.
//   node lsp-client.js TILEC --large LINES
//       Opens a file of LINES lines (the gfx942 examples, kernels renamed, repeated), then edits a kernel in its
//       middle, hovers and goes to definitions near its end, and checks the diagnostics against tilec's.
//
// node_modules next to this file comes from `npm ci` here (scripts/install-deps.sh runs it).
'use strict';

const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

let rpc;
try {
  rpc = require('vscode-jsonrpc/node');
} catch (e) {
  const modules = path.join(__dirname, 'node_modules');
  process.stderr.write(`lsp-client.js: error: cannot load vscode-jsonrpc from ${modules} ` +
                       `(${e.message.split('\n')[0]}); install it with 'npm ci' in editors/test ` +
                       `(scripts/install-deps.sh does it)\n`);
  process.exit(2);
}

const ROOT = path.resolve(__dirname, '..', '..');
const TIMEOUT_MS = 120000; // per wait; a sanitized build on a loaded machine is slow, a hang is not

function fail(message) {
  process.stderr.write(`lsp-client.js: error: ${message}\n`);
  process.exit(2);
}

function within(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/// A running `tilec lsp` and a vscode-jsonrpc connection to it.
class Client {
  constructor(tilec, args = (process.env.TILEC_LSP_ARGS || '').split(' ').filter((a) => a)) {
    this.proc = cp.spawn(tilec, ['lsp', ...args], {stdio: ['pipe', 'pipe', 'inherit']});
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({code, signal})));
    this.proc.stdin.on('error', () => {}); // a server that exits closes the pipe
    this.conn = rpc.createMessageConnection(new rpc.StreamMessageReader(this.proc.stdout),
                                            new rpc.StreamMessageWriter(this.proc.stdin));
    this.published = new Map(); // uri -> [params of each publishDiagnostics]
    this.waiting = [];
    this.logs = [];
    this.conn.onNotification('textDocument/publishDiagnostics', (params) => {
      if (!this.published.has(params.uri)) this.published.set(params.uri, []);
      this.published.get(params.uri).push(params);
      this.waiting = this.waiting.filter((w) => !w(params));
    });
    this.conn.onNotification('window/logMessage', (params) => this.logs.push(params));
    this.conn.onError(() => {});
    this.conn.onClose(() => {});
    this.conn.listen();
  }

  async initialize(capabilities) {
    capabilities = capabilities || {
      general: {positionEncodings: (process.env.TILEC_LSP_ENCODINGS || 'utf-16').split(',')},
      textDocument: {
        hover: {contentFormat: ['markdown', 'plaintext']},
        documentSymbol: {hierarchicalDocumentSymbolSupport: true},
      },
    };
    const result = await this.request('initialize', {processId: process.pid, rootUri: null, capabilities});
    this.conn.sendNotification('initialized', {});
    this.encoding = result.capabilities.positionEncoding || 'utf-16';
    return result;
  }

  request(method, params) { return within(this.conn.sendRequest(method, params), method); }
  notify(method, params) { return this.conn.sendNotification(method, params); }

  /// The next publishDiagnostics for `uri` with `version` (any version when undefined).
  diagnostics(uri, version) {
    return within(new Promise((resolve) => {
      this.waiting.push((p) => {
        if (p.uri !== uri || (version !== undefined && p.version !== version)) return false;
        resolve(p);
        return true;
      });
    }), `publishDiagnostics of ${uri}`);
  }

  async open(uri, text, version = 1) {
    const published = this.diagnostics(uri, version);
    await this.notify('textDocument/didOpen', {textDocument: {uri, languageId: 'tile', version, text}});
    return published;
  }

  async change(uri, text, version) {
    const published = this.diagnostics(uri, version);
    await this.notify('textDocument/didChange', {textDocument: {uri, version}, contentChanges: [{text}]});
    return published;
  }

  async shutdown(properly = true) {
    if (properly) await this.request('shutdown', null);
    await this.notify('exit');
    const {code, signal} = await within(this.exited, 'exit');
    this.conn.dispose();
    return signal ? `signal ${signal}` : `${code}`;
  }
}

// ---- Printing ----

function fileURI(file) { return 'file://' + path.resolve(file).split(path.sep).map(encodeURIComponent).join('/'); }
function pos(p) { return `${p.line + 1}:${p.character + 1}`; }
function range(r) { return `${pos(r.start)}-${pos(r.end)}`; }
const SEVERITY = {1: 'error', 2: 'warning', 3: 'information', 4: 'hint'};
const SYMBOL_KIND = {12: 'function', 13: 'variable', 14: 'constant', 18: 'array', 19: 'object', 23: 'struct'};

function printDiagnostics(p) {
  console.log(`diagnostics (version ${p.version}): ${p.diagnostics.length}`);
  for (const d of p.diagnostics) {
    console.log(`  ${range(d.range)} ${SEVERITY[d.severity]} [${d.source}]: ${d.message}`);
    for (const n of d.relatedInformation || []) console.log(`    note ${range(n.location.range)}: ${n.message}`);
  }
}

/// The position of SPEC (/REGEX/WORD#N) in `text`, its character counted in UTF-16 code units (JavaScript's string
/// indices) or, with `encoding` 'utf-8', in bytes.
function position(text, spec, encoding = 'utf-16') {
  const m = /^\/(.*)\/([A-Za-z_][A-Za-z0-9_]*)(?:#(\d+))?$/.exec(spec);
  if (!m) fail(`bad position '${spec}': expected /REGEX/WORD or /REGEX/WORD#N`);
  const lines = text.split('\n');
  const line = lines.findIndex((l) => new RegExp(m[1]).test(l));
  if (line < 0) fail(`no line matches /${m[1]}/`);
  const word = new RegExp(`(?<![A-Za-z0-9_])${m[2]}(?![A-Za-z0-9_])`, 'g');
  let found, n = Number(m[3] || 1);
  while (n-- > 0)
    if (!(found = word.exec(lines[line]))) fail(`'${m[2]}' is not ${m[3] || 1} times on line ${line + 1}`);
  const character = encoding === 'utf-8' ? Buffer.byteLength(lines[line].slice(0, found.index)) : found.index;
  return {line, character};
}

function textAt(text, r, encoding = 'utf-16') {
  const lines = text.split('\n');
  if (r.start.line !== r.end.line) return '...';
  if (encoding !== 'utf-8') return lines[r.start.line].slice(r.start.character, r.end.character);
  return Buffer.from(lines[r.start.line]).subarray(r.start.character, r.end.character).toString();
}

function printSymbols(symbols, depth = 1) {
  for (const s of symbols) {
    const detail = s.detail ? ` '${s.detail}'` : '';
    console.log(`${'  '.repeat(depth)}${SYMBOL_KIND[s.kind] || s.kind} ${s.name}${detail} ${range(s.range)} ` +
                `name ${range(s.selectionRange)}`);
    printSymbols(s.children || [], depth + 1);
  }
}

// ---- Comparing with the tilec command ----

/// The errors and warnings `tilec FILE` prints, each with its notes: its location, the underlined span of its caret
/// line (the caret and the '~' after it), and its message.
function tilecDiagnostics(tilec, file) {
  const run = cp.spawnSync(tilec, [file, '-o', os.devNull], {encoding: 'utf8'});
  const lines = run.stderr.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; ++i) {
    const m = /^(.*?):(\d+):(\d+): (error|warning|note): (.*)$/.exec(lines[i]);
    if (!m) continue;
    const caret = lines[i + 2] || '';
    const at = caret.indexOf('^');
    const underline = /^\^~*/.exec(caret.slice(at))[0].length;
    const d = {line: +m[2], column: +m[3], end: +m[3] + underline, kind: m[4], message: m[5], notes: []};
    if (d.kind === 'note' && out.length) out[out.length - 1].notes.push(d);
    else out.push(d);
    i += 2;
  }
  return out;
}

function compare(tilec, text, published) {
  const file = path.join(os.tmpdir(), `lsp-compare-${process.pid}.tile`);
  fs.writeFileSync(file, text);
  const expected = tilecDiagnostics(tilec, file);
  fs.unlinkSync(file);
  const got = published.diagnostics;
  const problems = [];
  const span = (d) => `${d.line}:${d.column}-${d.line}:${d.end}`;
  if (got.length !== expected.length)
    problems.push(`${got.length} diagnostics, tilec prints ${expected.length} errors and warnings`);
  for (let i = 0; i < Math.min(got.length, expected.length); ++i) {
    const g = got[i], e = expected[i];
    const check = (what, a, b) => { if (a !== b) problems.push(`diagnostic ${i + 1}: ${what} ${a}, tilec ${b}`); };
    check('range', range(g.range), span(e));
    check('severity', SEVERITY[g.severity], e.kind);
    check('message', g.message, e.message);
    const notes = g.relatedInformation || [];
    check('notes', notes.length, e.notes.length);
    for (let j = 0; j < Math.min(notes.length, e.notes.length); ++j) {
      check(`note ${j + 1} range`, range(notes[j].location.range), span(e.notes[j]));
      check(`note ${j + 1} message`, notes[j].message, e.notes[j].message);
    }
  }
  if (problems.length) {
    for (const p of problems) console.log(`compare: ${p}`);
    process.exitCode = 1;
  } else {
    const notes = expected.reduce((n, e) => n + e.notes.length, 0);
    console.log(`compare: OK, ${got.length} diagnostics and ${notes} notes as tilec prints them`);
  }
}

module.exports = {Client, fileURI, position, range, compare, tilecDiagnostics};

if (require.main === module) {
  const [tilec, mode, ...rest] = process.argv.slice(2);
  if (!tilec || !mode) fail('usage: node lsp-client.js TILEC FILE ACTION... | TILEC --robust | TILEC --large LINES');
  const run = mode === '--robust' ? require('./lsp-robust.js').robust(tilec)
              : mode === '--large' ? require('./lsp-robust.js').large(tilec, Number(rest[0]))
                                   : session(tilec, mode, rest);
  run.catch((e) => {
    console.log(`lsp-client.js: ${e.message}`);
    process.exit(1);
  });
}

async function session(tilec, file, actions) {
  const client = new Client(tilec);
  await client.initialize();
  const uri = fileURI(file);
  let text = fs.readFileSync(file, 'utf8'), version = 1;
  let published = await client.open(uri, text, version);
  let properly = true;
  for (let i = 0; i < actions.length; ++i) {
    const action = actions[i];
    const arg = () => {
      if (i + 1 >= actions.length) fail(`${action} needs an argument`);
      return actions[++i];
    };
    if (action === '--encoding') {
      console.log(`position encoding: ${client.encoding}`);
    } else if (action === '--diagnostics') {
      printDiagnostics(published);
    } else if (action === '--compare') {
      compare(tilec, text, published);
    } else if (action === '--hover') {
      const spec = arg(), at = position(text, spec, client.encoding);
      const h = await client.request('textDocument/hover', {textDocument: {uri}, position: at});
      const shown = h && `${h.contents.kind} ${range(h.range)} '${textAt(text, h.range, client.encoding)}'`;
      console.log(`hover ${pos(at)} ${spec}: ${shown || 'none'}`);
      if (h) for (const line of h.contents.value.split('\n')) console.log(`  | ${line}`);
    } else if (action === '--definition') {
      const spec = arg(), at = position(text, spec, client.encoding);
      const d = await client.request('textDocument/definition', {textDocument: {uri}, position: at});
      console.log(`definition ${pos(at)} ${spec}: ` +
                  (d ? `${d.uri === uri ? 'this file' : d.uri} ${range(d.range)} ` +
                       `'${textAt(text, d.range, client.encoding)}' ` +
                       `in '${text.split('\n')[d.range.start.line].trim()}'` : 'none'));
    } else if (action === '--symbols') {
      const symbols = await client.request('textDocument/documentSymbol', {textDocument: {uri}});
      console.log(`symbols: ${symbols.length}`);
      printSymbols(symbols);
    } else if (action === '--lens') {
      for (const l of await client.request('textDocument/codeLens', {textDocument: {uri}}))
        console.log(`lens ${range(l.range)}: ${l.command.title} ` +
                    `(${l.command.command} ${JSON.stringify(l.command.arguments.slice(1))})`);
    } else if (action === '--report') {
      const kernel = i + 1 < actions.length && !actions[i + 1].startsWith('--') ? actions[++i] : undefined;
      const report = await client.request('workspace/executeCommand',
                                          {command: 'tilec.report', arguments: kernel ? [uri, kernel] : [uri]});
      process.stdout.write(report);
    } else if (action === '--replace') {
      const m = /^\/(.*?)\/(.*)$/s.exec(arg());
      if (!m || !new RegExp(m[1]).test(text)) fail(`--replace: nothing matches in the text`);
      text = text.replace(new RegExp(m[1]), m[2]);
      published = await client.change(uri, text, ++version);
    } else if (action === '--splice') {
      // A ranged change: the first match of REGEX, replaced, its range in the negotiated encoding's units.
      const m = /^\/(.*?)\/(.*)$/s.exec(arg());
      const found = m && new RegExp(m[1]).exec(text);
      if (!found) fail(`--splice: nothing matches in the text`);
      const at = (offset) => {
        const before = text.slice(0, offset).split('\n'), last = before[before.length - 1];
        const character = client.encoding === 'utf-8' ? Buffer.byteLength(last) : last.length;
        return {line: before.length - 1, character};
      };
      const r = {start: at(found.index), end: at(found.index + found[0].length)};
      text = text.slice(0, found.index) + m[2] + text.slice(found.index + found[0].length);
      const next = client.diagnostics(uri, ++version);
      await client.notify('textDocument/didChange',
                          {textDocument: {uri, version}, contentChanges: [{range: r, text: m[2]}]});
      published = await next;
      console.log(`spliced ${range(r)}`);
    } else if (action === '--change-to') {
      text = fs.readFileSync(arg(), 'utf8');
      published = await client.change(uri, text, ++version);
    } else if (action === '--close') {
      const cleared = client.diagnostics(uri);
      await client.notify('textDocument/didClose', {textDocument: {uri}});
      console.log(`closed: ${(await cleared).diagnostics.length} diagnostics`);
    } else if (action === '--no-shutdown') {
      properly = false;
    } else {
      fail(`unknown action '${action}'`);
    }
  }
  console.log(`exit status ${await client.shutdown(properly)}`);
}
