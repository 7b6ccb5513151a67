#!/usr/bin/env node
// tokenize.js: runs editors/vscode/syntaxes/tile.tmLanguage.json through VS Code's own TextMate engine
// (vscode-textmate with the Oniguruma regex library compiled to WebAssembly, vscode-oniguruma).
//
//   node tokenize.js --check [--grammar G] [FILE...]
//       Tokenizes every FILE (default: examples/*.tile and every .tile under test/) line by line, as VS Code does.
//       Every file must tokenize without an exception and without hitting the time limit, and every character of
//       a line must lie in exactly one token. Each token of grammar/Tile.g4's lexer (mirrored below) must then be
//       one TextMate token whose scope matches its kind: the keywords of Tile.g4 their scope in KEYWORD_SCOPES,
//       numbers constant.numeric, comments comment, operators keyword.operator, punctuation punctuation,
//       identifiers variable / entity.name / support / constant.language (dtype names support.type.dtype, named
//       after compiler/support/DType.cpp's table), invalid characters invalid.illegal. Exit status 1 and one line
//       per problem when anything differs.
//   node tokenize.js --scopes [--grammar G] FILE LINE...
//       Prints the tokens of the chosen lines of FILE and their scopes (without the root scope source.tile), for
//       FileCheck: a LINE is a line number or /REGEX/, the first line that REGEX (JavaScript syntax) finds.
//
// FILE and G are relative to the current folder; messages name files relative to the repository root (two folders up
// from this file). The node_modules folder next to this file comes from `npm ci` here (scripts/install-deps.sh runs
// it); without it this script fails and says so.
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_GRAMMAR = path.join(ROOT, 'editors', 'vscode', 'syntaxes', 'tile.tmLanguage.json');
const TIME_LIMIT_MS = 2000; // per line; vscode-textmate stops early (stoppedEarly) past it

function fail(message) {
  process.stderr.write(`tokenize.js: error: ${message}\n`);
  process.exit(2);
}

let vsctm, oniguruma;
try {
  vsctm = require('vscode-textmate');
  oniguruma = require('vscode-oniguruma');
} catch (e) {
  fail(`cannot load vscode-textmate and vscode-oniguruma from ${path.join(__dirname, 'node_modules')} ` +
       `(${e.message.split('\n')[0]}); install them with 'npm ci' in editors/test ` +
       `(scripts/install-deps.sh does it)`);
}

// The scope each keyword of Tile.g4 must get. A keyword added to Tile.g4 fails the check until it is given a scope
// in the TextMate grammar and here.
const KEYWORD_SCOPES = {
  for: 'keyword.control.tile', in: 'keyword.control.tile', step: 'keyword.control.tile',
  pipeline: 'keyword.control.tile',
  kernel: 'storage.type.tile', tile: 'storage.type.tile', lds: 'storage.type.tile', acc: 'storage.type.tile',
  global: 'storage.modifier.tile', stride: 'storage.modifier.tile', pad: 'storage.modifier.tile',
  vec: 'storage.modifier.tile', waves: 'storage.modifier.tile', thread_raked: 'storage.modifier.tile',
  warp_raked: 'storage.modifier.tile', block_raked: 'storage.modifier.tile',
  target: 'keyword.other.tile', workgroup: 'keyword.other.tile', grid: 'keyword.other.tile',
  over: 'keyword.other.tile', mfma: 'keyword.other.tile', assume: 'keyword.other.tile',
  store: 'keyword.other.tile', load: 'keyword.other.tile', else: 'keyword.other.tile', cast: 'keyword.other.tile',
  barrier: 'keyword.other.tile', auto: 'keyword.other.tile',
};
// Functions Sema knows (compiler/frontend/SemaExpr.cpp, SemaReduce.cpp): scoped support.function before a '('.
const BUILTIN_FUNCTIONS = new Set(['max', 'min', 'sum', 'exp', 'exp2', 'log', 'sqrt', 'rsqrt', 'abs', 'relu', 'gelu',
  'silu', 'select', 'row', 'col', 'mma', 'transpose']);
// Literal tokens of Tile.g4 that are punctuation; its other non-word literals are operators.
const PUNCTUATION = new Set([';', ',', ':', '(', ')', '[', ']', '{', '}', '.']);

function usage() {
  process.stderr.write('usage: node tokenize.js --check [--grammar G] [FILE...]\n' +
                       '       node tokenize.js --scopes [--grammar G] FILE LINE...  (LINE: a number or /REGEX/)\n');
  process.exit(2);
}

function rel(file) { return path.relative(ROOT, file) || file; }

function splitLines(text) { return text.split(/\r\n|\r|\n/); }

async function loadGrammar(grammarPath) {
  const wasmPath = path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm');
  const wasm = fs.readFileSync(wasmPath);
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const onigLib = Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  });
  const content = fs.readFileSync(grammarPath, 'utf8');
  const registry = new vsctm.Registry({
    onigLib,
    loadGrammar: async (scopeName) => scopeName === 'source.tile' ? vsctm.parseRawGrammar(content, grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.tile');
  if (!grammar) fail(`${grammarPath} has no grammar for source.tile`);
  return grammar;
}

// Tokenizes the lines of a file as VS Code does: one line at a time, each starting in the state the last left.
// Returns per line its text and tokens ({start, end, scopes}), plus the problems found on the way.
function tokenizeFile(grammar, file) {
  const lines = splitLines(fs.readFileSync(file, 'utf8'));
  const result = [], problems = [];
  let stack = vsctm.INITIAL;
  lines.forEach((text, i) => {
    let r;
    try {
      r = grammar.tokenizeLine(text, stack, TIME_LIMIT_MS);
    } catch (e) {
      problems.push(`${rel(file)}:${i + 1}: the tokenizer threw: ${e.message}`);
      result.push({ text, tokens: [] });
      return;
    }
    if (r.stoppedEarly) problems.push(`${rel(file)}:${i + 1}: tokenizing took more than ${TIME_LIMIT_MS} ms`);
    const tokens = r.tokens.map((t) => ({ start: t.startIndex, end: Math.min(t.endIndex, text.length),
                                          scopes: t.scopes }))
                           .filter((t) => t.end > t.start);
    let at = 0;
    for (const t of tokens) {
      if (t.start !== at) problems.push(`${rel(file)}:${i + 1}:${at + 1}: tokens do not cover the line here`);
      at = t.end;
    }
    if (at !== text.length && !r.stoppedEarly)
      problems.push(`${rel(file)}:${i + 1}:${at + 1}: tokens end before the line does`);
    result.push({ text, tokens });
    stack = r.ruleStack;
  });
  return { lines: result, problems, endDepth: stack.depth };
}

// The literal tokens of Tile.g4's parser rules ('kernel', '+=', ...): the part before its first lexer rule.
function grammarLiterals() {
  const g4 = fs.readFileSync(path.join(ROOT, 'grammar', 'Tile.g4'), 'utf8');
  const parserPart = g4.split(/^[A-Z][A-Z_]*\s*:/m)[0].replace(/^\s*\/\/.*$/mg, '');
  const literals = new Set();
  for (const m of parserPart.matchAll(/'((?:[^'\\]|\\.)+)'/g)) literals.add(m[1]);
  if (!literals.has('kernel')) fail('found no literal tokens in grammar/Tile.g4');
  return literals;
}

// The dtype names of compiler/support/DType.cpp's table ({DType::F32, "f32", ...}).
function dtypeNames() {
  const src = fs.readFileSync(path.join(ROOT, 'compiler', 'support', 'DType.cpp'), 'utf8');
  const names = [...src.matchAll(/\{DType::\w+,\s*"(\w+)"/g)].map((m) => m[1]);
  if (!names.includes('f32')) fail('found no dtype names in compiler/support/DType.cpp');
  return new Set(names);
}

// Tile.g4's lexer: the longest match wins, a literal token before IDENT when both match the same text (ANTLR's
// rule for implicit literal tokens). Yields {kind, text, start, end} with offsets into the whole file; kind is
// 'literal', 'IDENT', 'INT', 'FLOAT', 'COMMENT' or 'INVALID' (whitespace is skipped, as in Tile.g4).
function* antlrTokens(text, literals) {
  const rules = [
    ['COMMENT', /\/\/[^\r\n]*/y], ['COMMENT', /\/\*[\s\S]*?\*\//y], ['WS', /[ \t\r\n]+/y],
    ['IDENT', /[a-zA-Z_][a-zA-Z_0-9]*/y], ['FLOAT', /[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+/y],
    ['INT', /[0-9]+/y],
  ];
  const literalList = [...literals];
  let i = 0;
  while (i < text.length) {
    let best = null;
    for (const lit of literalList)
      if (text.startsWith(lit, i) && (!best || lit.length > best.text.length)) best = { kind: 'literal', text: lit };
    for (const [kind, re] of rules) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m && (!best || m[0].length > best.text.length)) best = { kind, text: m[0] };
    }
    // An unterminated '/*' is a comment to the end of the file: tilec reports it as one ("unterminated '/*'
    // comment"), and an editor shows it as one, where Tile.g4's lexer alone would make it '/' '*' ...
    if (text.startsWith('/*', i) && (!best || best.text === '/'))
      best = { kind: 'COMMENT', text: text.slice(i), unterminated: true };
    if (!best) best = { kind: 'INVALID', text: String.fromCodePoint(text.codePointAt(i)) };
    if (best.kind !== 'WS') yield { ...best, start: i, end: i + best.text.length };
    i += best.text.length;
  }
}

// Checks one tokenized file against Tile.g4's lexer; returns the problems.
function checkFile(file, tokenized, literals, dtypes) {
  const problems = [];
  const text = fs.readFileSync(file, 'utf8');
  // Offsets of the whole text -> (line, column), with the same line breaks as splitLines.
  const lineStarts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) lineStarts.push(m.index + m[0].length);
  const lineOf = (offset) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1; }
    return lo;
  };
  // The index of the token of a line that holds column col (tokens are sorted and contiguous), or -1.
  const indexAt = (line, col) => {
    const tokens = tokenized.lines[line].tokens;
    let lo = 0, hi = tokens.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (tokens[mid].end <= col) lo = mid + 1;
      else if (tokens[mid].start > col) hi = mid - 1;
      else return mid;
    }
    return -1;
  };
  const tokenAt = (line, col) => tokenized.lines[line].tokens[indexAt(line, col)];
  const scopeOf = (t) => t ? t.scopes[t.scopes.length - 1] : '(no token)';
  const where = (line, col) => `${rel(file)}:${line + 1}:${col + 1}`;

  const all = [...antlrTokens(text, literals)];
  const significant = all.filter((t) => t.kind !== 'COMMENT');
  let castOpen = false;
  significant.forEach((tok, k) => {
    const prev = significant[k - 1], next = significant[k + 1];
    const line = lineOf(tok.start), col = tok.start - lineStarts[line], end = col + tok.text.length;
    const t = tokenAt(line, col);
    // One TextMate token, or several with the same scopes, must cover exactly this token.
    const first = indexAt(line, col), last = indexAt(line, end - 1);
    const parts = first < 0 || last < 0 ? [] : tokenized.lines[line].tokens.slice(first, last + 1);
    const same = parts.every((p) => p.scopes.join(' ') === parts[0].scopes.join(' '));
    if (!t || t.start !== col || !parts.length || parts[parts.length - 1].end !== end || !same) {
      const shown = parts.map((p) => `'${tokenized.lines[line].text.slice(p.start, p.end)}' ${scopeOf(p)}`);
      problems.push(`${where(line, col)}: '${tok.text}' is not one token of the grammar (${shown.join(', ')})`);
      return;
    }
    const scope = scopeOf(t);
    let expected = null, ok;
    if (tok.kind === 'literal' && /^[a-z_]+$/.test(tok.text)) {
      expected = KEYWORD_SCOPES[tok.text];
      ok = scope === expected;
    } else if (tok.kind === 'literal') {
      if (tok.text === '<' && prev && prev.text === 'cast') {
        castOpen = true;
        expected = 'punctuation.definition.typeparameters.begin.tile';
      } else if (tok.text === '>' && castOpen) {
        castOpen = false;
        expected = 'punctuation.definition.typeparameters.end.tile';
      } else {
        if (castOpen && /^[;(){}[\]=]$/.test(tok.text)) castOpen = false;
        expected = PUNCTUATION.has(tok.text) ? 'punctuation.*' : 'keyword.operator.*';
      }
      ok = expected.endsWith('*') ? scope.startsWith(expected.slice(0, -1)) : scope === expected;
    } else if (tok.kind === 'IDENT') {
      const call = next && next.text === '(';
      // The grammar's rules for a member and a named argument see one line.
      const prevOnLine = prev && lineOf(prev.start) === line;
      if (prevOnLine && prev.text === '.') expected = 'variable.other.property.tile';
      else if (prevOnLine && (prev.text === '(' || prev.text === ',') && next && next.text === '=')
        expected = 'variable.parameter.named.tile';
      else if (prev && prev.text === 'kernel') expected = 'entity.name.function.kernel.tile';
      else if (prev && prev.text === 'mfma') expected = 'entity.name.function.mfma.tile';
      else if (prev && ['tile', 'lds', 'acc'].includes(prev.text)) expected = 'variable.other.declaration.tile';
      else if (dtypes.has(tok.text)) expected = 'support.type.dtype.tile';
      else if (call && BUILTIN_FUNCTIONS.has(tok.text)) expected = 'support.function.builtin.tile';
      if (expected) ok = scope === expected;
      else {
        expected = 'variable.*, entity.name.*, support.* or constant.language.*';
        ok = /^(variable|entity\.name|support|constant\.language)\./.test(scope);
      }
    } else if (tok.kind === 'INT') {
      expected = 'constant.numeric.integer.tile';
      ok = scope === expected;
    } else if (tok.kind === 'FLOAT') {
      expected = 'constant.numeric.float.tile';
      ok = scope === expected;
    } else {
      expected = 'invalid.illegal.*';
      ok = scope.startsWith('invalid.illegal.');
    }
    if (!ok) problems.push(`${where(line, col)}: '${tok.text}' is ${scope}, expected ${expected}`);
  });
  // Every character of a comment, line breaks aside, is in a comment scope.
  for (const tok of all.filter((t) => t.kind === 'COMMENT')) {
    for (let o = tok.start; o < tok.end; o++) {
      if (text[o] === '\n' || text[o] === '\r') continue;
      const line = lineOf(o), col = o - lineStarts[line];
      const t = tokenAt(line, col);
      if (!t || !t.scopes.some((s) => s.startsWith('comment.'))) {
        problems.push(`${where(line, col)}: this comment is ${scopeOf(t)} here, expected comment.*`);
        break;
      }
    }
  }
  if (tokenized.endDepth !== 1 && !all.some((t) => t.unterminated))
    problems.push(`${rel(file)}: the file ends inside a multi-line rule`);
  return problems;
}

function filesUnder(dir, suffix) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p, suffix));
    else if (entry.name.endsWith(suffix)) out.push(p);
  }
  return out;
}

async function check(grammarPath, files) {
  const grammar = await loadGrammar(grammarPath);
  const literals = grammarLiterals();
  const dtypes = dtypeNames();
  const problems = [];

  // Tile.g4's keywords and KEYWORD_SCOPES name the same words.
  const keywords = [...literals].filter((l) => /^[a-z_]+$/.test(l)).sort();
  for (const k of keywords)
    if (!(k in KEYWORD_SCOPES)) problems.push(`grammar/Tile.g4: keyword '${k}' has no scope in KEYWORD_SCOPES`);
  for (const k of Object.keys(KEYWORD_SCOPES))
    if (!keywords.includes(k)) problems.push(`KEYWORD_SCOPES: '${k}' is not a keyword of grammar/Tile.g4`);
  // Each keyword on its own line has its scope (examples may not use every keyword).
  for (const k of keywords) {
    const r = grammar.tokenizeLine(k, vsctm.INITIAL, TIME_LIMIT_MS);
    const scopes = r.tokens[0].scopes;
    if (r.tokens[0].endIndex < k.length || scopes[scopes.length - 1] !== KEYWORD_SCOPES[k])
      problems.push(`keyword '${k}' alone on a line is ${scopes[scopes.length - 1]}, expected ${KEYWORD_SCOPES[k]}`);
  }

  const examples = files.length ? [] : filesUnder(path.join(ROOT, 'examples'), '.tile')
                                          .filter((f) => path.dirname(f) === path.join(ROOT, 'examples'));
  const tests = files.length ? files.map((f) => path.resolve(f)) : filesUnder(path.join(ROOT, 'test'), '.tile');
  let lineCount = 0;
  for (const file of [...examples, ...tests]) {
    const tokenized = tokenizeFile(grammar, file);
    lineCount += tokenized.lines.length;
    problems.push(...tokenized.problems);
    if (!tokenized.problems.length) problems.push(...checkFile(file, tokenized, literals, dtypes));
  }
  for (const p of problems) process.stdout.write(`${p}\n`);
  process.stdout.write(`keywords: ${keywords.length} of grammar/Tile.g4\n`);
  if (!files.length) process.stdout.write(`examples: ${examples.length} files\n`);
  process.stdout.write(`tests: ${tests.length} files\n`);
  process.stdout.write(`lines: ${lineCount}\n`);
  process.stdout.write(problems.length ? `FAILED: ${problems.length} problems\n` : 'OK\n');
  return problems.length ? 1 : 0;
}

async function scopes(grammarPath, file, selectors) {
  const grammar = await loadGrammar(grammarPath);
  const abs = path.resolve(file);
  const tokenized = tokenizeFile(grammar, abs);
  for (const p of tokenized.problems) process.stdout.write(`${p}\n`);
  let status = tokenized.problems.length ? 1 : 0;
  for (const sel of selectors) {
    let index = -1;
    const m = /^\/(.*)\/$/.exec(sel);
    if (m) index = tokenized.lines.findIndex((l) => new RegExp(m[1]).test(l.text));
    else if (/^[0-9]+$/.test(sel) && +sel >= 1 && +sel <= tokenized.lines.length) index = +sel - 1;
    if (index < 0) {
      process.stdout.write(`${rel(abs)}: no line ${sel}\n`);
      status = 1;
      continue;
    }
    const { text, tokens } = tokenized.lines[index];
    process.stdout.write(`${index + 1}: ${text}\n`);
    for (const t of tokens) {
      const part = text.slice(t.start, t.end);
      if (!part.trim()) continue;
      const names = t.scopes.filter((s) => s !== 'source.tile');
      process.stdout.write(`  ${part} -> ${names.length ? names.join(' ') : '(source.tile only)'}\n`);
    }
  }
  return status;
}

async function main() {
  const args = process.argv.slice(2);
  const mode = args.shift();
  let grammarPath = DEFAULT_GRAMMAR;
  const rest = [];
  while (args.length) {
    const a = args.shift();
    if (a === '--grammar') grammarPath = path.resolve(args.shift() || usage());
    else rest.push(a);
  }
  if (mode === '--check') return check(grammarPath, rest);
  if (mode === '--scopes' && rest.length >= 2) return scopes(grammarPath, rest[0], rest.slice(1));
  usage();
}

main().then((status) => process.exit(status), (e) => fail(e.stack || String(e)));
