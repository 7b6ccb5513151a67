//===- IssueRate.cpp - Issue cycles per 16 bytes of a memory-bound kernel ----===//
#include "device/IssueRate.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using llvm::formatv;

namespace {

/// Whether MCA is given `instruction`: waits are latency, not issue, and s_endpgm ends the wave.
bool issued(llvm::StringRef instruction) {
  return !instruction.starts_with("s_waitcnt") && !instruction.starts_with("s_endpgm");
}

} // namespace

unsigned tilec::globalAccessBytes(llvm::StringRef instruction) {
  llvm::StringRef mnemonic = instruction.split(' ').first;
  if (!mnemonic.consume_front("global_") && !mnemonic.consume_front("buffer_")) return 0;
  if (!mnemonic.consume_front("load_") && !mnemonic.consume_front("store_")) return 0;
  mnemonic.consume_back("_d16_hi");
  mnemonic.consume_back("_d16");
  if (mnemonic.ends_with("dwordx4") || mnemonic.ends_with("b128")) return 16;
  if (mnemonic.ends_with("dwordx3") || mnemonic.ends_with("b96")) return 12;
  if (mnemonic.ends_with("dwordx2") || mnemonic.ends_with("b64")) return 8;
  if (mnemonic.ends_with("dword") || mnemonic.ends_with("b32")) return 4;
  if (mnemonic.ends_with("short") || mnemonic.ends_with("b16")) return 2; // short, ushort, sshort
  if (mnemonic.ends_with("byte") || mnemonic.ends_with("b8")) return 1;  // byte, ubyte, sbyte
  return 0;
}

std::string tilec::issueBody(const std::vector<std::string> &instructions) {
  std::string text;
  for (const std::string &i : instructions)
    if (issued(i)) text += i + "\n";
  return text;
}

IssueRate tilec::issueRate(const std::vector<std::string> &instructions, double aloneCycles, const Target &t,
                           const Occupancy &occupancy) {
  IssueRate r;
  for (const std::string &i : instructions) {
    if (!issued(i)) continue;
    ++r.instructions;
    llvm::StringRef mnemonic = llvm::StringRef(i).split(' ').first;
    r.issueCycles += mnemonic.starts_with("v_") ? Target::valuPasses(mnemonic) : 1;
    if (unsigned bytes = globalAccessBytes(i)) ++r.memoryInstructions, r.bytesPerLane += bytes;
  }
  r.aloneCycles = aloneCycles;
  r.wavesPerSimd = occupancy.wavesPerSimd;
  r.wavesPerCU = occupancy.wavesPerSimd * t.simdsPerCU;
  r.hbmBytesPerClockPerCU = t.hbmGBPerSecond * 1e9 / t.computeUnits / (t.peakClockMHz * 1e6);
  if (!r.bytesPerLane || !r.wavesPerCU) return r;
  double units = r.bytesPerLane / 16.0;
  r.issuePer16 = r.issueCycles / units;
  r.alonePer16 = aloneCycles / units;
  r.hbmPer16 = 16.0 * t.waveSize * r.wavesPerCU / r.hbmBytesPerClockPerCU / t.clocksPerIssueCycle;
  r.issueOverHbm = r.wavesPerSimd * r.issuePer16 / r.hbmPer16;
  return r;
}

void tilec::printIssueRate(const IssueRate &r, const Target &t, llvm::raw_ostream &os) {
  if (!r.bytesPerLane) return;
  os << formatv("  issue: {0} instructions as written (s_waitcnt left out), {1} of them global loads and stores of {2} "
                "B per lane: {3} issue cycles = {4:F2} per 16 B a lane moves (one wave alone, LLVM MCA: {5:F1} cycles "
                "= {6:F2})\n",
                r.instructions, r.memoryInstructions, r.bytesPerLane, r.issueCycles, r.issuePer16, r.aloneCycles,
                r.alonePer16);
  os << formatv("    HBM at {0} waves per CU: {1} x 16 B x {0} / {2:F2} B per clock per CU ({3} GB/s / {4} CUs at {5} "
                "MHz) / {6} clocks = {7:F1} cycles; the SIMD's {8} waves issue theirs in {8} x {9:F2}: {10:F3} of "
                "the HBM time{11}\n",
                r.wavesPerCU, t.waveSize, r.hbmBytesPerClockPerCU, t.hbmGBPerSecond, t.computeUnits, t.peakClockMHz,
                t.clocksPerIssueCycle, r.hbmPer16, r.wavesPerSimd, r.issuePer16, r.issueOverHbm,
                r.issueOverHbm > 1 ? ": issue bounds the kernel" : "");
}

void tilec::writeIssueRate(const IssueRate &r, llvm::json::OStream &json) {
  if (!r.bytesPerLane) return;
  json.attributeObject("issue", [&] {
    json.attribute("instructions", r.instructions);
    json.attribute("memory_instructions", r.memoryInstructions);
    json.attribute("bytes_per_lane", r.bytesPerLane);
    json.attribute("issue_cycles", r.issueCycles);
    json.attribute("issue_cycles_per_16b", r.issuePer16);
    json.attribute("alone_cycles", r.aloneCycles);
    json.attribute("alone_cycles_per_16b", r.alonePer16);
    json.attribute("hbm_cycles_per_16b", r.hbmPer16);
    json.attribute("issue_over_hbm", r.issueOverHbm);
  });
}
