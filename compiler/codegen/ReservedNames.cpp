//===- ReservedNames.cpp - Names the emitted HIP declares itself -------------===//
#include "codegen/ReservedNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <cstring>

using namespace tilec;

bool tilec::isEmitterName(llvm::StringRef n) {
  static const llvm::StringSet<> names = {"tid",    "wave",   "lane",   "block_row", "block_col", "i",
                                          "e",      "part",   "kk",     "k_lane",    "bi",        "bj",
                                          "a_frag", "b_frag", "row",    "col",       "stream",    "grid",
                                          "tilec",  "std",    "dim3",   "vectors_aligned", "interior", "stage",
                                          "block_batch"};
  return names.contains(n) || n.starts_with("hip") || n.starts_with("HIP") || n.starts_with("TILEC");
}

std::string tilec::emitterClash(llvm::StringRef n, llvm::function_ref<bool(llvm::StringRef)> isUserName) {
  static const char *const suffixes[] = {"_row", "_col",   "_v", "_out",  "_part",
                                         "_lds", "_in", "_total", "_w", "_lane", "_buf",
                                         "_sa",  "_sb", "_sa_next", "_sb_next"};
  for (const char *suffix : suffixes)
    if (n.ends_with(suffix) && isUserName(n.drop_back(std::strlen(suffix))))
      return n.drop_back(std::strlen(suffix)).str();
  // X_v1, X_v2: further loads of X.
  size_t at = n.rfind("_v");
  if (at != llvm::StringRef::npos && at + 2 < n.size() && llvm::all_of(n.drop_front(at + 2), llvm::isDigit) &&
      isUserName(n.take_front(at)))
    return n.take_front(at).str();
  return "";
}
