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

unsigned tilec::formatCode(llvm::StringRef instruction, llvm::StringRef field) {
  size_t at = instruction.find(field);
  unsigned code = 0;
  if (at != llvm::StringRef::npos && instruction.substr(at + field.size()).consumeInteger(10, code)) code = ~0u;
  return code;
}

std::vector<MFMALoop> tilec::findMFMALoops(llvm::StringRef assembly) {
  std::vector<MFMALoop> loops;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  assembly.split(lines, '\n');
  std::string function;
  llvm::StringMap<size_t> labels;            // label -> its line, within the current function
  std::vector<std::pair<size_t, size_t>> ranges; // a loop: its label's line, its last backward branch's line
  auto finish = [&] {
    // The loop with MFMAs that has the fewest instructions per MFMA: the main loop, not a masked copy of it around it
    // or beside it (LLVM 22 laid out the masked loop of gemm_i8 with the 16 x 16 instruction in fewer lines than its
    // main loop, but with more instructions; a staged main loop of two K steps has more instructions than the masked
    // loop of one, but half as many per MFMA).
    std::optional<std::pair<size_t, size_t>> best;
    unsigned bestCount = 0, bestMFMAs = 0;
    for (auto [begin, end] : ranges) {
      unsigned count = 0, mfmas = 0;
      for (size_t j = begin; j <= end; ++j) {
        llvm::StringRef inst = instructionOf(lines[j]);
        count += !inst.empty();
        mfmas += inst.starts_with("v_mfma");
      }
      // Fewer instructions per MFMA: count / mfmas < bestCount / bestMFMAs.
      if (mfmas && (!best || count * bestMFMAs < bestCount * mfmas)) {
        best = std::make_pair(begin, end);
        bestCount = count;
        bestMFMAs = mfmas;
      }
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
      llvm::StringRef mnemonic = inst.split(' ').first;
      if (!mnemonic.starts_with("v_mfma")) continue;
      ++loop.mfmaCount;
      MFMAUse use{mnemonic.str(), formatCode(inst, "cbsz:"), formatCode(inst, "blgp:"), 0};
      auto it = llvm::find_if(loop.mfmas, [&](const MFMAUse &u) {
        return u.mnemonic == use.mnemonic && u.cbsz == use.cbsz && u.blgp == use.blgp;
      });
      if (it == loop.mfmas.end()) it = loop.mfmas.insert(loop.mfmas.end(), use);
      ++it->count;
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

std::string MFMALoop::body() const {
  std::string text;
  for (const std::string &inst : instructions) text += inst + "\n";
  return text;
}

std::vector<std::string> tilec::kernelInstructions(llvm::StringRef assembly, llvm::StringRef name) {
  std::vector<std::string> out;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  assembly.split(lines, '\n');
  bool inside = false;
  for (llvm::StringRef line : lines) {
    if (size_t at = line.find("; -- Begin function "); at != llvm::StringRef::npos) {
      inside = line.substr(at + 20).trim() == name;
      continue;
    }
    if (inside && line.contains("; -- End function")) break;
    if (!inside) continue;
    if (llvm::StringRef inst = instructionOf(line); !inst.empty()) out.push_back(inst.str());
  }
  return out;
}
