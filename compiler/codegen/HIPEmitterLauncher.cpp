//===- HIPEmitterLauncher.cpp - Writing a kernel's host launcher ------------===//
//
// launch_NAME(tensors, scalars, stream): refuses negative sizes, null tensors, broken assumptions and (for a single
// kernel) misaligned tensors; returns without launching when the grid tensor is empty; picks NAME or NAME_unaligned
// from the alignment checks; launches ceil(cols / block) x ceil(rows / block) workgroups. The same declarations,
// with their comments, make the header of --emit=header. A scaled mma's scale tensors and a B whose shape is not A's
// and C's symbols (scaledBTensor) are checked here too, and packedWindow tells the kernel's masks what those checks
// guarantee.
//
//===----------------------------------------------------------------------===//
#include "codegen/EmitterNames.h"
#include "codegen/HIPEmitterKernel.h"
#include "llvm/ADT/StringExtras.h"
#include "target/MFMA.h"
#include <cctype>

using namespace tilec;
using namespace tilec::ir;
using llvm::formatv;

namespace tilec::hip {

void KernelEmitter::launcherDeclaration(bool twoKernels) {
  const Tensor &g = *k.gridTensor;
  if (g.rank == 1)
    os << formatv("/// Launches {0} on `stream`: {1}-thread workgroups, one per {2} elements of {3}, ceil({4} / {2}) in "
                  "all.\n", k.name, k.workgroupSize, k.gridTileCols, g.name, extentExpr(g.cols));
  else if (k.gridWholeRows)
    os << formatv("/// Launches {0} on `stream`: {1}-thread workgroups, one per {2} whole rows of {3}, ceil({4} / {2}){5} "
                  "in all.\n",
                  k.name, k.workgroupSize, k.gridTileRows, g.name, extentExpr(g.rows),
                  k.batched ? " x " + extentExpr(g.batch) + " (grid z: the batch)" : "");
  else
    os << formatv("/// Launches {0} on `stream`: {1}-thread workgroups, one per {2} x {3} block of {4}, ceil({5} / {3}) "
                  "x ceil({6} / {2}){7} in all.\n",
                  k.name, k.workgroupSize, k.gridTileRows, k.gridTileCols, g.name, extentExpr(g.cols),
                  extentExpr(g.rows), k.batched ? " x " + extentExpr(g.batch) + " (grid z: the batch)" : "");
  std::vector<AlignmentCheck> checks = alignmentChecks(plans);
  // With one kernel every check is a pointer alignment the launcher enforces.
  bool refusesMisaligned = !twoKernels && !checks.empty();
  os << formatv("/// Returns hipErrorInvalidValue for negative sizes, null tensors{0}{1}{2} and grids too large to launch;\n"
                "/// hipSuccess without launching when there is nothing to do.\n",
                refusesMisaligned ? ", misaligned tensors" : "",
                !twoKernels && !k.bufferLoaded.empty() ? ", buffer-loaded tensors of 2 GiB or more" : "",
                k.assumptions.empty() ? "" : ", broken assumptions");
  if (twoKernels)
    os << formatv("/// Runs {0} when {1}, else {2}.\n", k.name, vectorKernelCondition(plans), unalignedName(k));
  os << "extern \"C\" hipError_t launch_" << k.name << "(";
  params(/*forLauncher=*/true);
  os << (k.tensors.empty() && k.scalars.empty() ? "" : ", ") << "hipStream_t stream)";
}


const Tensor *scaledBTensor(const For &loop, const MMA &m) {
  unsigned perA = info(m.a->dtype).values, perB = info(m.b->dtype).values;
  bool kn = m.b->transposed || m.b->transposeReads;
  if (!m.scaleA || (kn ? perA == 1 && perB == 1 : perA == perB)) return nullptr;
  // The tile written to B's buffer, back through copies (`b2 = b; sB = b2;`, as Sema's window check follows them) to
  // the load that filled it.
  for (const StmtPtr &s : loop.body) {
    auto *w = llvm::dyn_cast<LdsWrite>(s.get());
    if (!w || w->dst != m.b) continue;
    const Tile *tile = w->src;
    for (unsigned hops = 0; tile && hops < loop.body.size(); ++hops) {
      const Tile *from = nullptr;
      for (const StmtPtr &t : loop.body) {
        auto *a = llvm::dyn_cast<Assign>(t.get());
        if (!a || a->dst != tile) continue;
        if (a->value->kind == Value::Kind::Load) return a->value->tensor;
        if (a->value->kind == Value::Kind::TileRef) from = a->value->tile;
      }
      tile = from;
    }
  }
  return nullptr;
}

namespace {

/// `origin` as `x`, `times * x`, `x * times` or `x / divide` (times, divide > 1): x, and the factor.
const Index *scaledOperand(const Index &origin, unsigned &times, unsigned &divide) {
  times = divide = 1;
  if (!origin.isBinary()) return &origin;
  if (origin.kind == Index::Kind::Mul) {
    bool constLeft = origin.lhs->kind == Index::Kind::Const;
    const Index &c = constLeft ? *origin.lhs : *origin.rhs;
    if (c.kind != Index::Kind::Const || c.value < 2) return nullptr;
    times = c.value;
    return constLeft ? origin.rhs.get() : origin.lhs.get();
  }
  if (origin.kind == Index::Kind::Div && origin.rhs->kind == Index::Kind::Const && origin.rhs->value >= 2) {
    divide = origin.rhs->value;
    return origin.lhs.get();
  }
  return nullptr;
}

} // namespace

/// A K-axis or N-axis window of a scaled mma's B whose tensor the launcher checks against A's K and C's N
/// (scaledBTensor): a K x N B of packed values or under an A of packed values, [perA k, block.col / perB] of a
/// [perA K, ceil(N / perB)] tensor; an N x K B of another column width, [block.col, k perA / perB] of an [N,
/// ceil(K perA / perB)] one. Whether `origin` is such a window's index into `extent`, and where: `inner` is k or
/// block.col, `innerExtent` K or N, `factor` the multiple (`divides`: the divisor).
bool KernelEmitter::packedWindow(const Body &body, const Index &origin, const Extent &extent, const Index *&inner,
                                 Extent &innerExtent, unsigned &factor, bool &divides) const {
  unsigned times = 1, divide = 1;
  const Index *x = scaledOperand(origin, times, divide);
  if (!x) return false;
  for (const StmtPtr &s : body) {
    auto *f = llvm::dyn_cast<For>(s.get());
    if (!f) continue;
    if (packedWindow(f->body, origin, extent, inner, innerExtent, factor, divides)) return true;
    for (const StmtPtr &t : f->body) {
      auto *m = llvm::dyn_cast<MMA>(t.get());
      // A scale tensor's K axis (staged through LDS, passes/PlanScaleLoads.h): [.., k / perBlock] of an [.., ceil(K
      // / perBlock)] tensor, which scaleChecks makes the launcher check.
      if (m && m->scaleA && (&extent == &m->scaleA->cols || &extent == &m->scaleB->cols) &&
          x->kind == Index::Kind::LoopVar && x->name == f->var && times == 1 &&
          divide == ScaledMFMAInstr::kBlock / info(m->a->dtype).values) {
        innerExtent = Extent{};
        if (f->upper->kind == Index::Kind::Scalar) innerExtent.symbol = f->upper->name;
        else if (f->upper->kind == Index::Kind::Const) innerExtent.value = f->upper->value;
        else return false;
        inner = x, divides = true, factor = divide;
        return true;
      }
      const Tensor *b = m ? scaledBTensor(*f, *m) : nullptr;
      if (!b) continue;
      unsigned perA = info(m->a->dtype).values, perB = info(m->b->dtype).values;
      bool kn = m->b->transposed || m->b->transposeReads;
      // The K axis: rows of a K x N B (perA k), columns of an N x K one (k perA / perB).
      const Extent &kExtent = kn ? b->rows : b->cols;
      unsigned wantTimes = kn ? perA : std::max(1u, perA / perB), wantDivide = kn ? 1 : std::max(1u, perB / perA);
      if (&extent == &kExtent && x->kind == Index::Kind::LoopVar && x->name == f->var && times == wantTimes &&
          divide == wantDivide) {
        innerExtent = Extent{};
        if (f->upper->kind == Index::Kind::Scalar) innerExtent.symbol = f->upper->name;
        else if (f->upper->kind == Index::Kind::Const) innerExtent.value = f->upper->value;
        else return false;
        inner = x, divides = divide > 1, factor = divides ? divide : times;
        return true;
      }
      // The N axis of a K x N B: block.col / perB.
      if (kn && &extent == &b->cols && x->kind == Index::Kind::BlockCol && times == 1 && divide == perB) {
        innerExtent = k.gridTensor->cols;
        inner = x, factor = perB, divides = true;
        return true;
      }
    }
  }
  return false;
}

/// A scaled mma's scale tensors must be [M, ceil(K / 32)] and [N, ceil(K / 32)]: a kernel given fewer rows or columns
/// would read 0 (staged through LDS) or 2^0 (lane-loaded) for the missing scales, so the launcher refuses them.
void KernelEmitter::scaleChecks(const Body &body, const For *loop) {
  for (const StmtPtr &s : body) {
    if (auto *f = llvm::dyn_cast<For>(s.get())) scaleChecks(f->body, f);
    auto *m = llvm::dyn_cast<MMA>(s.get());
    if (!m || !m->scaleA || !loop) continue;
    const Tensor &g = *k.gridTensor;
    unsigned perBlock = ScaledMFMAInstr::kBlock / info(m->a->dtype).values;
    std::string upper = index(*loop->upper);
    line(1) << formatv("// {0} and {1} hold one E8M0 scale per {2} K values of each row of A and column of B: [{3}, "
                       "ceil({4} / {5})] and [{6}, ceil({4} / {5})]{7}.\n",
                       m->scaleA->name, m->scaleB->name, ScaledMFMAInstr::kBlock, extentExpr(g.rows), upper, perBlock,
                       extentExpr(g.cols),
                       perBlock == ScaledMFMAInstr::kBlock
                           ? std::string()
                           : formatv(" (K in {0} columns)", name(m->a->dtype)).str());
    std::string cond;
    std::vector<std::string> conds;
    auto add = [&](const std::string &c) {
      if (!llvm::is_contained(conds, c)) conds.push_back(c), cond += (cond.empty() ? "" : " || ") + c;
    };
    for (const auto &[t, rows] : {std::pair{m->scaleA, &g.rows}, std::pair{m->scaleB, &g.cols}}) {
      if (t->rows.text() != rows->text()) add(formatv("{0} != {1}", extentExpr(t->rows), extentExpr(*rows)));
      add(formatv("{0} != ({1} + {2}) / {3}", extentExpr(t->cols), upper, perBlock - 1, perBlock));
    }
    // B's shape where it is not A's and C's symbols (Sema checked that its loads' windows are [perA k, block.col /
    // perB] for a K x N B, [block.col, k perA / perB] for an N x K one); other shapes would be read as zeros or past
    // their rows.
    if (const Tensor *b = scaledBTensor(*loop, *m)) {
      unsigned perA = info(m->a->dtype).values, perB = info(m->b->dtype).values;
      auto ceilDiv = [](const std::string &x, unsigned d) {
        return d == 1 ? x : formatv("({0} + {1}) / {2}", x, d - 1, d).str();
      };
      // An upper bound that is an expression keeps its parentheses: 2 * (K - 64).
      auto times = [](const std::string &x, unsigned t) {
        if (t == 1) return x;
        return formatv(x.find(' ') == std::string::npos ? "{0} * {1}" : "{0} * ({1})", t, x).str();
      };
      auto check = [&](const Extent &e, const std::string &want) {
        if (extentExpr(e) != want) add(formatv("{0} != {1}", extentExpr(e), want));
      };
      if (m->b->transposed || m->b->transposeReads) {
        line(1) << formatv("// {0} is K x N with {1} N values per {2}: [{3}, {4}].\n", b->name, perB,
                           name(m->b->dtype), times(upper, perA), ceilDiv(extentExpr(g.cols), perB));
        check(b->rows, times(upper, perA));
        check(b->cols, ceilDiv(extentExpr(g.cols), perB));
      } else {
        line(1) << formatv("// {0} is N x K in {1} columns of {2} K values ({3} in A's): [{4}, {5}].\n", b->name,
                           name(m->b->dtype), perB, perA, extentExpr(g.cols), ceilDiv(times(upper, perA), perB));
        check(b->rows, extentExpr(g.cols));
        check(b->cols, ceilDiv(times(upper, perA), perB));
      }
    }
    line(1) << "if (" << cond << ") return hipErrorInvalidValue;\n";
  }
}

void KernelEmitter::launcher(bool twoKernels) {
  markSource(0, k.loc);
  const Tensor &g = *k.gridTensor;
  launcherDeclaration(twoKernels);
  os << " {\n";
  std::vector<AlignmentCheck> checks = alignmentChecks(plans);
  std::vector<std::string> dims;
  for (const auto &s : k.scalars)
    if (s->isDimension) dims.push_back(s->name);
  if (!dims.empty()) {
    std::string neg, zero;
    for (const std::string &d : dims) neg += (neg.empty() ? "" : " || ") + d + " < 0";
    line(1) << "if (" << neg << ") return hipErrorInvalidValue;\n";
  }
  // A row stride shorter than the row would make rows overlap.
  for (const auto &tensor : k.tensors)
    if (tensor->stride && (tensor->stride->isSymbol() || tensor->cols.isSymbol()))
      line(1) << formatv("if ({0} < {1}) return hipErrorInvalidValue;  // {2}'s rows are {0} elements apart\n",
                         extentExpr(*tensor->stride), extentExpr(tensor->cols), tensor->name);
  // A tensor shared by groups of G matrices has the grid's batch / G of them.
  std::map<std::string, std::string> groups; // the check -> the tensors it covers
  std::vector<std::string> order;
  for (const auto &tensor : k.tensors)
    if (tensor->rank == 3 && tensor->batchGroup > 1 && (tensor->batch.isSymbol() || g.batch.isSymbol())) {
      std::string check = formatv("if ({0} != {1} * {2}) return hipErrorInvalidValue;", extentExpr(g.batch),
                                  extentExpr(tensor->batch), tensor->batchGroup);
      auto [it, fresh] = groups.try_emplace(check, tensor->name);
      if (fresh) order.push_back(check);
      else it->second += " and " + tensor->name;
    }
  for (const std::string &check : order)
    line(1) << check << "  // " << groups[check] << ": one matrix per group of the batch\n";
  std::string empty;
  for (const Extent *e : {&g.batch, &g.rows, &g.cols})
    if (e->isSymbol()) empty += (empty.empty() ? "" : " || ") + e->symbol + " == 0";
  if (!empty.empty()) line(1) << "if (" << empty << ") return hipSuccess;\n";
  std::string nulls;
  for (const auto &tensor : k.tensors) nulls += (nulls.empty() ? "" : " || ") + tensor->name + " == nullptr";
  if (!nulls.empty()) line(1) << "if (" << nulls << ") return hipErrorInvalidValue;\n";
  scaleChecks(k.body, nullptr);
  // The kernel was compiled relying on these; a violation is refused rather than computed wrongly.
  for (const Assumption &a : k.assumptions)
    line(1) << formatv("if ({0} % {1} != 0) return hipErrorInvalidValue;  // assume {0} % {1} == 0\n", a.symbol,
                       a.modulus);
  // A single kernel relies on aligned base pointers: a misaligned tensor is refused.
  if (!twoKernels)
    for (const AlignmentCheck &c : checks)
      line(1) << formatv("if (reinterpret_cast<std::uintptr_t>({0}) % {1} != 0) return hipErrorInvalidValue;  "
                         "// {1}-byte accesses\n", c.tensor->name, c.bytes);
  // ... and reaches these tensors through buffer resources, whose offsets are 32-bit.
  if (!twoKernels) {
    std::map<std::string, std::string> sized; // the size -> the tensors of that size
    std::vector<std::string> sizes;
    for (const Tensor *tensor : k.bufferLoaded) {
      auto [it, fresh] = sized.try_emplace(tensorBytes(*tensor, "unsigned long"), tensor->name);
      if (fresh) sizes.push_back(it->first);
      else it->second += " and " + tensor->name;
    }
    for (const std::string &size : sizes)
      line(1) << formatv("if ({0} >= 0x80000000ul) return hipErrorInvalidValue;  // buffer loads: {1} under 2 GiB\n",
                         size, sized[size]);
  }
  if (g.rank == 1)
    line(1) << formatv("const dim3 grid(tilec::ceil_div({0}, {1}));\n", extentExpr(g.cols), k.gridTileCols);
  else if (k.gridWholeRows)
    line(1) << formatv("const dim3 grid(1, tilec::ceil_div({0}, {1}){2});  // whole rows: one workgroup across{3}\n",
                       extentExpr(g.rows), k.gridTileRows, k.batched ? ", " + extentExpr(g.batch) : "",
                       k.batched ? ", z: the batch" : "");
  else
    line(1) << formatv("const dim3 grid(tilec::ceil_div({0}, {1}), tilec::ceil_div({2}, {3}){4});{5}\n",
                       extentExpr(g.cols), k.gridTileCols, extentExpr(g.rows), k.gridTileRows,
                       k.batched ? ", " + extentExpr(g.batch) : "", k.batched ? "  // z: the batch" : "");
  line(1) << formatv("if (static_cast<unsigned long>(grid.x) * {0} > 0xFFFFFFFFul) return hipErrorInvalidValue;\n",
                     k.workgroupSize);
  auto launch = [&](unsigned depth, const std::string &name) {
    line(depth) << formatv("hipLaunchKernelGGL({0}, grid, dim3({1}), 0, stream", name, k.workgroupSize);
    for (const auto &tensor : k.tensors) os << ", " << tensor->name;
    for (const auto &s : k.scalars) os << ", " << s->name;
    os << ");\n";
  };
  if (!twoKernels) {
    launch(1, k.name);
  } else {
    // The vector kernel needs every row to start on a vector boundary: extents and base pointers.
    std::vector<std::string> conds;
    for (const AlignmentCheck &c : checks)
      conds.push_back(c.rows ? formatv("tilec::rows_aligned<{0}>({1}, {2}{3})", c.vec, c.tensor->name,
                                       extentExpr(c.tensor->cols),
                                       c.tensor->stride ? ", " + extentExpr(*c.tensor->stride) : "").str()
                             : formatv("reinterpret_cast<std::uintptr_t>({0}) % {1} == 0", c.tensor->name, c.bytes)
                                   .str());
    // Its masked K steps reach these tensors through buffer resources, whose offsets are 32-bit.
    for (const Tensor *tensor : k.bufferLoaded)
      conds.push_back(formatv("{0} < 0x80000000ul", tensorBytes(*tensor, "unsigned long")).str());
    line(1) << "const bool vectors_aligned = ";
    for (size_t i = 0; i < conds.size(); ++i) {
      if (i > 0) line(3) << "&& ";
      os << conds[i] << (i + 1 == conds.size() ? ";\n" : "\n");
    }
    line(1) << "if (vectors_aligned)\n";
    launch(2, k.name);
    line(1) << "else\n";
    launch(2, unalignedName(k));
  }
  line(1) << "return hipGetLastError();\n";
  os << "}\n";
}

void KernelEmitter::emitDeclaration() {
  plans = planAccesses(k);
  launcherDeclaration(hasUnalignedVariant(plans));
  os << ";\n";
  out << text;
}

} // namespace tilec::hip

void tilec::emitLauncherHeader(const Module &module, llvm::StringRef sourceName, llvm::raw_ostream &os) {
  const Target &t = *module.target;
  // The include guard: TILEC_ and the file name in upper case, other characters as '_'.
  std::string guard = "TILEC_";
  for (char c : sourceName) guard += std::isalnum(static_cast<unsigned char>(c)) ? llvm::toUpper(c) : '_';
  guard += "_H";
  os << formatv("// Generated by tilec {0} from {1} for {2} ({3}, {4}). Regenerate it rather than editing it.\n",
                TILEC_VERSION, sourceName, t.name, t.product, t.family);
  os << formatv("// The host launchers of {0}'s kernels; they are defined in the .hip tilec emits from it. Include it\n"
                "// from C++ compiled as HIP, as C++ with __HIP_PLATFORM_AMD__ defined, or with TILEC_EMULATOR defined\n"
                "// (the CPU emulator).\n",
                sourceName);
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#if defined(TILEC_EMULATOR)\n#include \"tilec/emulator.h\"\n#else\n#include <hip/hip_runtime_api.h>\n#endif\n";
  // The launchers of 6-bit tensors take tilec::fp6x4 pointers.
  bool sixBit = llvm::any_of(module.kernels, [](const auto &k) {
    return llvm::any_of(k->tensors, [](const auto &t) { return sizeOf(t->dtype) == 3; });
  });
  if (sixBit) os << "#include \"tilec/fp6x4.h\"\n";
  for (const auto &k : module.kernels) {
    os << "\n";
    std::string text;
    llvm::raw_string_ostream kernelOs(text);
    hip::MarkedNames names(const_cast<ir::Kernel &>(*k)); // this compilation's own IR; its names are back on return
    hip::KernelEmitter(*k, t, kernelOs).emitDeclaration();
    os << names.resolve(kernelOs.str());
  }
  os << "\n#endif // " << guard << "\n";
}
