//===- MFMA.h - The matrix instructions of gfx942 and gfx950 ----------------===//
//
// One declarative table of every MFMA instruction tilec uses (../shared/facts/mfma.md): shape, dtypes, how many A/B
// values and C/D values each lane holds, cycles, the clang builtin and the C++ type of its A/B operands, and on which
// architectures it exists. The lane layouts (which lane and element hold A[i][k], B[k][j], D[i][j]) are formulas over
// the table's numbers. Nothing else in tilec spells an MFMA mnemonic or builtin.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_MFMA_H
#define TILEC_MFMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "support/DType.h"
#include "target/Target.h"
#include <optional>
#include <string>

namespace tilec {

struct ScaledMFMAInstr;

/// One MFMA instruction, or one scaled MFMA with its operand formats (scaledVariant): the numbers count elements of
/// the operands' dtypes, so for fp4x2 a K value of the table is a byte holding two fp4 values.
struct MFMAInstr {
  llvm::StringRef name;        ///< ISA mnemonic, e.g. "v_mfma_f32_32x32x8_f16"
  llvm::StringRef builtin;     ///< clang builtin, e.g. "__builtin_amdgcn_mfma_f32_32x32x8f16"
  unsigned m, n, k;            ///< D (m x n) += A (m x k) * B (k x n)
  DType a, b, acc;             ///< A, B and C/D element types
  unsigned kPerLane;           ///< A (and B) values per lane, consecutive in K
  unsigned accPerLane;         ///< C/D values per lane
  unsigned cycles;             ///< issue cycles of one instruction on one SIMD
  unsigned archs;              ///< bit set of Arch
  llvm::StringRef operandType; ///< C++ type of the A/B operand in emitted code
  llvm::StringRef accType;     ///< C++ type of C/D
  /// Consecutive K values of one fragment read when a lane's K values are not one run: the scaled MFMA's 8-bit
  /// operands hold K 16 g .. 16 g + 15 and 16 (g + G) .. + 15 (docs/mx.md). 0: one run of kPerLane.
  unsigned chunk = 0;
  const ScaledMFMAInstr *scaled = nullptr; ///< the scaled instruction this is a format variant of
  unsigned codeA = 0, codeB = 0;           ///< scaled: the cbsz (A) and blgp (B) format codes

  bool availableOn(const Target &t) const { return archs & static_cast<unsigned>(t.arch); }
  /// Lane groups splitting K: 64 / m (2 for 32x32 shapes, 4 for 16x16).
  unsigned kGroups() const { return 64 / m; }
  /// Consecutive K values of one fragment read, and the reads of one fragment.
  unsigned kRun() const { return chunk ? chunk : kPerLane; }
  unsigned readsPerFragment() const { return kPerLane / kRun(); }
  /// LDS reads tilec emits per run: 1 (a run is at most 16 bytes), 3 for the 24-byte run of a 6-bit format (three
  /// 8-byte reads: it starts only 8-byte aligned).
  unsigned ldsReadsPerRun() const { return kRun() * sizeOf(a) == 24 ? 3 : 1; }
  /// The LDS read instructions they become: the gfx950 compiler pairs two of the three 8-byte reads into a
  /// ds_read2_b64 (test/ISA/gfx950-mx-gemm.test), so 2 for the 24-byte run.
  unsigned ldsReadInstructionsPerRun() const { return ldsReadsPerRun() == 3 ? 2 : 1; }
  /// VGPRs of one A or B operand: the scaled builtins take 8 dwords whatever the format (fp4's 16 bytes in the
  /// low half).
  unsigned operandDwords() const { return scaled ? 8 : (kPerLane * sizeOf(a) + 3) / 4; }
  /// VGPRs the A (or B) operand holds in the instruction LLVM 22 selects: the format's own width, fp8 8, fp6 6,
  /// fp4 4 (v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[20:23] with cbsz:4 blgp:4), whatever the
  /// builtin's 8.
  /// kPerLane counts A's elements; B's values per lane are as many, in B's own width.
  unsigned operandRegisters(bool b) const {
    return (kPerLane * info(a).values * valueBits(b ? this->b : a) + 31) / 32;
  }
  /// Multiply-adds per instruction (values, not bytes: an fp4x2 element is two).
  unsigned macs() const { return m * n * k * info(a).values; }
};

/// Which lane holds an element of an operand, and where in the lane's vector.
struct LaneSlot {
  unsigned lane, elem;
};

/// Every instruction of the table.
llvm::ArrayRef<MFMAInstr> allMFMA();
/// The instruction with this mnemonic, or nullptr.
const MFMAInstr *lookupMFMA(llvm::StringRef name);
/// Names of the instructions available on `target` taking `a`/`b` operands, for messages.
std::string mfmaNamesFor(const Target &target, std::optional<DType> a = std::nullopt);

/// A[i][k]: lane = i + m * (k / kPerLane), elem = k % kPerLane (with chunks: chunk c = k / chunk in lane group
/// c % G at elem chunk * (c / G) + k % chunk).
LaneSlot laneOfA(const MFMAInstr &ins, unsigned i, unsigned k);
/// B[k][j]: lane = j + n * (k / kPerLane), elem = k % kPerLane.
LaneSlot laneOfB(const MFMAInstr &ins, unsigned k, unsigned j);
/// D[i][j]: 16x16: lane = j + 16 * (i / 4), elem = i % 4; 32x32: lane = j + 32 * ((i / 4) % 2),
/// elem = 4 * (i / 8) + i % 4.
LaneSlot laneOfD(const MFMAInstr &ins, unsigned i, unsigned j);

/// The instruction that computes D^T = B^T A^T for `ins` on `target`, i.e. takes B's fragment as its A operand and A's
/// as its B: `ins` itself, or for mixed fp8/bf8 operands the one with the dtypes exchanged (fp8_bf8 <-> bf8_fp8).
/// The emitter issues it so that each lane holds rows of the accumulator (see laneOfD with i and j exchanged).
const MFMAInstr &transposedMFMA(const MFMAInstr &ins, const Target &target);

/// `mfma auto`: the instruction for these dtypes on `target` whose blocks tile a wave's part (waveM x waveN), whose
/// K divides kStep (0: not known yet), and whose fragment reads stay aligned in the operands' LDS rows: a fragment is
/// kPerLane consecutive K values, one read of kPerLane x sizeOf(dtype) bytes, so a stored row of aRowBytes (A) or
/// bRowBytes (B) bytes must be a multiple of it (0: not known, no constraint). On gfx950 the K32/K16 f16 and bf16
/// forms come first; then 32x32 over 16x16 (twice the work per fragment read). nullptr when none fits.
const MFMAInstr *chooseMFMA(const Target &target, DType a, DType b, DType acc, unsigned waveM, unsigned waveN,
                            unsigned kStep, unsigned aRowBytes = 0, unsigned bRowBytes = 0);

//===--- Scaled MFMA with microscaling (MX) formats (gfx950; docs/mx.md) ---===//

/// The element formats of the scaled MFMAs' A and B operands, in the order of their cbsz/blgp codes.
enum class MXFormat { FP8, BF8, FP6, BF6, FP4 };

/// Static facts about one MX element format.
struct MXFormatInfo {
  MXFormat format;
  llvm::StringRef name; ///< tilec's dtype name (fp8/bf8 are the OCP E4M3/E5M2 on gfx950)
  unsigned code;        ///< the cbsz (A) / blgp (B) value that selects it
  unsigned bits;        ///< width of one element
  unsigned dwords;      ///< operand VGPRs per lane (32 elements)
  /// Consecutive K values a lane holds together: 16 for the 8-bit formats (two chunks per lane), 32 for fp6, bf6
  /// and fp4 (one run, densely packed from bit 0: value e at bits bits * e .. bits * e + bits - 1).
  unsigned kChunk;
};

/// One scaled MFMA: D (m x n, f32) += (A scaled) x (B scaled), one E8M0 scale per 32 K values of each row of A and
/// each column of B. Every lane holds 32 K values of A and of B and passes one 32-bit scale register for each.
struct ScaledMFMAInstr {
  llvm::StringRef name;      ///< ISA mnemonic
  llvm::StringRef builtin;   ///< clang builtin (ROCm 7 clang; clang-19 does not have it)
  llvm::StringRef intrinsic; ///< the LLVM intrinsic, before its overload suffix (.v8i32.v8i32 etc.)
  unsigned m, n, k;
  unsigned kPerLane;         ///< A (and B) values per lane
  unsigned accPerLane;       ///< C/D values per lane
  unsigned cycles;           ///< issue cycles with fp4/fp6 operands; an fp8/bf8 operand doubles them (scaledCycles)
  unsigned archs;            ///< bit set of Arch
  llvm::StringRef accType;   ///< C++ type of C/D
  static constexpr unsigned kBlock = 32; ///< K values that share one scale

  bool availableOn(const Target &t) const { return archs & static_cast<unsigned>(t.arch); }
  unsigned kGroups() const { return 64 / m; }
};

llvm::ArrayRef<MXFormatInfo> allMXFormats();
const MXFormatInfo &info(MXFormat format);
/// The scaled instructions (kept apart from allMFMA(): they take scales, so `mfma auto` and the plain mma never
/// pick them).
llvm::ArrayRef<ScaledMFMAInstr> allScaledMFMA();
/// The scaled instruction with this mnemonic, or nullptr.
const ScaledMFMAInstr *lookupScaledMFMA(llvm::StringRef name);
/// Issue cycles for these operand formats: the table's figure, twice that when A or B is fp8/bf8.
unsigned scaledCycles(const ScaledMFMAInstr &ins, MXFormat a, MXFormat b);
/// A[i][k] (or B[k][j] with j for i) in `format`: fp4, fp6, bf6: lane i + m * (k / 32), elem k % 32; fp8/bf8: lane
/// i + m * ((k / 16) % G), elem 16 * ((k / 16) / G) + k % 16 (G = 64 / m). nullopt for a format without a K chunk.
std::optional<LaneSlot> laneOfScaledOperand(const ScaledMFMAInstr &ins, MXFormat format, unsigned i, unsigned k);
/// The variant of `ins` for operands of dtypes `a` and `b` (each fp8, bf8, fp4x2, fp6x4 or bf6x4), its numbers in
/// elements of `a`, or nullptr for any other dtype.
const MFMAInstr *scaledVariant(const ScaledMFMAInstr &ins, DType a, DType b);
/// The geometry of one operand's fragments in that operand's elements: `ins` itself for A (and for operands of one
/// column width), for a B whose elements hold another number of K values (fp4x2 B with an fp8 A, say) the variant
/// whose numbers count B's elements (its k, kPerLane and runs).
const MFMAInstr &operandView(const MFMAInstr &ins, bool isB);
/// `ins` with its lane's K values taken in runs of 4: run c of a K step (K values 4c .. 4c + 3) in lane group c % G at
/// elements 4 (c / G) .. + 3, the order in which an accumulator's C/D layout of the same block height holds a row's
/// columns (16 x 16: 4 per lane group and block; 32 x 32: 4 per lane group and group of 8). The product is the same
/// for any order of K common to A and B; with this one an accumulator's values are the A operand of the next mma
/// without leaving registers (passes/ForwardAccOperands.h), and B is read in runs of 4. `ins` itself where its lane's
/// K values are one run of 4 already.
const MFMAInstr &runsOfFour(const MFMAInstr &ins);
/// The lane whose scale register holds the scale of row i of A (column i of B) for K block `block`: i + m * block.
unsigned laneOfScale(const ScaledMFMAInstr &ins, unsigned i, unsigned block);

} // namespace tilec

#endif
