//===- IssueRate.h - Issue cycles per 16 bytes of a memory-bound kernel ------===//
//
// The second half of the memory yardstick (analysis/MemoryTraffic.h has the bytes): whether a kernel without an mma
// issues its instructions fast enough to keep HBM busy. From the compiled kernel's instructions, each once as written
// (a loop's body once, like the code around it), s_waitcnt left out (waiting is latency, which other waves hide): the
// issue cycles one wave spends on them, a cycle (4 clocks) per instruction and a vector instruction's passes
// (Target::valuPasses: 4 for the quarter-rate transcendentals), and the bytes per lane of the global loads and stores
// among them. Against that: the time HBM takes for a wave's 16 bytes per lane when every wave resident on a CU streams
// (the kernel's occupancy, the target's HBM bandwidth per CU at its clock), and what the SIMD's own waves need to
// issue theirs. LLVM's MCA gives the other end: the cycles of one wave alone, its latencies exposed (the AMDGPU
// scheduling model issues in order).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_ISSUERATE_H
#define TILEC_ISSUERATE_H

#include "analysis/Occupancy.h"
#include "target/Target.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace tilec {

struct IssueRate {
  unsigned instructions = 0;        ///< of the kernel as written, s_waitcnt and s_endpgm left out
  unsigned memoryInstructions = 0;  ///< global loads and stores among them
  unsigned bytesPerLane = 0;        ///< what those move per lane
  unsigned issueCycles = 0;         ///< one per instruction, a vector instruction's passes (4 clocks each)
  double issuePer16 = 0;            ///< issueCycles / (bytesPerLane / 16)
  double aloneCycles = 0;           ///< MCA's cycles for one pass of one wave alone, latencies exposed
  double alonePer16 = 0;            ///< aloneCycles / (bytesPerLane / 16)
  unsigned wavesPerSimd = 0, wavesPerCU = 0;
  double hbmBytesPerClockPerCU = 0; ///< bandwidth / CUs / clock
  /// Cycles HBM takes for one wave's 16 bytes per lane (waveSize x 16 B) when every resident wave of a CU streams.
  double hbmPer16 = 0;
  /// Issue cycles the SIMD spends on its waves' 16 bytes each (wavesPerSimd x issuePer16) over hbmPer16: below 1 the
  /// SIMD keeps up with HBM; above, issue bounds the kernel.
  double issueOverHbm = 0;
};

/// The bytes per lane a vector-memory instruction moves ("global_load_dwordx4 ..." -> 16), 0 for anything else.
unsigned globalAccessBytes(llvm::StringRef instruction);

/// The rate of `instructions` (one kernel's, as written) on `t` at `occupancy`, given MCA's cycles for one pass of
/// one wave over them (issueBody's text); bytesPerLane 0 (and no rates) when they move nothing.
IssueRate issueRate(const std::vector<std::string> &instructions, double aloneCycles, const Target &t,
                    const Occupancy &occupancy);

/// The instructions MCA is given for `instructions`: every one but s_waitcnt and s_endpgm, a line each.
std::string issueBody(const std::vector<std::string> &instructions);

/// The "issue" lines of --verify and their JSON object ("issue").
void printIssueRate(const IssueRate &r, const Target &t, llvm::raw_ostream &os);
void writeIssueRate(const IssueRate &r, llvm::json::OStream &json);

} // namespace tilec

#endif
