//===- ISAInfo.cpp - Reading the AMDGPU backend's kernel info ---------------===//
#include "ISAInfo.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;

std::vector<CompiledKernel> tilec::readKernelInfo(llvm::StringRef assembly) {
  std::vector<CompiledKernel> kernels;
  std::string function;
  CompiledKernel *current = nullptr;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  assembly.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    // ".protected gemm_f16   ; -- Begin function gemm_f16"
    if (size_t at = line.find("; -- Begin function "); at != llvm::StringRef::npos) {
      function = line.substr(at + 20).trim().str();
      current = nullptr;
      continue;
    }
    if (line == "; Kernel info:") {
      kernels.push_back({});
      kernels.back().name = function;
      current = &kernels.back();
      continue;
    }
    if (!current || !line.consume_front("; ")) continue;
    // "; NumVgprs: 45", "; codeLenInByte = 3032", "; LDSByteSize: 18432 bytes/workgroup (compile time only)"
    auto [key, rest] = line.split(line.contains(':') ? ':' : '=');
    rest = rest.trim();
    unsigned value = 0;
    if (rest.consumeInteger(10, value)) continue;
    key = key.trim();
    if (key == "NumVgprs") current->archVgprs = value;
    else if (key == "NumAgprs") current->agprs = value;
    else if (key == "TotalNumVgprs") current->totalVgprs = value;
    else if (key == "NumSgprs") current->sgprs = value;
    else if (key == "LDSByteSize") current->ldsBytes = value;
    else if (key == "ScratchSize") current->scratchBytes = value;
    else if (key == "Occupancy") current->occupancy = value;
    else if (key == "codeLenInByte") current->codeBytes = value;
  }
  return kernels;
}
