//===- EmitterNames.h - The user's names and the emitter's own, kept apart ---===//
//
// The emitted HIP keeps the user's names (tiles, tensors, loop variables, ...) and declares locals of its own (`lane`,
// `row`, `kk`, `t_row` for tile t, ...). So that no program has to avoid the emitter's names, a kernel is written
// with its user names marked (`tilecU3_row` for `row`), which tells the two apart in the text; resolve() then puts
// the user's names back and gives each local of the emitter's that one of them would hide the first free variant of
// its spelling (`row_1`, `row_2`, ...). A kernel with no such name is written exactly as without the marks.
// docs/language.md ("Names") says what stays refused: C++'s keywords and reserved identifiers, and the names of HIP
// and tilec's runtime that the emitted code uses (codegen/ReservedNames.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EMITTERNAMES_H
#define TILEC_EMITTERNAMES_H

#include "ir/IR.h"
#include "llvm/ADT/StringRef.h"
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tilec::hip {

/// While it lives, every name of kernel `k` that the user chose (or Sema and the passes chose in the user's
/// namespace: temporaries, staged scale tiles) reads as its mark; the destructor puts the names back.
class MarkedNames {
public:
  explicit MarkedNames(ir::Kernel &k);
  ~MarkedNames();
  MarkedNames(const MarkedNames &) = delete;
  MarkedNames &operator=(const MarkedNames &) = delete;

  /// Text written from the marked kernel, with the user's names back and the emitter's clashing locals renamed
  /// (in code; and where a comment or string names a local derived from a user name).
  std::string resolve(llvm::StringRef text) const;

  /// `tilecU<length>_<name>` (the kernel's own name: `tilecK<length>_<name>`).
  static std::string mark(llvm::StringRef name);

private:
  void markName(std::string &name);
  void markIndex(ir::Index *i);
  void markValue(ir::Value *v);
  void markBody(ir::Body &body);

  std::vector<std::pair<std::string *, std::string>> saved;
  std::set<std::string> userNames;
};

} // namespace tilec::hip

#endif
