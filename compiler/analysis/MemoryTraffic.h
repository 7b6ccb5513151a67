//===- MemoryTraffic.h - The yardstick of memory-bound kernels ----------------===//
//
// What a kernel without an mma moves to and from global memory, against the least its algorithm needs, and whether
// it keeps enough bytes in flight to cover the HBM's latency (Little's law). Evaluated at a stated problem size (every
// dimension symbol set to it): the statements' accesses times the loops' trip counts times the workgroups. The report
// and --verify print it; bench/memory.py tabulates it for the examples.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_MEMORYTRAFFIC_H
#define TILEC_MEMORYTRAFFIC_H

#include "analysis/Occupancy.h"
#include "ir/IR.h"
#include "target/Target.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// One tensor's traffic over a whole launch.
struct TensorTraffic {
  const ir::Tensor *tensor = nullptr;
  double size = 0;              ///< bytes of the tensor at the problem size
  double read = 0, written = 0; ///< bytes the kernel's accesses move
};

struct MemoryTraffic {
  int64_t problemSize = 0; ///< every dimension symbol's value
  uint64_t workgroups = 0;
  std::vector<TensorTraffic> tensors;
  double moved = 0;   ///< bytes read and written, all tensors
  double ideal = 0;   ///< each tensor read once if read, written once if written
  /// Re-reads of tensors that every workgroup reads whole (a weight row): bytes beyond the tensor's size that the
  /// caches serve rather than HBM, left out of `moved` and counted here.
  double cachedRereads = 0;
  unsigned accesses = 0, wideAccesses = 0; ///< per lane, statically: all global accesses and the 16-byte ones
  unsigned inFlightPerLane = 0;            ///< bytes of the loads one lane issues before it first waits
  unsigned inFlightPerCU = 0;              ///< times the lanes of the waves resident on a CU
  double neededPerCU = 0;                  ///< HBM bandwidth per CU x its latency: what hides the latency
};

/// The traffic of `k` on `t` with `occupancy`, every dimension symbol set to `size`.
MemoryTraffic memoryTraffic(const ir::Kernel &k, const Target &t, const Occupancy &occupancy, int64_t size = 8192);

/// The "memory traffic" section of the report and of --verify, and its JSON object ("memory").
void printMemoryTraffic(const MemoryTraffic &m, const Target &t, llvm::raw_ostream &os);
void writeMemoryTraffic(const MemoryTraffic &m, llvm::json::OStream &json);

} // namespace tilec

#endif
