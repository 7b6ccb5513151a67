//===- MFMA.cpp - The MFMA table and its lane layouts -----------------------===//
//
// Rows from ../shared/facts/mfma.md (AMD's Matrix Instruction Calculator, the CDNA3/CDNA4 ISA guides, LLVM's AMDGPU
// backend). Operand types of the gfx942 builtins were checked against clang-19; the gfx950 builtins are not known to
// clang-19 and follow mfma.md.
//
//===----------------------------------------------------------------------===//
#include "target/MFMA.h"

#include <vector>

using namespace tilec;

namespace {

constexpr unsigned kBoth = static_cast<unsigned>(Arch::GFX942) | static_cast<unsigned>(Arch::GFX950);
constexpr unsigned kGfx950 = static_cast<unsigned>(Arch::GFX950);

// clang-format off
const MFMAInstr kTable[] = {
  // name                          builtin                                          m   n   k   A            B            C/D         kpl acc cyc  archs    A/B operand      C/D
  {"v_mfma_f32_16x16x16_f16",     "__builtin_amdgcn_mfma_f32_16x16x16f16",        16, 16, 16, DType::F16,  DType::F16,  DType::F32,  4,  4, 16, kBoth,   "tilec::f16x4",  "tilec::f32x4"},
  {"v_mfma_f32_32x32x8_f16",      "__builtin_amdgcn_mfma_f32_32x32x8f16",         32, 32,  8, DType::F16,  DType::F16,  DType::F32,  4, 16, 32, kBoth,   "tilec::f16x4",  "tilec::f32x16"},
  {"v_mfma_f32_16x16x16_bf16",    "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k",    16, 16, 16, DType::BF16, DType::BF16, DType::F32,  4,  4, 16, kBoth,   "tilec::i16x4",  "tilec::f32x4"},
  {"v_mfma_f32_32x32x8_bf16",     "__builtin_amdgcn_mfma_f32_32x32x8bf16_1k",     32, 32,  8, DType::BF16, DType::BF16, DType::F32,  4, 16, 32, kBoth,   "tilec::i16x4",  "tilec::f32x16"},
  {"v_mfma_i32_16x16x32_i8",      "__builtin_amdgcn_mfma_i32_16x16x32_i8",        16, 16, 32, DType::I8,   DType::I8,   DType::I32,  8,  4, 16, kBoth,   "long",          "tilec::i32x4"},
  {"v_mfma_i32_32x32x16_i8",      "__builtin_amdgcn_mfma_i32_32x32x16_i8",        32, 32, 16, DType::I8,   DType::I8,   DType::I32,  8, 16, 32, kBoth,   "long",          "tilec::i32x16"},
  {"v_mfma_f32_16x16x32_fp8_fp8", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8",   16, 16, 32, DType::FP8,  DType::FP8,  DType::F32,  8,  4, 16, kBoth,   "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_fp8_fp8", "__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8",   32, 32, 16, DType::FP8,  DType::FP8,  DType::F32,  8, 16, 32, kBoth,   "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_fp8_bf8", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8",   16, 16, 32, DType::FP8,  DType::BF8,  DType::F32,  8,  4, 16, kBoth,   "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_fp8_bf8", "__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8",   32, 32, 16, DType::FP8,  DType::BF8,  DType::F32,  8, 16, 32, kBoth,   "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_bf8_fp8", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8",   16, 16, 32, DType::BF8,  DType::FP8,  DType::F32,  8,  4, 16, kBoth,   "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_bf8_fp8", "__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8",   32, 32, 16, DType::BF8,  DType::FP8,  DType::F32,  8, 16, 32, kBoth,   "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_bf8_bf8", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8",   16, 16, 32, DType::BF8,  DType::BF8,  DType::F32,  8,  4, 16, kBoth,   "long",          "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_bf8_bf8", "__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8",   32, 32, 16, DType::BF8,  DType::BF8,  DType::F32,  8, 16, 32, kBoth,   "long",          "tilec::f32x16"},
  {"v_mfma_f32_16x16x4_f32",      "__builtin_amdgcn_mfma_f32_16x16x4f32",         16, 16,  4, DType::F32,  DType::F32,  DType::F32,  1,  4, 32, kBoth,   "float",         "tilec::f32x4"},
  {"v_mfma_f32_32x32x2_f32",      "__builtin_amdgcn_mfma_f32_32x32x2f32",         32, 32,  2, DType::F32,  DType::F32,  DType::F32,  1, 16, 64, kBoth,   "float",         "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_f16",     "__builtin_amdgcn_mfma_f32_16x16x32_f16",       16, 16, 32, DType::F16,  DType::F16,  DType::F32,  8,  4, 16, kGfx950, "tilec::f16x8",  "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_f16",     "__builtin_amdgcn_mfma_f32_32x32x16_f16",       32, 32, 16, DType::F16,  DType::F16,  DType::F32,  8, 16, 32, kGfx950, "tilec::f16x8",  "tilec::f32x16"},
  {"v_mfma_f32_16x16x32_bf16",    "__builtin_amdgcn_mfma_f32_16x16x32_bf16",      16, 16, 32, DType::BF16, DType::BF16, DType::F32,  8,  4, 16, kGfx950, "tilec::bf16x8", "tilec::f32x4"},
  {"v_mfma_f32_32x32x16_bf16",    "__builtin_amdgcn_mfma_f32_32x32x16_bf16",      32, 32, 16, DType::BF16, DType::BF16, DType::F32,  8, 16, 32, kGfx950, "tilec::bf16x8", "tilec::f32x16"},
};
// clang-format on

// docs/mx.md: codes from LLVM's tests and AMD's CDNA4 blog, dwords from LLVM's verifier, K chunks from the layouts
// (fp6/bf6: the CDNA4 ISA guide's layout tables, 32 consecutive K values per lane as for fp4).
// clang-format off
const MXFormatInfo kMXFormats[] = {
  // format         name   code bits dwords kChunk
  {MXFormat::FP8, "fp8", 0,   8,   8,     16},
  {MXFormat::BF8, "bf8", 1,   8,   8,     16},
  {MXFormat::FP6, "fp6", 2,   6,   6,     32},
  {MXFormat::BF6, "bf6", 3,   6,   6,     32},
  {MXFormat::FP4, "fp4", 4,   4,   4,     32},
};

// Cycles: 16x16x128 is 65536 FLOP per SIMD; at 16 cycles MI355X peaks at MXFP4's 10.1 PFLOP/s, at 32 at MXFP8's 5.0.
// The rows hold the cycles with fp6/bf6/fp4 operands only (16x16x128: 16 = 4 passes, 32x32x64: 32 = 8 passes);
// scaledCycles doubles them when A (cbsz) or B (blgp) is fp8 or bf8 (16x16x128: 32 = 8 passes, 32x32x64: 64 = 16).
// Sources, all agreeing:
// - AMD's "Matrix Core Programming on AMD CDNA3 and CDNA4 architecture" (ROCm Blogs,
//   https://rocm.blogs.amd.com/software-tools-optimization/matrix-cores-cdna/README.html, pointing to chapter 7 of the
//   CDNA4 ISA guide), MFMA table: "FP32 <- FP8/FP6/FP4 | 16x16x128 | 16 or 32 | ... Larger cycle count if either
//   matrix A or B is FP8", "32x32x64 | 32 or 64"; the same rows for MXFP8/MXFP6/MXFP4 (the scaled forms).
// - LLVM's SISchedule.td (llvm/llvm-project main, SIDPGFX950FullSpeedModel): "If either matrix format is f8, the
//   instruction takes 2x as many cycles. TODO: This isn't reflected in MCA." with PredIsF8_MFMA_SCALE (cbsz or blgp
//   <= MFMAScaleFormats::FP8_E5M2, i.e. fp8 or bf8) selecting Write8PassMAI / Write16PassMAI for
//   ^V_MFMA(_SCALE)?_.32_16X16X128_F8F6F4 / _32X32X64_F8F6F4, else Write4PassMAI / Write8PassMAI. llvm-mca does not
//   evaluate that predicate: llvm-mca 22 charges 4 / 8 passes whatever the formats (bench/kloop.py shows both).
// - AMD's rocRoller (ROCm/rocm-libraries, shared/rocroller/GPUArchitectureGenerator/include/GPUArchitectureGenerator/
//   GPUArchitectureGenerator_defs.hpp): "if (either matrix is F8) -> 8 passes else() -> 4 passes" (16x16x128) and
//   "-> 16 passes else() -> 8 passes" (32x32x64), its table keeping the smaller figure.
const ScaledMFMAInstr kScaledTable[] = {
  // name                                builtin                                             intrinsic                                      m   n    k  kpl acc cyc  archs    C/D
  {"v_mfma_scale_f32_16x16x128_f8f6f4", "__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4", "llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4", 16, 16, 128, 32,  4, 16, kGfx950, "tilec::f32x4"},
  {"v_mfma_scale_f32_32x32x64_f8f6f4",  "__builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4",  "llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4",  32, 32,  64, 32, 16, 32, kGfx950, "tilec::f32x16"},
};
// clang-format on

} // namespace

llvm::ArrayRef<MFMAInstr> tilec::allMFMA() { return kTable; }

const MFMAInstr *tilec::lookupMFMA(llvm::StringRef name) {
  for (const MFMAInstr &i : kTable)
    if (i.name == name) return &i;
  return nullptr;
}

std::string tilec::mfmaNamesFor(const Target &target, std::optional<DType> a) {
  std::string out;
  for (const MFMAInstr &i : kTable)
    if (i.availableOn(target) && (!a || i.a == *a)) out += (out.empty() ? "" : ", ") + i.name.str();
  return out;
}

// K is cut in runs of kRun(); run c goes to lane group c % G, in the lane's (c / G)-th run. With one run per lane
// (c < G) this is lane i + m * (k / kPerLane), elem k % kPerLane.
LaneSlot tilec::laneOfA(const MFMAInstr &ins, unsigned i, unsigned k) {
  unsigned run = ins.kRun(), c = k / run;
  return {i + ins.m * (c % ins.kGroups()), run * (c / ins.kGroups()) + k % run};
}

LaneSlot tilec::laneOfB(const MFMAInstr &ins, unsigned k, unsigned j) {
  unsigned run = ins.kRun(), c = k / run;
  return {j + ins.n * (c % (64 / ins.n)), run * (c / (64 / ins.n)) + k % run};
}

LaneSlot tilec::laneOfD(const MFMAInstr &ins, unsigned i, unsigned j) {
  if (ins.m == 16) return {j + 16 * (i / 4), i % 4};
  return {j + 32 * ((i / 4) % 2), 4 * (i / 8) + i % 4};
}

const MFMAInstr &tilec::transposedMFMA(const MFMAInstr &ins, const Target &target) {
  for (const MFMAInstr &i : kTable)
    if (i.m == ins.n && i.n == ins.m && i.k == ins.k && i.a == ins.b && i.b == ins.a && i.acc == ins.acc &&
        i.availableOn(target))
      return i;
  return ins;
}

const MFMAInstr *tilec::chooseMFMA(const Target &target, DType a, DType b, DType acc, unsigned waveM, unsigned waveN,
                                   unsigned kStep, unsigned aRowBytes, unsigned bRowBytes) {
  const MFMAInstr *best = nullptr;
  auto rank = [](const MFMAInstr &i) {
    // Prefer the doubled-K 16-bit forms (gfx950 only), then the 32x32 shapes.
    bool doubledK = (i.a == DType::F16 || i.a == DType::BF16) && i.kPerLane == 8;
    return (doubledK ? 4 : 0) + (i.m == 32 ? 2 : 0);
  };
  for (const MFMAInstr &i : kTable) {
    if (!i.availableOn(target) || i.a != a || i.b != b || i.acc != acc) continue;
    if (waveM % i.m != 0 || waveN % i.n != 0 || (kStep && kStep % i.k != 0)) continue;
    // A fragment read (kPerLane consecutive K values) must not straddle the alignment its width needs.
    if ((aRowBytes && aRowBytes % (i.kPerLane * sizeOf(i.a)) != 0) ||
        (bRowBytes && bRowBytes % (i.kPerLane * sizeOf(i.b)) != 0))
      continue;
    if (!best || rank(i) > rank(*best)) best = &i;
  }
  return best;
}

llvm::ArrayRef<MXFormatInfo> tilec::allMXFormats() { return kMXFormats; }

const MXFormatInfo &tilec::info(MXFormat format) { return kMXFormats[static_cast<int>(format)]; }

llvm::ArrayRef<ScaledMFMAInstr> tilec::allScaledMFMA() { return kScaledTable; }

const ScaledMFMAInstr *tilec::lookupScaledMFMA(llvm::StringRef name) {
  for (const ScaledMFMAInstr &i : kScaledTable)
    if (i.name == name) return &i;
  return nullptr;
}

unsigned tilec::scaledCycles(const ScaledMFMAInstr &ins, MXFormat a, MXFormat b) {
  bool eightBit = info(a).bits == 8 || info(b).bits == 8;
  return eightBit ? 2 * ins.cycles : ins.cycles;
}

std::optional<LaneSlot> tilec::laneOfScaledOperand(const ScaledMFMAInstr &ins, MXFormat format, unsigned i,
                                                   unsigned k) {
  unsigned chunk = info(format).kChunk;
  if (chunk == 0) return std::nullopt;
  // K is cut in chunks; chunk c goes to lane group c % G, in the lane's (c / G)-th run of `chunk` values.
  unsigned c = k / chunk, groups = ins.kGroups();
  return LaneSlot{i + ins.m * (c % groups), chunk * (c / groups) + k % chunk};
}

unsigned tilec::laneOfScale(const ScaledMFMAInstr &ins, unsigned i, unsigned block) { return i + ins.m * block; }

const MFMAInstr *tilec::scaledVariant(const ScaledMFMAInstr &ins, DType a, DType b) {
  // Every variant, made once: each pair of fp8, bf8, fp4x2, fp6x4 and bf6x4 for each scaled instruction. The numbers
  // count A's elements; operandView gives B's geometry in its own.
  static const std::vector<MFMAInstr> variants = [] {
    std::vector<MFMAInstr> out;
    using F = std::pair<DType, MXFormat>;
    const F fp8{DType::FP8, MXFormat::FP8}, bf8{DType::BF8, MXFormat::BF8}, fp4{DType::FP4X2, MXFormat::FP4};
    const F fp6{DType::FP6X4, MXFormat::FP6}, bf6{DType::BF6X4, MXFormat::BF6};
    const F formats[] = {fp8, bf8, fp4, fp6, bf6};
    for (const ScaledMFMAInstr &s : kScaledTable)
      for (const F &fa : formats)
        for (const F &fb : formats) {
          const F p[2] = {fa, fb};
          MFMAInstr v{};
          v.name = s.name;
          v.builtin = s.builtin;
          v.m = s.m;
          v.n = s.n;
          v.a = p[0].first;
          v.b = p[1].first;
          v.acc = DType::F32;
          // In elements of the dtypes: an fp4x2 byte is two K values, an fp6x4 three bytes four, so K and the lane's
          // run halve (fp4x2) or quarter (fp6x4, bf6x4).
          unsigned values = info(v.a).values;
          v.k = s.k / values;
          v.kPerLane = s.kPerLane / values;
          v.chunk = info(p[0].second).kChunk == s.kPerLane ? 0 : info(p[0].second).kChunk;
          v.accPerLane = s.accPerLane;
          v.cycles = scaledCycles(s, p[0].second, p[1].second);
          v.archs = s.archs;
          v.operandType = "tilec::i32x8";
          v.accType = s.accType;
          v.scaled = &s;
          v.codeA = info(p[0].second).code;
          v.codeB = info(p[1].second).code;
          out.push_back(v);
        }
    return out;
  }();
  for (const MFMAInstr &v : variants)
    if (v.scaled == &ins && v.a == a && v.b == b) return &v;
  return nullptr;
}

const MFMAInstr &tilec::operandView(const MFMAInstr &ins, bool isB) {
  if (!isB || !ins.scaled || info(ins.a).values == info(ins.b).values) return ins;
  return *scaledVariant(*ins.scaled, ins.b, ins.b);
}

const MFMAInstr &tilec::runsOfFour(const MFMAInstr &ins) {
  if (ins.kRun() == 4 || ins.scaled || ins.kPerLane % 4 != 0) return ins;
  // One variant per table entry, made on first use (the table is fixed, so the addresses stay valid).
  static const std::vector<MFMAInstr> variants = [] {
    std::vector<MFMAInstr> out;
    for (const MFMAInstr &t : allMFMA()) {
      MFMAInstr v = t;
      v.chunk = 4;
      out.push_back(v);
    }
    return out;
  }();
  for (const MFMAInstr &v : variants)
    if (v.name == ins.name) return v;
  return ins;
}
