//===- LdsLifetimeVerifier.cpp - Fragments read before a loop, buffers sharing bytes ===//
//
// verifyLdsLifetimes (Verifier.h): the invariants of passes/HoistFragments.h and passes/ShareLds.h, checked on the
// IR alone. An mma whose A fragments are read before its loop stands directly in a top-level loop that does not
// write A, its FragmentRead stands before that loop with no write of A between them and a barrier after A's last
// write before it; every FragmentRead belongs to such an mma. In a kernel whose buffers share one allocation, each
// buffer lies inside it, 16-byte aligned, and two buffers whose bytes overlap are never live at once: one's last
// top-level statement comes before the other's first, with a barrier between them.
//
//===----------------------------------------------------------------------===//
#include "ir/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace {

class LifetimeVerifier {
public:
  LifetimeVerifier(const Kernel &k, DiagnosticEngine &diags) : k(k), diags(diags) {}

  bool run() {
    std::vector<const FragmentRead *> reads;
    for (size_t i = 0; i < k.body.size(); ++i) {
      if (auto *r = llvm::dyn_cast<FragmentRead>(k.body[i].get())) fragmentRead(*r, i), reads.push_back(r);
      if (auto *f = llvm::dyn_cast<For>(k.body[i].get())) {
        nested(f->body, /*top=*/true);
        for (const StmtPtr &s : f->body)
          if (auto *m = llvm::dyn_cast<MMA>(s.get()); m && m->aHoisted && !llvm::is_contained(reads, m->aHoisted))
            fail(m->loc, "mma whose fragments are read before its loop, with no such read before it");
      }
    }
    if (k.ldsSharedBytes) shared();
    return ok;
  }

private:
  void fail(llvm::SMRange loc, const llvm::Twine &what) {
    diags.error(loc, "internal error: IR verifier: " + what);
    ok = false;
  }

  /// An mma with hoisted fragments anywhere but directly in a top-level loop, or a FragmentRead inside a loop.
  void nested(const Body &body, bool top) {
    for (const StmtPtr &s : body) {
      if (auto *f = llvm::dyn_cast<For>(s.get())) nested(f->body, false);
      else if (llvm::isa<FragmentRead>(s.get())) fail(s->loc, "fragments read before a loop inside a loop");
      else if (auto *m = llvm::dyn_cast<MMA>(s.get()); m && m->aHoisted && !top)
        fail(s->loc, "mma whose fragments are read before a loop that is not a top-level one");
    }
  }

  void fragmentRead(const FragmentRead &r, size_t at) {
    const MMA *m = r.mma;
    if (!m || m->aHoisted != &r || m->aFrom)
      return fail(r.loc, "fragments read before a loop for an mma that does not take them");
    // The loop that holds the mma, and no write of A from the read to the end of that loop.
    size_t loop = at + 1;
    for (; loop < k.body.size(); ++loop) {
      auto *f = llvm::dyn_cast<For>(k.body[loop].get());
      bool holds = f && llvm::any_of(f->body, [&](const StmtPtr &s) { return s.get() == m; });
      if (writesLds(*k.body[loop], m->a))
        return fail(r.loc, formatv("lds {0} is written after its fragments are read before the loop", m->a->name));
      if (holds) break;
    }
    if (loop == k.body.size()) return fail(r.loc, "fragments read before a loop that does not follow");
    // A barrier after A's last write before the read.
    for (size_t i = at; i-- > 0;) {
      if (auto *b = llvm::dyn_cast<Barrier>(k.body[i].get()); b && !b->dropped) return;
      if (writesLds(*k.body[i], m->a))
        return fail(r.loc, formatv("fragments of lds {0} read with no barrier after its last write", m->a->name));
    }
  }

  void shared() {
    bool scaled = false;
    std::vector<LdsLifetime> life = ldsLifetimes(k, scaled);
    if (scaled) fail(k.loc, "LDS buffers share bytes in a kernel with a scaled mma");
    for (size_t a = 0; a < k.ldsBuffers.size(); ++a) {
      const LdsBuffer &x = *k.ldsBuffers[a];
      if (!x.used) continue;
      if (x.offset % 16 || x.offset + x.bytes() > k.ldsSharedBytes)
        fail(x.loc, formatv("lds {0} at bytes {1} .. {2}, not 16-byte aligned inside the shared {3} B", x.name,
                            x.offset, x.offset + x.bytes() - 1, k.ldsSharedBytes));
      for (size_t b = a + 1; b < k.ldsBuffers.size(); ++b) {
        const LdsBuffer &y = *k.ldsBuffers[b];
        if (!y.used || x.offset >= y.offset + y.bytes() || y.offset >= x.offset + x.bytes()) continue;
        const LdsLifetime &early = life[a].first <= life[b].first ? life[a] : life[b];
        const LdsLifetime &late = &early == &life[a] ? life[b] : life[a];
        if (early.first < 0 || late.first < 0) continue; // never accessed: nothing to overlap
        if (early.last >= late.first)
          fail(y.loc, formatv("lds {0} and {1} share bytes but are live at once", x.name, y.name));
        else if (!barrierBetween(k, early.last, late.first))
          fail(y.loc, formatv("lds {0} and {1} share bytes with no barrier between their lifetimes", x.name,
                              y.name));
      }
    }
  }

  const Kernel &k;
  DiagnosticEngine &diags;
  bool ok = true;
};

} // namespace

bool tilec::verifyLdsLifetimes(const Module &module, DiagnosticEngine &diags) {
  bool ok = true;
  for (const auto &k : module.kernels) ok &= LifetimeVerifier(*k, diags).run();
  return ok;
}
