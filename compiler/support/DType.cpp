//===- DType.cpp - The dtype table -----------------------------------------===//
#include "support/DType.h"

#include "llvm/ADT/StringExtras.h"
#include <string>
#include <vector>

using namespace tilec;

static const DTypeInfo kDTypes[] = {
    {DType::F32, "f32", 4, true, true, "float", "f32"},
    {DType::F16, "f16", 2, true, true, "_Float16", "f16"},
    {DType::BF16, "bf16", 2, true, true, "__bf16", "bf16"},
    {DType::I8, "i8", 1, false, true, "signed char", "i8"},
    {DType::I32, "i32", 4, false, true, "int", "i32"},
    {DType::FP8, "fp8", 1, true, false, "unsigned char", "fp8"},
    {DType::BF8, "bf8", 1, true, false, "unsigned char", "bf8"},
    // Raw bytes, like fp8: tilec::fp8x16 is 16 bytes of either.
    {DType::FP4X2, "fp4x2", 1, true, false, "unsigned char", "fp8", 2, false},
    {DType::E8M0, "e8m0", 1, true, false, "unsigned char", "fp8", 1, false},
    // Three bytes of four 6-bit values (tilec/runtime.h: struct fp6x4); tilec::fp6x4x4 is 12 bytes of either.
    {DType::FP6X4, "fp6x4", 3, true, false, "tilec::fp6x4", "fp6x4", 4, false},
    {DType::BF6X4, "bf6x4", 3, true, false, "tilec::fp6x4", "fp6x4", 4, false},
};

const DTypeInfo &tilec::info(DType type) { return kDTypes[static_cast<int>(type)]; }

std::optional<DType> tilec::parseDType(llvm::StringRef name) {
  for (const DTypeInfo &d : kDTypes)
    if (d.name == name) return d.type;
  return std::nullopt;
}

llvm::ArrayRef<llvm::StringRef> tilec::dtypeNames() {
  static const std::vector<llvm::StringRef> names = [] {
    std::vector<llvm::StringRef> out;
    for (const DTypeInfo &d : kDTypes) out.push_back(d.name);
    return out;
  }();
  return names;
}

llvm::StringRef tilec::allDTypeNames() {
  static const std::string joined = llvm::join(dtypeNames(), ", ");
  return joined;
}
