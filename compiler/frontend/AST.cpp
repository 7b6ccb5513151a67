//===- AST.cpp - Dumping the syntax tree (--emit=ast) -----------------------===//
#include "frontend/AST.h"

#include "llvm/Support/Casting.h"

using namespace tilec;
using namespace tilec::ast;
using llvm::cast;

llvm::StringRef ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::Rem: return "%";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Ge: return ">=";
  }
  return "?";
}

namespace {

class ASTDumper {
public:
  ASTDumper(const llvm::SourceMgr &sm, llvm::raw_ostream &os) : sm(sm), os(os) {}

  void program(const Program &p) {
    line(0) << "Program";
    if (p.target) os << " target=" << p.target->name;
    os << "\n";
    for (const Kernel &k : p.kernels) kernel(k);
  }

private:
  llvm::raw_ostream &line(unsigned depth) { return os.indent(2 * depth); }
  void loc(SMRange r) {
    if (!r.isValid()) return;
    auto [l, c] = lineAndColumn(r.Start.getPointer());
    os << " <" << l << ":" << c << ">";
  }
  /// The line and 1-based byte column of `p` as SourceMgr counts them (lines end at '\n'; a column starts after the
  /// last '\n' or '\r'). SourceMgr finds the column by scanning back to the line's start, which is quadratic over the
  /// nodes of one long line; the dump goes forward through the source, so this scans only from the previous node.
  std::pair<unsigned, size_t> lineAndColumn(const char *p) {
    const char *start =
        sm.getMemoryBuffer(sm.FindBufferContainingLoc(llvm::SMLoc::getFromPointer(p)))->getBufferStart();
    if (!known || known < start || known > p) {
      known = start;
      knownLine = 1;
      knownBreak = start - 1;
    }
    for (const char *q = known; q < p; ++q) {
      if (*q == '\n') ++knownLine;
      if (*q == '\n' || *q == '\r') knownBreak = q;
    }
    known = p;
    return {knownLine, static_cast<size_t>(p - knownBreak)};
  }
  const char *known = nullptr, *knownBreak = nullptr;
  unsigned knownLine = 1;
  void shape(const Shape &s) {
    os << "[";
    for (size_t i = 0; i < s.dims.size(); ++i) os << (i ? ", " : "") << s.dims[i].value;
    os << "]";
  }
  void waves(const std::optional<WavesSpec> &w) {
    if (w) os << " waves [" << w->wy.value << ", " << w->wx.value << "]";
  }

  void kernel(const Kernel &k) {
    line(1) << "Kernel " << k.name.name;
    loc(k.name.range);
    os << "\n";
    for (const Param &p : k.params) {
      line(2) << "Param " << p.name.name << ": ";
      if (p.isTensor) {
        os << "global " << p.dtype.name << "[";
        for (size_t i = 0; i < p.dims.size(); ++i)
          os << (i ? ", " : "") << (p.dims[i].isSymbol() ? p.dims[i].symbol : std::to_string(p.dims[i].value));
        os << "]";
        if (p.stride) os << " stride " << (p.stride->isSymbol() ? p.stride->symbol : std::to_string(p.stride->value));
      } else {
        os << p.dtype.name;
      }
      loc(p.range);
      os << "\n";
    }
    for (const StmtPtr &s : k.body) stmt(*s, 2);
  }

  void window(const Window &w, unsigned depth) {
    line(depth) << "Window " << w.tensor.name;
    loc(w.range);
    os << "\n";
    for (const ExprPtr &e : w.indices) expr(*e, depth + 1);
  }

  void stmt(const Stmt &s, unsigned depth) {
    line(depth);
    switch (s.kind) {
    case Stmt::Kind::Workgroup:
      os << "Workgroup " << cast<WorkgroupStmt>(s).size.value;
      break;
    case Stmt::Kind::Grid: {
      auto &g = cast<GridStmt>(s);
      os << "Grid over " << g.tensor.name << " tile ";
      shape(g.shape);
      break;
    }
    case Stmt::Kind::Tile: {
      auto &t = cast<TileDecl>(s);
      os << "Tile " << t.name.name << ": " << t.dtype.name;
      shape(t.shape);
      if (!t.hasDistribution) {
        os << " (no distribution)";
        break;
      }
      os << " " << patternName(t.pattern);
      waves(t.waves);
      if (t.vec) os << " vec " << t.vec->value;
      else os << " vec auto";
      break;
    }
    case Stmt::Kind::Lds: {
      auto &l = cast<LdsDecl>(s);
      os << "Lds " << l.name.name << ": " << l.dtype.name;
      shape(l.shape);
      if (l.pad) os << " pad " << l.pad->value;
      break;
    }
    case Stmt::Kind::Acc: {
      auto &a = cast<AccDecl>(s);
      os << "Acc " << a.name.name << ": " << a.dtype.name;
      shape(a.shape);
      os << " mfma " << a.mfma.name;
      waves(a.waves);
      break;
    }
    case Stmt::Kind::Assume:
      os << "Assume";
      loc(s.range);
      os << "\n";
      expr(*cast<AssumeStmt>(s).cond, depth + 1);
      return;
    case Stmt::Kind::Assign: {
      auto &a = cast<AssignStmt>(s);
      os << "Assign " << a.target.name << (a.accumulate ? " +=" : " =");
      loc(s.range);
      os << "\n";
      expr(*a.value, depth + 1);
      return;
    }
    case Stmt::Kind::Store: {
      auto &st = cast<StoreStmt>(s);
      os << "Store";
      loc(s.range);
      os << "\n";
      window(st.window, depth + 1);
      expr(*st.value, depth + 1);
      return;
    }
    case Stmt::Kind::For: {
      auto &f = cast<ForStmt>(s);
      os << "For " << f.var.name;
      if (f.pipeline) os << " pipeline " << f.pipeline;
      loc(s.range);
      os << "\n";
      expr(*f.lower, depth + 1);
      expr(*f.upper, depth + 1);
      if (f.step) expr(*f.step, depth + 1);
      for (const StmtPtr &b : f.body) stmt(*b, depth + 1);
      return;
    }
    case Stmt::Kind::Barrier:
      os << "Barrier";
      break;
    }
    loc(s.range);
    os << "\n";
  }

  void expr(const Expr &e, unsigned depth) {
    line(depth);
    switch (e.kind) {
    case Expr::Kind::Int: os << "Int " << cast<IntExpr>(e).value; break;
    case Expr::Kind::Float: os << "Float " << cast<FloatExpr>(e).spelling; break;
    case Expr::Kind::Name: os << "Name " << cast<NameExpr>(e).name; break;
    case Expr::Kind::Member: {
      auto &m = cast<MemberExpr>(e);
      os << "Member " << m.base.name << "." << m.member.name;
      break;
    }
    case Expr::Kind::Neg:
      os << "Neg";
      loc(e.range);
      os << "\n";
      expr(*cast<NegExpr>(e).operand, depth + 1);
      return;
    case Expr::Kind::Binary: {
      auto &b = cast<BinaryExpr>(e);
      os << "Binary " << spelling(b.op);
      loc(e.range);
      os << "\n";
      expr(*b.lhs, depth + 1);
      expr(*b.rhs, depth + 1);
      return;
    }
    case Expr::Kind::Call: {
      auto &c = cast<CallExpr>(e);
      os << "Call " << c.callee.name;
      loc(e.range);
      os << "\n";
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (!c.argNames[i].name.empty()) {
          line(depth + 1);
          os << "Arg " << c.argNames[i].name;
          loc(c.argNames[i].range);
          os << "\n";
        }
        expr(*c.args[i], depth + (c.argNames[i].name.empty() ? 1 : 2));
      }
      return;
    }
    case Expr::Kind::Cast: {
      auto &c = cast<CastExpr>(e);
      os << "Cast " << c.dtype.name << (c.mode.name.empty() ? "" : ", " + c.mode.name);
      loc(e.range);
      os << "\n";
      expr(*c.operand, depth + 1);
      return;
    }
    case Expr::Kind::Load:
      os << "Load";
      loc(e.range);
      os << "\n";
      window(cast<LoadExpr>(e).window, depth + 1);
      if (const ExprPtr &fill = cast<LoadExpr>(e).fill) {
        line(depth + 1);
        os << "Else\n";
        expr(*fill, depth + 2);
      }
      return;
    }
    loc(e.range);
    os << "\n";
  }

  const llvm::SourceMgr &sm;
  llvm::raw_ostream &os;
};

} // namespace

void ast::dumpAST(const Program &program, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os) {
  ASTDumper(sourceMgr, os).program(program);
}
