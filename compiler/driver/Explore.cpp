//===- Explore.cpp - A GEMM's choices beside their neighbours, measured ------===//
//
// A variant is the file's text parsed again with one kernel's syntax tree edited: the numbers a kernel engineer
// would change by hand (the loop's step and the K extent of the tiles it loads and of the LDS buffers they are
// written to; the grid's tile, the accumulator and the operands along M or N, with the workgroup and the waves or
// without; the loop's `pipeline`; the accumulator's MFMA). Every other
// kernel of the file is left out of it. Which extent of a tile is K follows from its load's window (the index that
// names the loop variable), which side of the block it follows from the other index (`block.row` or `block.col`).
//
//===----------------------------------------------------------------------===//
#include "driver/Explore.h"

#include "analysis/KLoopResources.h"
#include "codegen/HIPEmitter.h"
#include "device/DeviceCompiler.h"
#include "device/ISAInfo.h"
#include "device/LoopEstimate.h"
#include "frontend/AST.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "target/MFMA.h"
#include <functional>
#include <set>

using namespace tilec;
using llvm::formatv;

namespace {

bool mentions(const ast::Expr &e, llvm::StringRef name) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&e)) return n->name == name;
  if (auto *b = llvm::dyn_cast<ast::BinaryExpr>(&e)) return mentions(*b->lhs, name) || mentions(*b->rhs, name);
  if (auto *n = llvm::dyn_cast<ast::NegExpr>(&e)) return mentions(*n->operand, name);
  return false;
}

/// 0 where `e` names block.row, 1 where it names block.col, -1 otherwise.
int blockSide(const ast::Expr &e) {
  if (auto *m = llvm::dyn_cast<ast::MemberExpr>(&e))
    return m->base.name != "block" ? -1 : m->member.name == "row" ? 0 : m->member.name == "col" ? 1 : -1;
  if (auto *b = llvm::dyn_cast<ast::BinaryExpr>(&e)) {
    int side = blockSide(*b->lhs);
    return side >= 0 ? side : blockSide(*b->rhs);
  }
  return -1;
}

/// A tile the K loop loads and the LDS buffers it is written to.
struct Operand {
  std::string tile;
  unsigned kDim = 1; ///< the extent of the tile that is K: 0 its rows, 1 its columns
  int side = -1;     ///< the block side its other extent follows: 0 M (block.row), 1 N (block.col), -1 neither
  std::set<std::string> lds;
};

/// What the variants of one K loop change, found in the kernel's syntax tree.
struct KLoopShape {
  std::string var, acc;
  int64_t step = 0;
  std::vector<Operand> operands;
};

bool isMma(const ast::Stmt &s) {
  auto *a = llvm::dyn_cast<ast::AssignStmt>(&s);
  auto *call = a ? llvm::dyn_cast<ast::CallExpr>(a->value.get()) : nullptr;
  return call && call->callee.name == "mma";
}

/// The loop over `var` in `body`, at any depth.
const ast::ForStmt *findLoop(const std::vector<ast::StmtPtr> &body, llvm::StringRef var) {
  for (const ast::StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get())) {
      if (f->var.name == var) return f;
      if (const ast::ForStmt *inner = findLoop(f->body, var)) return inner;
    }
  return nullptr;
}

/// The shape of K loop `var` of `k` (a loop the pipelining pass planned), or nullopt when its step is not a number.
std::optional<KLoopShape> kLoopShape(const ast::Kernel &k, llvm::StringRef var) {
  const ast::ForStmt *f = findLoop(k.body, var);
  auto *step = f && f->step ? llvm::dyn_cast<ast::IntExpr>(f->step.get()) : nullptr;
  if (!step) return std::nullopt;
  KLoopShape shape;
  shape.var = f->var.name;
  shape.step = step->value;
  for (const ast::StmtPtr &s : f->body) {
    auto *a = llvm::dyn_cast<ast::AssignStmt>(s.get());
    if (!a) continue;
    if (isMma(*a)) {
      shape.acc = a->target.name;
    } else if (auto *load = llvm::dyn_cast<ast::LoadExpr>(a->value.get())) {
      const std::vector<ast::ExprPtr> &at = load->window.indices;
      if (at.size() < 2) continue;
      const ast::Expr &row = *at[at.size() - 2], &col = *at[at.size() - 1];
      if (!mentions(row, shape.var) && !mentions(col, shape.var)) continue;
      Operand o;
      o.tile = a->target.name;
      o.kDim = mentions(col, shape.var) ? 1 : 0;
      o.side = blockSide(o.kDim == 1 ? row : col);
      shape.operands.push_back(o);
    } else if (auto *n = llvm::dyn_cast<ast::NameExpr>(a->value.get())) {
      for (Operand &o : shape.operands)
        if (o.tile == n->name) o.lds.insert(a->target.name);
    }
  }
  if (shape.acc.empty() || shape.operands.empty()) return std::nullopt;
  return shape;
}

/// One variant: the K step times num / den, the block doubled along a side, or a pipeline depth.
struct Variant {
  enum class Kind { AsWritten, KStep, Block, Depth, Instruction } kind = Kind::AsWritten;
  int64_t num = 1, den = 1;
  unsigned side = 0;  ///< Block: 0 M, 1 N
  bool moreWaves = false; ///< Block: the workgroup's waves doubled along the same side too
  unsigned depth = 0; ///< Depth
  llvm::StringRef instruction; ///< Instruction: the accumulator's MFMA

  static Variant kStep(int64_t num, int64_t den) {
    Variant v;
    v.kind = Kind::KStep, v.num = num, v.den = den;
    return v;
  }
  static Variant block(unsigned side, bool moreWaves) {
    Variant v;
    v.kind = Kind::Block, v.side = side, v.moreWaves = moreWaves;
    return v;
  }
  static Variant pipeline(unsigned depth) {
    Variant v;
    v.kind = Kind::Depth, v.depth = depth;
    return v;
  }
  static Variant mfma(llvm::StringRef instruction) {
    Variant v;
    v.kind = Kind::Instruction, v.instruction = instruction;
    return v;
  }
};

/// Edits `k` into `v`; the lines it changed go to `lines`. Returns why it cannot be made, or "".
std::string apply(ast::Kernel &k, const KLoopShape &shape, const Variant &v, std::vector<llvm::SMLoc> &lines) {
  std::string why;
  auto scale = [&](ast::IntLit &lit, int64_t num, int64_t den) {
    if (lit.value * num % den) why = formatv("{0} does not divide by {1}", lit.value * num, den).str();
    else lit.value = lit.value * num / den;
    lines.push_back(lit.range.Start);
  };
  std::function<void(std::vector<ast::StmtPtr> &)> walk = [&](std::vector<ast::StmtPtr> &body) {
    for (ast::StmtPtr &s : body) {
      if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get())) {
        if (f->var.name == shape.var) {
          if (v.kind == Variant::Kind::KStep) {
            auto *step = llvm::cast<ast::IntExpr>(f->step.get());
            if (step->value * v.num % v.den) why = formatv("the step {0} does not divide by {1}", step->value, v.den);
            step->value = step->value * v.num / v.den;
            lines.push_back(step->range.Start);
          } else if (v.kind == Variant::Kind::Depth) {
            f->pipeline = v.depth;
            lines.push_back(f->range.Start);
          }
        }
        walk(f->body);
      } else if (auto *g = llvm::dyn_cast<ast::GridStmt>(s.get())) {
        if (v.kind != Variant::Kind::Block) continue;
        // [rows, cols] or, over a batch, [1, rows, cols].
        size_t at = g->shape.dims.size() - 2 + v.side;
        if (g->shape.dims.size() < 2 || (at < g->symbols.size() && !g->symbols[at].empty()))
          why = "the grid's tile has no number to double there";
        else scale(g->shape.dims[at], 2, 1);
      } else if (auto *w = llvm::dyn_cast<ast::WorkgroupStmt>(s.get())) {
        if (v.kind == Variant::Kind::Block && v.moreWaves) scale(w->size, 2, 1);
      } else if (auto *a = llvm::dyn_cast<ast::AccDecl>(s.get())) {
        if (v.kind == Variant::Kind::Instruction && a->name.name == shape.acc) {
          a->mfma.name = v.instruction.str();
          lines.push_back(a->mfma.range.Start);
        }
        if (v.kind != Variant::Kind::Block || a->name.name != shape.acc || a->shape.dims.size() != 2) continue;
        scale(a->shape.dims[v.side], 2, 1);
        if (v.moreWaves && !a->waves) why = "the accumulator names no waves to double";
        else if (v.moreWaves) scale(v.side == 0 ? a->waves->wy : a->waves->wx, 2, 1);
      } else if (llvm::isa<ast::TileDecl, ast::LdsDecl>(s.get())) {
        auto *tile = llvm::dyn_cast<ast::TileDecl>(s.get());
        auto *lds = llvm::dyn_cast<ast::LdsDecl>(s.get());
        const std::string &name = tile ? tile->name.name : lds->name.name;
        ast::Shape &dims = tile ? tile->shape : lds->shape;
        for (const Operand &o : shape.operands) {
          if ((o.tile != name && !o.lds.count(name)) || dims.dims.size() != 2) continue;
          if (v.kind == Variant::Kind::KStep) scale(dims.dims[o.kDim], v.num, v.den);
          if (v.kind == Variant::Kind::Block && o.side == static_cast<int>(v.side)) scale(dims.dims[1 - o.kDim], 2, 1);
        }
      }
    }
  };
  walk(k.body);
  return why;
}

/// One variant, measured or refused.
struct Row {
  std::string name;
  std::string lines;   ///< the lines it changes, as text
  std::vector<unsigned> lineNumbers;
  std::string refused; ///< the first error, or why it could not be made
  CompiledKernel compiled;
  std::optional<LoopEstimate> estimate;
  unsigned depth = 0, stepsPerIteration = 1;
  bool depthChosen = false;
  double tflops = 0;
  const char *bound = "";
  bool measured() const { return refused.empty() && estimate.has_value(); }
  double busy() const { return estimate ? estimate->busy : 0; }
};

std::string lineList(const std::set<unsigned> &lines) {
  std::string out;
  for (unsigned l : lines) out += (out.empty() ? "" : ", ") + std::to_string(l);
  return lines.size() == 1 ? "line " + out : "lines " + out;
}

/// Makes, checks, compiles and measures `v` of kernel `name` from `text`. Sets `unsupported` when LLVM cannot
/// compile for the target.
Row measure(llvm::StringRef text, llvm::StringRef shownName, const CompileOptions &options, const std::string &name,
            const KLoopShape &shape, const Variant &v, std::string rowName, bool &unsupported) {
  Row row;
  row.name = std::move(rowName);
  llvm::SourceMgr sm;
  unsigned buffer = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, shownName), llvm::SMLoc());
  std::string sink;
  llvm::raw_string_ostream sinkStream(sink);
  DiagnosticEngine diags(sm, sinkStream);
  std::vector<RecordedDiagnostic> recorded;
  diags.record = &recorded;
  diags.errorLimit = 1;
  std::optional<ast::Program> program = parseChecked(buffer, diags);
  if (!program) {
    row.refused = "the file does not parse";
    return row;
  }
  llvm::erase_if(program->kernels, [&](const ast::Kernel &k) { return k.name.name != name; });
  std::vector<llvm::SMLoc> changed;
  if (std::string why = apply(program->kernels.front(), shape, v, changed); !why.empty()) {
    row.refused = why;
    return row;
  }
  std::set<unsigned> lines;
  for (llvm::SMLoc at : changed) lines.insert(sm.FindLineNumber(at, buffer));
  if (!lines.empty()) row.lines = lineList(lines);
  row.lineNumbers.assign(lines.begin(), lines.end());
  CompileOptions checked = options;
  checked.emit = EmitKind::HIP;
  checked.warningsAsErrors = false;
  checked.record = nullptr;
  std::unique_ptr<ir::Module> module = buildCheckedModule(*program, checked, diags);
  if (!module) {
    for (const RecordedDiagnostic &d : recorded)
      if (d.kind == llvm::SourceMgr::DK_Error) {
        row.refused = formatv("{0}{1}", d.line ? formatv("line {0}: ", d.line).str() : "", d.message);
        break;
      }
    if (row.refused.empty()) row.refused = "tilec refuses it";
    return row;
  }
  const Target &t = *module->target;
  const ir::Kernel &k = *module->kernels.front();
  for (const ir::For *f : kLoops(k.body))
    if (f->plan) {
      row.depth = f->plan->pipelineDepth();
      row.depthChosen = !f->plan->depthRequested;
      row.stepsPerIteration = f->plan->stepPerStage ? 2 : 1;
    }
  std::string hip;
  llvm::raw_string_ostream hipStream(hip);
  emitHIP(*module, shownName, hipStream);
  DeviceCode code;
  std::string hipName = (llvm::sys::path::stem(shownName) + ".hip").str();
  switch (compileDeviceCode(hip, hipName, t.name, DeviceOutput::Assembly, code, options.deviceThreads)) {
  case DeviceStatus::OK: break;
  case DeviceStatus::Unsupported: unsupported = true; [[fallthrough]];
  default: row.refused = "LLVM does not compile it: " + llvm::StringRef(code.diagnostics).trim().str(); return row;
  }
  for (const CompiledKernel &c : readKernelInfo(code.text))
    if (c.name == name) row.compiled = c;
  std::string problem = "no K loop in its assembly";
  for (const MFMALoop &l : findMFMALoops(code.text))
    if (l.kernel == name) row.estimate = measureLoop(k, t, l, problem);
  if (!row.estimate) {
    row.refused = problem;
    return row;
  }
  // The estimate at the compiler's occupancy: the waves' share of the MFMA peak, global memory, the LDS.
  const LoopEstimate &e = *row.estimate;
  row.tflops = e.peakTflops * e.busyWithWaves(std::max(1u, row.compiled.occupancy));
  row.bound = "MFMA";
  if (e.memoryBoundTflops > 0 && e.memoryBoundTflops < row.tflops)
    row.tflops = e.memoryBoundTflops, row.bound = "global memory";
  if (e.ldsBoundTflops > 0 && e.ldsBoundTflops < row.tflops) row.tflops = e.ldsBoundTflops, row.bound = "LDS";
  return row;
}

/// The share of a SIMD's MFMA pipe the compiler's waves could fill together: min(1, waves x busy).
double wavesBusy(const Row &r) {
  return r.estimate ? r.estimate->busyWithWaves(std::max(1u, r.compiled.occupancy)) : 0;
}

/// The MFMA work done, in TFLOP/s for the GPU: by one wave per SIMD, and by the compiler's waves together. Busy alone
/// does not compare instructions of different rates (gfx950's v_mfma_f32_32x32x16_bf16 does twice the work of
/// v_mfma_f32_32x32x8bf16_1k in its 8 passes).
double oneWaveTflops(const Row &r) { return r.estimate ? r.estimate->mfmaBoundTflops : 0; }
double wavesTflops(const Row &r) { return r.estimate ? r.estimate->peakTflops * wavesBusy(r) : 0; }

/// Whether `a` is worth changing `b` for: no scratch, no less MFMA work (by one wave, and by the compiler's waves
/// together, to 1%), and 2% more TFLOP/s in the estimate, or as many (to 2%) with one wave doing 2% more MFMA work.
/// The estimate alone would prefer every bigger block (global memory counts no cache hit); the MFMA figures keep a
/// block that starves the MFMA pipe out.
bool better(const Row &a, const Row &b) {
  if (!a.measured() || a.compiled.scratchBytes || oneWaveTflops(a) < oneWaveTflops(b) * 0.99 ||
      wavesTflops(a) < wavesTflops(b) * 0.99)
    return false;
  return a.tflops > b.tflops * 1.02 || (a.tflops >= b.tflops * 0.98 && oneWaveTflops(a) > oneWaveTflops(b) * 1.02);
}

void printRow(const Row &r, llvm::raw_ostream &os) {
  os << formatv("  {0,-23}", r.name);
  if (!r.measured()) {
    os << " refused: " << r.refused << "\n";
    return;
  }
  const LoopEstimate &e = *r.estimate;
  const char *format = " {0,5} {1,5} {2,7} {3,6} {4,5} {5,-11} {6,11:F1} {7,5:F2} {8,12:F2} {9,-13} {10,7:F0}  {11}";
  std::string text = formatv(format,
                             r.compiled.archVgprs, r.compiled.agprs, r.compiled.scratchBytes, r.compiled.ldsBytes,
                             r.compiled.occupancy, formatv("{0}{1}", r.depth, r.depthChosen ? "" : " (set)").str(),
                             e.cyclesPerIteration / r.stepsPerIteration, e.busy, wavesBusy(r), r.bound, r.tflops,
                             r.lines);
  os << llvm::StringRef(text).rtrim() << "\n";
}

/// One kernel explored: its K loop's shape and the rows, the kernel as written first; none without a K loop.
struct Exploration {
  std::string kernel;
  std::optional<KLoopShape> shape;
  unsigned blockRows = 0, blockCols = 0;
  std::vector<Row> rows;
  size_t best = 0; ///< the row named better, 0 (as written) where none is
};

void printText(const std::vector<Exploration> &all, llvm::StringRef shownName, const Target &t,
               llvm::raw_ostream &os) {
  os << formatv("tilec explore: {0} for {1}: each kernel's K step, block, pipeline depth and MFMA beside their "
                "neighbours, each compiled by LLVM in process, its vector kernel's K loop through llvm-mca ({2} "
                "iterations)\n",
                shownName, t.name, kMCAIterations);
  for (const Exploration &x : all) {
    if (!x.shape) {
      os << formatv("\nkernel {0}: no K loop with a number as its step (loads of windows that move with the loop, "
                    "their LDS writes, a barrier, then mma of those buffers)\n", x.kernel);
      continue;
    }
    const Row &asWritten = x.rows.front(), &best = x.rows[x.best];
    os << formatv("\nkernel {0}: K loop over {1}, step {2}, block {3} x {4}, pipeline {5}{6}\n", x.kernel,
                  x.shape->var, x.shape->step, x.blockRows, x.blockCols, asWritten.depth,
                  asWritten.depthChosen ? " (the compiler's choice)" : " (as written)");
    os << formatv("  {0,-23} {1,5} {2,5} {3,7} {4,6} {5,5} {6,-11} {7,11} {8,5} {9,12} {10,-13} {11,7}  {12}\n",
                  "variant", "VGPRs", "AGPRs", "scratch", "LDS B", "waves", "pipeline", "cycles/step", "busy",
                  "waves x busy", "bound", "TFLOP/s", "changes");
    for (const Row &r : x.rows) printRow(r, os);
    if (x.best == 0)
      os << "  as written is the best of these: no variant does as much MFMA work (one wave, and the compiler's waves "
            "together) with 2% more TFLOP/s, or as many with one wave doing 2% more\n";
    else
      os << formatv("  better: {0}: {1:F0} TFLOP/s ({2}) against {3:F0} ({4}); one wave's MFMAs {5:F0} TFLOP/s (busy "
                    "{6:F2}) against {7:F0} ({8:F2}), {9} waves per SIMD against {10}; change {11}\n",
                    best.name, best.tflops, best.bound, asWritten.tflops, asWritten.bound, oneWaveTflops(best),
                    best.busy(), oneWaveTflops(asWritten), asWritten.busy(), best.compiled.occupancy,
                    asWritten.compiled.occupancy, best.lines);
  }
}

void printJSON(const std::vector<Exploration> &all, llvm::StringRef shownName, const Target &t,
               llvm::raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("file", shownName);
    json.attribute("target", t.name);
    json.attribute("mca_iterations", kMCAIterations);
    json.attributeArray("kernels", [&] {
      for (const Exploration &x : all)
        json.object([&] {
          json.attribute("name", x.kernel);
          if (!x.shape) {
            json.attribute("k_loop", nullptr);
            return;
          }
          json.attributeObject("k_loop", [&] {
            json.attribute("var", x.shape->var);
            json.attribute("step", x.shape->step);
            json.attributeArray("block", [&] {
              json.value(x.blockRows);
              json.value(x.blockCols);
            });
            json.attribute("pipeline", x.rows.front().depth);
            json.attribute("pipeline_chosen", x.rows.front().depthChosen);
          });
          json.attributeArray("variants", [&] {
            for (const Row &r : x.rows)
              json.object([&] {
                json.attribute("name", r.name);
                json.attributeArray("lines", [&] {
                  for (unsigned l : r.lineNumbers) json.value(l);
                });
                if (!r.measured()) {
                  json.attribute("refused", r.refused);
                  return;
                }
                const LoopEstimate &e = *r.estimate;
                json.attribute("arch_vgprs", r.compiled.archVgprs);
                json.attribute("agprs", r.compiled.agprs);
                json.attribute("scratch_bytes", r.compiled.scratchBytes);
                json.attribute("lds_bytes", r.compiled.ldsBytes);
                json.attribute("waves_per_simd", r.compiled.occupancy);
                json.attribute("pipeline", r.depth);
                json.attribute("pipeline_chosen", r.depthChosen);
                json.attribute("cycles_per_step", e.cyclesPerIteration / r.stepsPerIteration);
                json.attribute("mfma_busy", e.busy);
                json.attribute("mfma_busy_with_compiler_waves", wavesBusy(r));
                json.attribute("one_wave_mfma_tflops", oneWaveTflops(r));
                json.attribute("estimate_tflops", r.tflops);
                json.attribute("bound", r.bound);
              });
          });
          json.attribute("better", x.best ? llvm::json::Value(x.rows[x.best].name) : llvm::json::Value(nullptr));
        });
    });
  });
  os << "\n";
}

} // namespace

int tilec::exploreKernels(const ir::Module &module, unsigned buffer, llvm::StringRef shownName,
                          const CompileOptions &options, DiagnosticEngine &diags, llvm::raw_ostream &os) {
  llvm::StringRef text = diags.getSourceMgr().getMemoryBuffer(buffer)->getBuffer();
  const Target &t = *module.target;
  std::string sink;
  llvm::raw_string_ostream sinkStream(sink);
  DiagnosticEngine quiet(diags.getSourceMgr(), sinkStream);
  std::optional<ast::Program> program = parseChecked(buffer, quiet);
  if (!program) return 1; // it parsed once already: not expected
  std::vector<Exploration> all;
  for (const ast::Kernel &k : program->kernels) {
    Exploration &x = all.emplace_back();
    x.kernel = k.name.name;
    const ir::Kernel *ir = nullptr;
    for (const auto &m : module.kernels)
      if (m->name == k.name.name) ir = m.get();
    std::vector<const ir::For *> loops = ir ? kLoops(ir->body) : std::vector<const ir::For *>{};
    x.shape = loops.empty() ? std::nullopt : kLoopShape(k, loops.front()->var);
    if (!x.shape) continue;
    x.blockRows = ir->gridTileRows, x.blockCols = ir->gridTileCols;
    const KLoopShape &shape = *x.shape;
    std::vector<Row> &rows = x.rows;
    bool unsupported = false;
    auto add = [&](const Variant &v, std::string name) {
      rows.push_back(measure(text, shownName, options, k.name.name, shape, v, std::move(name), unsupported));
    };
    add(Variant(), "as written");
    if (unsupported) {
      diags.errorNoLoc(rows.front().refused);
      return kExitTargetUnsupported;
    }
    if (!rows.front().measured()) {
      diags.errorNoLoc(formatv("kernel '{0}' as written: {1}", k.name.name, rows.front().refused));
      return 1;
    }
    unsigned depth = rows.front().depth;
    int64_t s = shape.step;
    add(Variant::kStep(2, 1), formatv("K step {0}", 2 * s));
    if (s % 2 == 0) add(Variant::kStep(1, 2), formatv("K step {0}", s / 2));
    for (bool moreWaves : {false, true})
      for (unsigned side : {0u, 1u})
        if (llvm::any_of(shape.operands, [&](const Operand &o) { return o.side == static_cast<int>(side); }))
          add(Variant::block(side, moreWaves),
              formatv("block {0} x 2{1}", side == 0 ? "M" : "N", moreWaves ? ", waves x 2" : ""));
    for (unsigned d = 1; d <= 4; ++d)
      if (d != depth) add(Variant::pipeline(d), formatv("pipeline {0}", d));
    // The target's other MFMAs of the accumulator's operand and result types (an unscaled one: a scaled MFMA's form
    // follows its operands' formats).
    for (const auto &acc : ir->accs)
      if (acc->name == shape.acc && acc->instr && !acc->instr->scaled)
        for (const MFMAInstr &m : allMFMA())
          if (&m != acc->instr && !m.scaled && m.availableOn(t) && m.a == acc->instr->a && m.b == acc->instr->b &&
              m.acc == acc->instr->acc)
            add(Variant::mfma(m.name), formatv("mfma {0}x{1}x{2}", m.m, m.n, m.k));
    for (size_t i = 1; i < rows.size(); ++i)
      if (better(rows[i], rows[x.best])) x.best = i;
  }
  if (options.format == OutputFormat::JSON) printJSON(all, shownName, t, os);
  else printText(all, shownName, t, os);
  return 0;
}
