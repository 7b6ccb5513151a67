//===- AccessPlan.h - How each tensor access is made, and what the vector kernel needs -===//
//
// The width and direction of every global access of a kernel, and the alignment conditions its vector accesses rely
// on. The launcher, the report, the resource model's budget check and --verify all read them from here, so a kernel
// is described the same way everywhere: which kernel runs when, and what `assume` would remove the fallback.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_ACCESSPLAN_H
#define TILEC_ACCESSPLAN_H

#include "ir/IR.h"
#include <string>
#include <vector>

namespace tilec {

/// A tensor access as the emitter performs it: how wide, and whether rows are known to be vector aligned.
struct AccessPlan {
  const ir::Tensor *tensor;
  const ir::Tile *via;      ///< whose distribution the access follows (nullptr: an expression's)
  const ir::AccTile *viaAcc; ///< or the accumulator whose C/D layout it follows
  unsigned vec;
  unsigned bytes;
  bool isStore;
  bool alignedAtCompileTime; ///< the column extent is known to be a multiple of vec
  unsigned reducedAccesses = 0; ///< the store of a reduced value: accesses of each lane that stores
  /// A load in an accumulator's C/D layout (viaAcc set) of one row of it (0), one column (1) or its whole window (-1).
  int broadcast = -1;
  /// A load that the vector kernel's masked K steps make through a buffer resource (ir::Kernel::bufferLoaded): the
  /// vector kernel then needs the tensor under 2 GiB, the reach of a buffer's 32-bit offsets.
  bool viaBuffer = false;
};
/// Every distinct (tensor, vec, direction) access of a kernel, in program order.
std::vector<AccessPlan> planAccesses(const ir::Kernel &kernel);

/// One condition a kernel's vector accesses rely on: `tensor`'s base pointer aligned to `bytes` (the access's size, a
/// dword for a 12-byte one: accessAlignment) and, when `rows` is
/// set, its column extent a multiple of `vec`, which is only known at run time (tilec::rows_aligned<vec> checks both).
struct AlignmentCheck {
  const ir::Tensor *tensor;
  unsigned vec, bytes;
  bool rows;
};
/// The distinct (tensor, vec) checks of a kernel's vector accesses, in program order. The launcher, the report and
/// the budget check all read them from here.
std::vector<AlignmentCheck> alignmentChecks(const std::vector<AccessPlan> &plans);

/// Whether some check needs rows that are only known aligned at run time. Such a kernel is emitted twice: `name`,
/// compiled with every row vector aligned (vector accesses only), and `name_unaligned`, whose vectors need only
/// element alignment and which goes element by element where a vector crosses the end of a row. The launcher checks
/// the alignment and picks one.
bool hasUnalignedVariant(const std::vector<AccessPlan> &plans);
/// "name_unaligned".
std::string unalignedName(const ir::Kernel &kernel);
/// What the launcher checks to run the vector kernel, e.g. "K % 8 == 0, N % 8 == 0 and A, B 16-byte aligned", and
/// "A under 2 GiB" for a tensor loaded through a buffer (AccessPlan::viaBuffer).
std::string vectorKernelCondition(const std::vector<AccessPlan> &plans);
/// The `assume` statements that would remove the _unaligned kernel, as a phrase: "'assume N % 8 == 0;' removes the
/// fallback", "'assume K % 16 == 0;' and 'assume N % 16 == 0;' remove the fallback" (a modulus implied by a larger one
/// is left out); "" when some extent is a literal.
std::string assumesRemovingUnaligned(const std::vector<AccessPlan> &plans);

} // namespace tilec

#endif
