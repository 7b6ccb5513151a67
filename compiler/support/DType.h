//===- DType.h - The element types of the Tile language --------------------===//
//
// One table of dtypes: their names in .tile files, sizes, and the C++ types the HIP emitter spells them with. fp8 and
// bf8 are stored as bytes; which encoding the byte holds (FNUZ on gfx942, OCP on gfx950) is a property of the target
// (Target.h), not of the dtype name. fp4x2 and e8m0 are the storage of gfx950's block-scaled (MX) operands
// (docs/mx.md): fp4x2 is one byte holding two fp4 (E2M1) values, the lower K index in the low nibble, so an fp4
// matrix of K values is a tensor of K / 2 fp4x2 columns and every size and the 16-byte rule count bytes; e8m0 is one
// block scale (2^(e - 127)). Neither has arithmetic or conversions: they are loaded, staged in LDS and multiplied by
// a scaled mma. fp6x4 and bf6x4 are three bytes holding four fp6 (E2M3) or bf6 (E3M2) values, a little-endian bit
// string with value e at bits 6e .. 6e + 5, so a 6-bit matrix of K values is a tensor of K / 4 columns of 3 bytes; the
// only vector access of one is vec 4 (12 bytes, one dwordx3), since no access moves 3 or 6 bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DTYPE_H
#define TILEC_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace tilec {

enum class DType { F32, F16, BF16, I8, I32, FP8, BF8, FP4X2, E8M0, FP6X4, BF6X4 };

/// Static facts about one dtype.
struct DTypeInfo {
  DType type;
  llvm::StringRef name;    ///< as written in .tile files
  unsigned bytes;          ///< storage size of one element
  bool isFloat;            ///< floating point (fp8/bf8 included)
  bool hasArithmetic;      ///< + - * / max min act on it directly (fp8/bf8: cast first)
  llvm::StringRef cppType; ///< scalar C++ type in emitted HIP
  llvm::StringRef cppTag;  ///< short tag used in runtime vector names, e.g. "f16" -> tilec::f16x8
  unsigned values = 1;     ///< values one element holds: 2 for fp4x2, 4 for fp6x4 and bf6x4, else 1
  bool convertible = true; ///< cast<>(...) may take or give it (not fp4x2, e8m0, fp6x4, bf6x4)
};

const DTypeInfo &info(DType type);
/// The dtype named `name`, if any.
std::optional<DType> parseDType(llvm::StringRef name);
/// Every dtype's name, in the table's order (for "did you mean" suggestions).
llvm::ArrayRef<llvm::StringRef> dtypeNames();
/// "f32, f16, ..., fp6x4, bf6x4": for error messages.
llvm::StringRef allDTypeNames();

inline llvm::StringRef name(DType type) { return info(type).name; }
inline unsigned sizeOf(DType type) { return info(type).bytes; }
/// Bits of one value: 4 for fp4x2, 6 for fp6x4 and bf6x4, else 8 x the element's bytes.
inline unsigned valueBits(DType type) { return 8 * info(type).bytes / info(type).values; }
/// fp8 or bf8: converted to and from f32 in software (tilec::f32_to_fp8, fp8_to_f32).
inline bool isFp8(DType type) { return type == DType::FP8 || type == DType::BF8; }

} // namespace tilec

#endif
