//===- Parser.cpp - Building the AST from ANTLR's parse tree ----------------===//
//
// One function per grammar rule turns a parse-tree context into AST nodes (the rule is quoted above each). ANTLR works
// on code points; SourceMap turns its indices back into pointers into the SourceMgr buffer so every AST node's range
// points at the original bytes.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"

#include "antlr4-runtime.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include "TileLexer.h"
#include "TileParser.h"

using namespace tilec;
using namespace tilec::ast;
using P = tilec::antlr::TileParser;

namespace {

/// Maps ANTLR code-point indices to locations in the source buffer.
class SourceMap {
public:
  explicit SourceMap(llvm::StringRef text) : text(text) {
    for (size_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) offsets.push_back(i);
    offsets.push_back(text.size());
  }
  llvm::SMLoc at(size_t codePoint) const {
    size_t off = codePoint < offsets.size() ? offsets[codePoint] : text.size();
    return llvm::SMLoc::getFromPointer(text.data() + off);
  }
  SMRange token(const antlr4::Token *t) const {
    if (!t) return {};
    if (t->getType() == antlr4::Token::EOF) return {at(t->getStartIndex()), at(t->getStartIndex())};
    return {at(t->getStartIndex()), at(t->getStopIndex() + 1)};
  }
  SMRange rule(antlr4::ParserRuleContext *ctx) const {
    SMRange start = token(ctx->getStart()), stop = token(ctx->getStop());
    if (!stop.isValid() || stop.End.getPointer() < start.Start.getPointer()) return start;
    return {start.Start, stop.End};
  }
  SMRange node(antlr4::tree::TerminalNode *n) const { return n ? token(n->getSymbol()) : SMRange(); }

private:
  llvm::StringRef text;
  std::vector<size_t> offsets;
};

/// Thrown out of the parser once the error limit is reached: nothing more would be printed, so parsing stops there
/// and the time spent stays linear in the input however many errors it holds.
struct StopParsing {};

/// Reports ANTLR's syntax errors through the DiagnosticEngine, in words for people rather than for grammar writers.
class SyntaxErrorListener : public antlr4::BaseErrorListener {
public:
  SyntaxErrorListener(DiagnosticEngine &diags, const SourceMap &map, antlr4::CommonTokenStream &tokens)
      : diags(diags), map(map), tokens(tokens) {}
  void syntaxError(antlr4::Recognizer *, antlr4::Token *token, size_t, size_t, const std::string &msg,
                   std::exception_ptr) override {
    bool atEOF = !token || token->getType() == antlr4::Token::EOF;
    // After an unterminated comment the end of the file is not where the user stopped writing.
    if (atEOF && endIsArtificial) return;
    // ANTLR resynchronises by skipping tokens; what it then trips over in the same statement is a consequence of
    // the first error, not a second one.
    if (token && suppressUntil && token->getTokenIndex() <= *suppressUntil) return;
    std::string text = msg;
    SMRange at = map.token(token);
    // ANTLR spells the end of input "<EOF>"; users read "end of file".
    for (size_t pos; (pos = text.find("'<EOF>'")) != std::string::npos;) text.replace(pos, 7, "end of file");
    for (size_t pos; (pos = text.find("<EOF>")) != std::string::npos;) text.replace(pos, 5, "end of file");
    for (llvm::StringRef prefix : {"extraneous input end of file", "mismatched input end of file"})
      if (llvm::StringRef(text).starts_with(prefix))
        text = "unexpected end of file" + std::string(text.size() > prefix.size() ? "," : "") +
               text.substr(prefix.size());
    if (llvm::StringRef(text).starts_with("no viable alternative at input"))
      text = atEOF ? "unexpected end of file" : "unexpected " + display(token);
    if (llvm::StringRef(text).starts_with("missing ") && token) {
      // "missing ';' at 'grid'": the ';' belongs right after the previous token, which is where the caret goes.
      if (size_t pos = text.rfind(" at "); pos != std::string::npos) text.replace(pos, 4, " before ");
      if (antlr4::Token *prev = previousToken(token)) at = {map.token(prev).End, map.token(prev).End};
    } else if (!atEOF) {
      // The parser skips or drops tokens to get going again; stay quiet up to the end of the statement (or header).
      suppressUntil = statementEnd(token->getTokenIndex());
    }
    if (text.size() > 400) text = text.substr(0, 400) + "...";
    flush(at.Start.getPointer());
    diags.error(at, "syntax error: " + text);
    if (diags.limitReached()) throw StopParsing();
  }

  /// Reports the errors found while screening the tokens that come before `upTo` (all of them for nullptr), so that
  /// every error of the file comes out in source order.
  void flush(const char *upTo = nullptr) {
    size_t n = 0;
    while (n < pending.size() && (!upTo || pending[n].first.Start.getPointer() < upTo)) ++n;
    for (size_t i = 0; i < n; ++i) diags.error(pending[i].first, pending[i].second);
    pending.erase(pending.begin(), pending.begin() + n);
    if (diags.limitReached()) throw StopParsing();
  }

  /// Queues a screening error. Past the error limit nothing more is kept: every later error has at least as many
  /// before it in source order, so it would not be printed.
  void queue(SMRange at, std::string message) {
    if (diags.errorLimit == 0 || pending.size() <= diags.errorLimit) pending.emplace_back(at, std::move(message));
  }

  bool endIsArtificial = false;
  std::vector<std::pair<SMRange, std::string>> pending; ///< screening errors, in source order

private:
  static std::string display(antlr4::Token *t) {
    std::string s = t->getText();
    if (s.size() > 40) s = s.substr(0, 40) + "...";
    return "'" + s + "'";
  }
  antlr4::Token *previousToken(antlr4::Token *t) {
    for (size_t i = t->getTokenIndex(); i-- > 0;)
      if (tokens.get(i)->getChannel() == antlr4::Token::DEFAULT_CHANNEL) return tokens.get(i);
    return nullptr;
  }
  size_t statementEnd(size_t from) {
    for (size_t i = from; i < tokens.size(); ++i) {
      std::string s = tokens.get(i)->getText();
      if (tokens.get(i)->getChannel() == antlr4::Token::DEFAULT_CHANNEL && (s == ";" || s == "{" || s == "}"))
        return i;
    }
    return tokens.size();
  }

  DiagnosticEngine &diags;
  const SourceMap &map;
  antlr4::CommonTokenStream &tokens;
  std::optional<size_t> suppressUntil;
};

/// "'@'" for printable ASCII, else code points: "U+00E9 'é'" (controls and invisible characters such as U+0000 and
/// U+200B without the character itself).
std::string describeCharacters(llvm::StringRef utf8) {
  if (llvm::all_of(utf8, [](char c) { return llvm::isPrint(c); })) return "'" + utf8.str() + "'";
  std::string out;
  const auto *cur = reinterpret_cast<const llvm::UTF8 *>(utf8.begin());
  const auto *end = reinterpret_cast<const llvm::UTF8 *>(utf8.end());
  while (cur < end) {
    const llvm::UTF8 *start = cur;
    llvm::UTF32 cp = 0;
    if (llvm::convertUTF8Sequence(&cur, end, &cp, llvm::strictConversion) != llvm::conversionOK) break;
    if (!out.empty()) out += " ";
    if (cp < 0x80 && llvm::isPrint(static_cast<char>(cp))) {
      out += "'" + std::string(1, static_cast<char>(cp)) + "'";
      continue;
    }
    out += llvm::formatv("U+{0:X-4}", cp).str();
    bool invisible = cp < 0xA0 || (cp >= 0x2000 && cp <= 0x206F) || cp == 0xFEFF || cp >= 0xFFF0;
    if (!invisible) out += " '" + std::string(reinterpret_cast<const char *>(start), cur - start) + "'";
  }
  return out;
}

/// Finds what the lexer could not turn into tokens: each run of invalid characters (one error) and a '/*' that is never
/// closed. Those tokens are then hidden from the parser, so they cause no syntax errors of their own; the listener
/// reports their errors in order with the syntax errors.
void screenTokens(antlr4::CommonTokenStream &tokens, const SourceMap &map, SyntaxErrorListener &listener) {
  auto hide = [](antlr4::Token *t) {
    static_cast<antlr4::WritableToken *>(t)->setChannel(antlr4::Token::HIDDEN_CHANNEL);
  };
  const std::vector<antlr4::Token *> &all = tokens.getTokens();
  for (size_t i = 0; i < all.size() && all[i]->getType() != antlr4::Token::EOF; ++i) {
    antlr4::Token *t = all[i];
    // A UTF-8 byte order mark at the start of the file is not part of the program.
    if (i == 0 && t->getStartIndex() == 0 && t->getText() == "\xEF\xBB\xBF") {
      hide(t);
      continue;
    }
    // An unclosed '/*' does not match BLOCK_COMMENT, so it lexes as '/' followed by '*'.
    if (t->getText() == "/" && all[i + 1]->getText() == "*" && all[i + 1]->getStartIndex() == t->getStopIndex() + 1) {
      listener.queue(map.token(t), "unterminated '/*' comment: no '*/' closes it before the end of the file");
      for (size_t j = i; all[j]->getType() != antlr4::Token::EOF; ++j) hide(all[j]);
      listener.endIsArtificial = true;
      break;
    }
    if (t->getType() != antlr::TileLexer::INVALID) continue;
    size_t last = i;
    std::string chars = t->getText();
    while (all[last + 1]->getType() == antlr::TileLexer::INVALID &&
           all[last + 1]->getStartIndex() == all[last]->getStopIndex() + 1) {
      if (chars.size() < 64) chars += all[last + 1]->getText();
      ++last;
    }
    if (chars.size() >= 64) chars += "...";
    listener.queue(SMRange{map.token(t).Start, map.token(all[last]).End},
                   llvm::formatv("invalid character{0} {1}", last == i ? "" : "s", describeCharacters(chars)).str());
    for (size_t j = i; j <= last; ++j) hide(all[j]);
    i = last;
  }
  tokens.seek(0); // the first on-channel token may have been hidden
}

/// Deep nesting and long operator chains would overflow the stack of the recursive functions that build and check the
/// syntax tree; refuse them with a located error instead.
bool checkNesting(antlr4::CommonTokenStream &tokens, const SourceMap &map, DiagnosticEngine &diags) {
  constexpr int kMaxDepth = 200, kMaxOperators = 1000;
  int depth = 0, minusRun = 0, operators = 0;
  for (antlr4::Token *t : tokens.getTokens()) {
    if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
    std::string s = t->getText();
    if (s == "(" || s == "[" || s == "{") ++depth;
    else if (s == ")" || s == "]" || s == "}") depth = std::max(0, depth - 1);
    minusRun = s == "-" ? minusRun + 1 : 0;
    bool isOperator = s == "+" || s == "-" || s == "*" || s == "/" || s == "%" || s == "==";
    operators = s == ";" || s == "{" || s == "}" ? 0 : operators + isOperator;
    if (depth > kMaxDepth || minusRun > kMaxDepth) {
      diags.error(map.token(t), llvm::formatv("nesting deeper than {0} levels; tilec does not parse it", kMaxDepth));
      return false;
    }
    if (operators > kMaxOperators) {
      diags.error(map.token(t), llvm::formatv("more than {0} operators in one statement; tilec does not parse it",
                                              kMaxOperators));
      return false;
    }
  }
  return true;
}

/// Builds AST nodes from parse-tree contexts that are known to be free of syntax errors.
class ASTBuilder {
public:
  ASTBuilder(const SourceMap &map, DiagnosticEngine &diags) : map(map), diags(diags) {}

  // program : targetDecl? kernelDecl* EOF ;
  Program program(P::ProgramContext *ctx) {
    Program p;
    if (auto *t = ctx->targetDecl()) p.target = ident(t->IDENT());
    for (auto *k : ctx->kernelDecl()) p.kernels.push_back(kernel(k));
    return p;
  }

private:
  Ident ident(antlr4::tree::TerminalNode *n) { return {n->getText(), map.node(n)}; }

  IntLit intLit(antlr4::tree::TerminalNode *n) {
    IntLit lit;
    lit.range = map.node(n);
    unsigned long long v = 0;
    // Literals beyond 2^31 are reported here, once, so later arithmetic never overflows.
    if (llvm::getAsUnsignedInteger(n->getText(), 10, v) || v > 0x7fffffffULL) {
      diags.error(lit.range, "integer literal " + n->getText() + " is too large (the limit is 2147483647)");
      v = 1;
    }
    lit.value = static_cast<int64_t>(v);
    return lit;
  }

  // kernelDecl : 'kernel' IDENT '(' paramList? ')' '{' stmt* '}' ;
  Kernel kernel(P::KernelDeclContext *ctx) {
    Kernel k;
    k.name = ident(ctx->IDENT());
    k.range = map.rule(ctx);
    if (auto *list = ctx->paramList())
      for (auto *p : list->param()) k.params.push_back(param(p));
    for (auto *s : ctx->stmt()) k.body.push_back(stmt(s));
    return k;
  }

  // param : IDENT ':' paramType ;
  Param param(P::ParamContext *ctx) {
    Param p;
    p.name = ident(ctx->IDENT());
    p.range = map.rule(ctx);
    if (auto *t = dynamic_cast<P::TensorTypeContext *>(ctx->paramType())) {
      p.isTensor = true;
      p.dtype = ident(t->IDENT());
      for (auto *d : t->dimList()->dim()) p.dims.push_back(dim(d));
      // strideSpec : 'stride' dim ;
      if (auto *s = t->strideSpec()) p.stride = dim(s->dim());
    } else {
      p.dtype = ident(static_cast<P::ScalarTypeContext *>(ctx->paramType())->IDENT());
    }
    return p;
  }

  // dim : IDENT | INT ;
  Dim dim(P::DimContext *d) {
    Dim out;
    out.range = map.rule(d);
    if (d->IDENT()) out.symbol = d->IDENT()->getText();
    else out.value = intLit(d->INT()).value;
    return out;
  }

  // shape : '[' INT (',' INT)* ']' ;
  Shape shape(P::ShapeContext *ctx) {
    Shape s;
    s.range = map.rule(ctx);
    for (auto *i : ctx->INT()) s.dims.push_back(intLit(i));
    return s;
  }

  // wavesSpec : 'waves' '[' INT ',' INT ']' ;
  std::optional<WavesSpec> waves(P::WavesSpecContext *ctx) {
    if (!ctx) return std::nullopt;
    return WavesSpec{intLit(ctx->INT(0)), intLit(ctx->INT(1)), map.rule(ctx)};
  }

  // window : IDENT '[' expr (',' expr)* ']' ;
  Window window(P::WindowContext *ctx) {
    Window w;
    w.tensor = ident(ctx->IDENT());
    w.range = map.rule(ctx);
    for (auto *e : ctx->expr()) w.indices.push_back(expr(e));
    return w;
  }

  StmtPtr stmt(P::StmtContext *ctx) {
    SMRange r = map.rule(ctx);
    // 'workgroup' INT ';'
    if (auto *c = dynamic_cast<P::WorkgroupStmtContext *>(ctx)) return std::make_unique<WorkgroupStmt>(r, intLit(c->INT()));
    // 'grid' 'over' IDENT 'tile' '[' dim (',' dim)* ']' ';'
    if (auto *c = dynamic_cast<P::GridStmtContext *>(ctx)) {
      Shape s;
      // The shape runs from the '[' (child 4) to the ']' (the child before the ';').
      s.range = map.rule(ctx);
      size_t n = c->children.size();
      auto *open = n > 6 ? dynamic_cast<antlr4::tree::TerminalNode *>(c->children[4]) : nullptr;
      auto *close = n > 6 ? dynamic_cast<antlr4::tree::TerminalNode *>(c->children[n - 2]) : nullptr;
      if (open && close && open->getText() == "[" && close->getText() == "]")
        s.range = {map.node(open).Start, map.node(close).End};
      std::vector<std::string> symbols;
      for (auto *d : c->dim()) {
        Dim dm = dim(d);
        s.dims.push_back(IntLit{dm.value, dm.range});
        symbols.push_back(dm.symbol);
      }
      auto g = std::make_unique<GridStmt>(r, ident(c->IDENT()), std::move(s));
      g->symbols = std::move(symbols);
      return g;
    }
    // 'tile' IDENT ':' IDENT shape distribution vecSpec? ';'
    if (auto *c = dynamic_cast<P::TileDeclContext *>(ctx)) {
      auto t = std::make_unique<TileDecl>(r);
      t->name = ident(c->IDENT(0));
      t->dtype = ident(c->IDENT(1));
      t->shape = shape(c->shape());
      // Without a distribution: a [rows, 1] or [1, cols] tile that receives a reduction (Sema checks).
      if (!c->distribution()) {
        t->hasDistribution = false;
        t->patternRange = t->vecRange = t->shape.range;
        return t;
      }
      t->patternRange = map.rule(c->distribution());
      t->vecRange = t->patternRange;
      if (dynamic_cast<P::WarpRakedContext *>(c->distribution())) t->pattern = Pattern::WarpRaked;
      if (auto *b = dynamic_cast<P::BlockRakedContext *>(c->distribution())) {
        t->pattern = Pattern::BlockRaked;
        t->waves = waves(b->wavesSpec());
        t->patternRange = map.token(b->getStart());
      }
      if (auto *v = c->vecSpec()) {
        t->vecRange = map.rule(v);
        if (v->INT()) t->vec = intLit(v->INT());
      }
      return t;
    }
    // 'lds' IDENT ':' IDENT shape ('pad' INT)? ';'
    if (auto *c = dynamic_cast<P::LdsDeclContext *>(ctx)) {
      auto l = std::make_unique<LdsDecl>(r);
      l->name = ident(c->IDENT(0));
      l->dtype = ident(c->IDENT(1));
      l->shape = shape(c->shape());
      if (c->INT()) l->pad = intLit(c->INT());
      return l;
    }
    // 'acc' IDENT ':' IDENT shape 'mfma' mfmaName wavesSpec? ';'
    if (auto *c = dynamic_cast<P::AccDeclContext *>(ctx)) {
      auto a = std::make_unique<AccDecl>(r);
      a->name = ident(c->IDENT(0));
      a->dtype = ident(c->IDENT(1));
      a->shape = shape(c->shape());
      a->mfma = {c->mfmaName()->getText(), map.rule(c->mfmaName())};
      a->waves = waves(c->wavesSpec());
      return a;
    }
    // 'assume' expr ';'
    if (auto *c = dynamic_cast<P::AssumeStmtContext *>(ctx)) return std::make_unique<AssumeStmt>(r, expr(c->expr()));
    // IDENT op=('=' | '+=') expr ';'
    if (auto *c = dynamic_cast<P::AssignStmtContext *>(ctx))
      return std::make_unique<AssignStmt>(r, ident(c->IDENT()), c->op->getText() == "+=", expr(c->expr()));
    // 'store' window '=' expr ';'
    if (auto *c = dynamic_cast<P::StoreStmtContext *>(ctx))
      return std::make_unique<StoreStmt>(r, window(c->window()), expr(c->expr()));
    // 'for' IDENT 'in' expr '..' expr ('step' expr)? pipelineSpec? '{' stmt* '}'
    if (auto *c = dynamic_cast<P::ForStmtContext *>(ctx)) {
      auto f = std::make_unique<ForStmt>(r);
      f->var = ident(c->IDENT());
      f->lower = expr(c->expr(0));
      f->upper = expr(c->expr(1));
      if (c->expr().size() > 2) f->step = expr(c->expr(2));
      // pipelineSpec : 'pipeline' INT
      if (auto *p = c->pipelineSpec()) {
        IntLit depth = intLit(p->INT());
        f->pipeline = depth.value;
        f->pipelineRange = depth.range;
      }
      for (auto *s : c->stmt()) f->body.push_back(stmt(s));
      return f;
    }
    // 'barrier' ';'
    return std::make_unique<BarrierStmt>(r);
  }

  ExprPtr expr(P::ExprContext *ctx) {
    SMRange r = map.rule(ctx);
    // 'load' window ('else' expr)?
    if (auto *c = dynamic_cast<P::LoadExprContext *>(ctx))
      return std::make_unique<LoadExpr>(r, window(c->window()), c->expr() ? expr(c->expr()) : nullptr);
    // 'cast' '<' IDENT (',' IDENT)? '>' '(' expr ')': the dtype, then an optional mode (`sat`)
    if (auto *c = dynamic_cast<P::CastExprContext *>(ctx)) {
      auto cast = std::make_unique<CastExpr>(r, ident(c->IDENT(0)), expr(c->expr()));
      if (c->IDENT().size() > 1) cast->mode = ident(c->IDENT(1));
      return cast;
    }
    // IDENT '(' (callArg (',' callArg)*)? ')'; callArg : (IDENT '=')? expr
    if (auto *c = dynamic_cast<P::CallExprContext *>(ctx)) {
      std::vector<ExprPtr> args;
      std::vector<Ident> names;
      for (auto *a : c->callArg()) {
        args.push_back(expr(a->expr()));
        names.push_back(a->IDENT() ? ident(a->IDENT()) : Ident{});
      }
      return std::make_unique<CallExpr>(r, ident(c->IDENT()), std::move(args), std::move(names));
    }
    // IDENT '.' IDENT
    if (auto *c = dynamic_cast<P::MemberExprContext *>(ctx))
      return std::make_unique<MemberExpr>(r, ident(c->IDENT(0)), ident(c->IDENT(1)));
    // '(' expr ')'
    if (auto *c = dynamic_cast<P::ParenExprContext *>(ctx)) return expr(c->expr());
    // '-' expr
    if (auto *c = dynamic_cast<P::NegExprContext *>(ctx)) return std::make_unique<NegExpr>(r, expr(c->expr()));
    // expr op=(...) expr
    if (auto *c = dynamic_cast<P::BinaryExprContext *>(ctx)) {
      std::string op = c->op->getText();
      BinaryOp kind = op == "+" ? BinaryOp::Add : op == "-" ? BinaryOp::Sub : op == "*" ? BinaryOp::Mul
                    : op == "/" ? BinaryOp::Div : op == "%" ? BinaryOp::Rem : op == "==" ? BinaryOp::Eq
                    : op == "!=" ? BinaryOp::Ne : op == "<" ? BinaryOp::Lt : op == "<=" ? BinaryOp::Le
                    : op == ">" ? BinaryOp::Gt : BinaryOp::Ge;
      return std::make_unique<BinaryExpr>(r, kind, map.token(c->op), expr(c->expr(0)), expr(c->expr(1)));
    }
    // IDENT
    if (auto *c = dynamic_cast<P::NameExprContext *>(ctx)) return std::make_unique<NameExpr>(r, c->IDENT()->getText());
    // INT
    if (auto *c = dynamic_cast<P::IntExprContext *>(ctx)) return std::make_unique<IntExpr>(r, intLit(c->INT()).value);
    // FLOAT
    auto *c = static_cast<P::FloatExprContext *>(ctx);
    std::string text = c->FLOAT()->getText();
    return std::make_unique<FloatExpr>(r, std::strtod(text.c_str(), nullptr), text);
  }

  const SourceMap &map;
  DiagnosticEngine &diags;
};

/// Reports the first byte that is not valid UTF-8, if any.
bool checkUTF8(llvm::StringRef text, DiagnosticEngine &diags) {
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.begin());
  const auto *cur = begin, *end = reinterpret_cast<const llvm::UTF8 *>(text.end());
  if (llvm::isLegalUTF8String(&cur, end)) return true;
  llvm::SMLoc at = llvm::SMLoc::getFromPointer(text.data() + (cur - begin));
  diags.error({at, at}, "the file is not valid UTF-8 at this byte");
  return false;
}

} // namespace

std::optional<Program> tilec::parseProgram(unsigned bufferID, DiagnosticEngine &diags) {
  llvm::StringRef text = diags.getSourceMgr().getMemoryBuffer(bufferID)->getBuffer();
  if (!checkUTF8(text, diags)) return std::nullopt;
  SourceMap map(text);
  unsigned errorsBefore = diags.errorCount();
  try {
    antlr4::ANTLRInputStream input(text.str());
    antlr::TileLexer lexer(&input);
    antlr4::CommonTokenStream tokens(&lexer);
    SyntaxErrorListener listener(diags, map, tokens);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
    tokens.fill();
    screenTokens(tokens, map, listener);
    if (!checkNesting(tokens, map, diags)) {
      listener.flush();
      return std::nullopt;
    }
    antlr::TileParser parser(&tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
    P::ProgramContext *tree = parser.program();
    listener.flush();
    if (diags.errorCount() != errorsBefore) return std::nullopt;
    ASTBuilder builder(map, diags);
    Program program = builder.program(tree);
    if (diags.errorCount() != errorsBefore) return std::nullopt;
    return program;
  } catch (const StopParsing &) {
    return std::nullopt;
  } catch (const std::exception &e) {
    diags.errorNoLoc(llvm::Twine("the parser gave up: ") + e.what());
  } catch (...) {
    diags.errorNoLoc("the parser gave up on this input");
  }
  return std::nullopt;
}
