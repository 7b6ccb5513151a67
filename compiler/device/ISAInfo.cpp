//===- ISAInfo.cpp - Reading the AMDGPU backend's kernel info ---------------===//
#include "device/ISAInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

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
    else if (key == "NumSgprs" || key == "TotalNumSgprs") current->sgprs = value; // LLVM 19, LLVM 22
    else if (key == "LDSByteSize") current->ldsBytes = value;
    else if (key == "ScratchSize") current->scratchBytes = value;
    else if (key == "Occupancy") current->occupancy = value;
    else if (key == "codeLenInByte") current->codeBytes = value;
  }
  return kernels;
}

namespace {

/// An instruction line without its comment, or "" for labels, directives, comments and blank lines.
llvm::StringRef instructionOf(llvm::StringRef line) {
  line = line.split(';').first.trim();
  if (line.empty() || line.starts_with(".") || line.ends_with(":")) return "";
  return line;
}

/// The label a branch instruction jumps to ("s_cbranch_scc1 .LBB0_6" -> ".LBB0_6"), or "".
llvm::StringRef branchTarget(llvm::StringRef instruction) {
  if (!instruction.starts_with("s_branch") && !instruction.starts_with("s_cbranch")) return "";
  llvm::StringRef target = instruction.split(' ').second.trim();
  return target.starts_with(".LBB") ? target : "";
}

} // namespace

std::vector<MFMALoop> tilec::findMFMALoops(llvm::StringRef assembly) {
  std::vector<MFMALoop> loops;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  assembly.split(lines, '\n');
  std::string function;
  llvm::StringMap<size_t> labels;            // label -> its line, within the current function
  std::vector<std::pair<size_t, size_t>> ranges; // a loop: its label's line, its last backward branch's line
  auto finish = [&] {
    // The innermost loop with MFMAs: the shortest range that holds one.
    std::optional<std::pair<size_t, size_t>> best;
    for (auto [begin, end] : ranges) {
      bool hasMFMA = false;
      for (size_t j = begin; j <= end && !hasMFMA; ++j) hasMFMA = instructionOf(lines[j]).starts_with("v_mfma");
      if (hasMFMA && (!best || end - begin < best->second - best->first)) best = std::make_pair(begin, end);
    }
    ranges.clear();
    labels.clear();
    if (!best) return;
    MFMALoop loop;
    loop.kernel = function;
    loop.label = lines[best->first].split(';').first.trim().drop_back().str();
    for (size_t i = best->first; i <= best->second; ++i) {
      llvm::StringRef inst = instructionOf(lines[i]);
      if (inst.empty()) continue;
      loop.instructions.push_back(inst.str());
      if (inst.starts_with("buffer_load_")) ++loop.bufferLoadsRewritten;
      llvm::StringRef mnemonic = inst.split(' ').first;
      if (!mnemonic.starts_with("v_mfma")) continue;
      ++loop.mfmaCount;
      auto it = llvm::find_if(loop.mfmas, [&](auto &p) { return p.first == mnemonic; });
      if (it == loop.mfmas.end()) loop.mfmas.emplace_back(mnemonic.str(), 1);
      else ++it->second;
    }
    loops.push_back(std::move(loop));
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i];
    if (size_t at = line.find("; -- Begin function "); at != llvm::StringRef::npos) {
      finish();
      function = line.substr(at + 20).trim().str();
      continue;
    }
    llvm::StringRef trimmed = line.split(';').first.trim();
    if (trimmed.starts_with(".LBB") && trimmed.ends_with(":")) {
      labels[trimmed.drop_back()] = i;
      continue;
    }
    llvm::StringRef target = branchTarget(instructionOf(line));
    auto it = target.empty() ? labels.end() : labels.find(target);
    if (it == labels.end()) continue; // not a backward branch
    // Several branches may go back to one label; the loop ends at the last of them.
    auto same = llvm::find_if(ranges, [&](auto &r) { return r.first == it->second; });
    if (same != ranges.end()) same->second = i;
    else ranges.emplace_back(it->second, i);
  }
  finish();
  return loops;
}

std::string MFMALoop::forMCA() const {
  std::string text;
  for (const std::string &inst : instructions) {
    llvm::StringRef i(inst);
    if (i.starts_with("buffer_load_")) {
      // "buffer_load_dwordx4 v[0:3], v4, s[8:11], 0 offen" -> "global_load_dwordx4 v[0:3], v[0:1], off"
      auto [mnemonic, operands] = i.split(' ');
      text += "global_load_" + mnemonic.drop_front(12).str() + " " + operands.split(',').first.trim().str() +
              ", v[0:1], off\n";
      continue;
    }
    text += inst + "\n";
  }
  return text;
}
