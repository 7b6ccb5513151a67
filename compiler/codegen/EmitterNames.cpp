//===- EmitterNames.cpp - The user's names and the emitter's own, kept apart -===//
#include "codegen/EmitterNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"

using namespace tilec;
using namespace tilec::hip;

namespace {

/// The marks' prefixes: a user name, and the kernel's own (global: its derived names are too).
constexpr llvm::StringLiteral kMark = "tilecU", kKernelMark = "tilecK";

bool identStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool identChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// An identifier of the emitted text with its marks read: `text` as it will read, how many user names it holds,
/// whether it is one user name exactly, and whether it is derived from the kernel's name (launch_K, K_unaligned:
/// global functions a caller names, never renamed; the kernel's mark tells it from a tile of the same name).
struct Decoded {
  std::string text;
  unsigned marks = 0;
  bool exact = false;
  bool global = false;
};

Decoded decode(llvm::StringRef token) {
  Decoded d;
  size_t i = 0;
  while (i < token.size()) {
    bool kernel = token.substr(i).starts_with(kKernelMark);
    if (kernel || token.substr(i).starts_with(kMark)) {
      size_t j = i + kMark.size(), length = 0, digits = 0;
      while (j < token.size() && llvm::isDigit(token[j])) length = length * 10 + (token[j++] - '0'), ++digits;
      if (digits && j < token.size() && token[j] == '_' && j + 1 + length <= token.size()) {
        llvm::StringRef name = token.substr(j + 1, length);
        d.text += name;
        ++d.marks;
        d.exact = i == 0 && j + 1 + length == token.size() && d.marks == 1;
        d.global |= kernel;
        i = j + 1 + length;
        continue;
      }
    }
    d.text += token[i++];
  }
  if (d.exact) d.global = false;
  return d;
}

/// One piece of the emitted text: an identifier (with where it stands) or anything else, copied as it is.
struct Piece {
  size_t begin, end;
  bool identifier = false;
  bool code = false;      ///< outside comments and string or character literals
  bool qualified = false; ///< a member (after `.` or `->`), or next to `::`: not a name that a local can hide
  bool quoted = false;    ///< in a comment, between backquotes: a name of the code (`stream`)
};

std::vector<Piece> pieces(llvm::StringRef text) {
  std::vector<Piece> out;
  auto identifiers = [&](size_t from, size_t to) { // inside a comment or literal: words, each whole
    for (size_t i = from; i < to;) {
      size_t start = i;
      if (identChar(text[i])) {
        while (i < to && identChar(text[i])) ++i;
        bool quoted = start > from && text[start - 1] == '`' && i < to && text[i] == '`';
        out.push_back({start, i, identStart(text[start]), false, false, quoted});
      } else {
        out.push_back({start, ++i});
      }
    }
  };
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    size_t start = i;
    bool lineStart = text.substr(0, i).rtrim(" ").ends_with("\n") || text.substr(0, i).rtrim(" ").empty();
    if ((c == '/' && i + 1 < n && text[i + 1] == '/') || (c == '#' && lineStart)) { // a comment or a directive
      i = std::min(text.find('\n', i), n);
      identifiers(start, i);
    } else if (c == '"' || c == '\'') {
      for (++i; i < n && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      i = std::min(i + 1, n);
      identifiers(start, i);
    } else if (identStart(c)) {
      while (i < n && identChar(text[i])) ++i;
      llvm::StringRef before = text.substr(0, start), after = text.substr(i);
      bool qualified = before.ends_with(".") || before.ends_with("->") || before.ends_with("::") ||
                       after.starts_with("::");
      out.push_back({start, i, true, true, qualified});
    } else if (llvm::isDigit(c)) {
      while (i < n && (identChar(text[i]) || text[i] == '.')) ++i;
      out.push_back({start, i});
    } else {
      out.push_back({start, ++i, false, true});
    }
  }
  return out;
}

} // namespace

std::string MarkedNames::mark(llvm::StringRef name) {
  return (kMark + llvm::Twine(name.size()) + "_" + name).str();
}

void MarkedNames::markName(std::string &name) {
  if (name.empty()) return;
  saved.emplace_back(&name, name);
  userNames.insert(name);
  name = mark(name);
}

void MarkedNames::markIndex(ir::Index *i) {
  if (!i) return;
  markName(i->name);
  markIndex(i->lhs.get());
  markIndex(i->rhs.get());
}

void MarkedNames::markValue(ir::Value *v) {
  if (!v) return;
  markIndex(v->row.get());
  markIndex(v->col.get());
  for (auto &op : v->operands) markValue(op.get());
}

void MarkedNames::markBody(ir::Body &body) {
  for (ir::StmtPtr &s : body) {
    markValue(const_cast<ir::Value *>(ir::valueOf(*s)));
    if (auto *st = llvm::dyn_cast<ir::Store>(s.get())) {
      markIndex(st->row.get());
      markIndex(st->col.get());
    } else if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
      markName(f->var);
      markIndex(f->lower.get());
      markIndex(f->upper.get());
      markIndex(f->step.get());
      markBody(f->body);
    } else if (auto *m = llvm::dyn_cast<ir::MMA>(s.get())) {
      markName(m->kVar);
    }
  }
}

MarkedNames::MarkedNames(ir::Kernel &k) {
  saved.emplace_back(&k.name, k.name);
  userNames.insert(k.name);
  k.name = (kKernelMark + llvm::Twine(k.name.size()) + "_" + k.name).str();
  for (auto &x : k.tensors) {
    markName(x->name);
    for (ir::Extent *e : {&x->batch, &x->rows, &x->cols}) markName(e->symbol);
    if (x->stride) markName(x->stride->symbol);
  }
  for (auto &s : k.scalars) markName(s->name);
  for (auto &t : k.tiles) markName(t->name);
  for (auto &b : k.ldsBuffers) markName(b->name);
  for (auto &a : k.accs) markName(a->name);
  for (auto &r : k.reducedTiles) markName(r->name);
  for (auto &a : k.assumptions) markName(a.symbol);
  markBody(k.body);
}

MarkedNames::~MarkedNames() {
  for (auto &[name, original] : saved) *name = original;
}

/// For each piece, the pieces of the innermost `{ }` block of code around it: [first, last) (all of them outside
/// every block).
static std::vector<std::pair<size_t, size_t>> blocks(llvm::StringRef text, const std::vector<Piece> &all) {
  constexpr size_t none = ~size_t(0);
  std::vector<size_t> owner(all.size(), none), end(all.size() + 1, all.size()), open;
  for (size_t i = 0; i < all.size(); ++i) {
    llvm::StringRef p = text.slice(all[i].begin, all[i].end);
    bool brace = !all[i].identifier && all[i].code;
    if (brace && p == "}" && !open.empty()) {
      end[open.back()] = i;
      open.pop_back();
    }
    if (!open.empty()) owner[i] = open.back();
    if (brace && p == "{") open.push_back(i + 1);
  }
  std::vector<std::pair<size_t, size_t>> out(all.size());
  for (size_t i = 0; i < all.size(); ++i)
    out[i] = owner[i] == none ? std::make_pair(size_t(0), all.size()) : std::make_pair(owner[i], end[owner[i]]);
  return out;
}

std::string MarkedNames::resolve(llvm::StringRef text) const {
  std::vector<Piece> all = pieces(text);
  std::vector<Decoded> decoded(all.size());
  // The emitter's own identifiers: in code, unmarked and not a member or qualified name; or derived from a user
  // name (`t_row`) anywhere.
  auto emitters = [&](const Piece &p, const Decoded &d) {
    return !d.exact && !d.global && ((d.marks && !p.qualified) || (!d.marks && p.code && !p.qualified));
  };
  llvm::StringSet<> taken;
  for (const std::string &n : userNames) taken.insert(n);
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i].identifier) continue;
    decoded[i] = decode(text.slice(all[i].begin, all[i].end));
    if (all[i].code || decoded[i].marks) taken.insert(decoded[i].text);
  }
  // An emitter's identifier that reads as a user name is renamed when the user's name is used in code inside the
  // innermost block around one of its occurrences: that block holds the scope of the emitter's declaration (more, for
  // a declaration in a `for` header), so a user name used nowhere in it cannot be hidden by it. In order of first
  // appearance.
  std::vector<std::pair<size_t, size_t>> block = blocks(text, all);
  std::vector<std::string> clashing;
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string &n = decoded[i].text;
    if (!all[i].identifier || !all[i].code || !emitters(all[i], decoded[i]) || !userNames.count(n) ||
        llvm::is_contained(clashing, n))
      continue;
    for (size_t u = block[i].first; u < block[i].second; ++u)
      if (all[u].identifier && all[u].code && decoded[u].exact && decoded[u].text == n) {
        clashing.push_back(n);
        break;
      }
  }
  llvm::StringMap<std::string> renamed;
  for (const std::string &n : clashing) {
    std::string variant;
    for (unsigned v = 1; variant.empty() || taken.contains(variant); ++v) variant = n + "_" + std::to_string(v);
    taken.insert(variant);
    renamed[n] = variant;
  }
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i].identifier) {
      out += text.slice(all[i].begin, all[i].end);
      continue;
    }
    auto r = renamed.find(decoded[i].text);
    bool own = emitters(all[i], decoded[i]) || (all[i].quoted && !decoded[i].marks);
    out += r != renamed.end() && own ? r->second : decoded[i].text;
  }
  return out;
}
