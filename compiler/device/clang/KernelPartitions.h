//===- KernelPartitions.h - One backend run per kernel, on threads ----------===//
//
// A tilec module's kernels are independent (a kernel and its _unaligned twin share no code after inlining), so the
// plugin optimizes and generates code for each in its own LLVM context, on its own thread, after one front-end run.
// This is what HIP's own link does with --lto-partitions, here with one partition per kernel. The parts' assembly is
// put back together as one module's (one header, one kernel list in the metadata) and, for an object, assembled with
// LLVM's MC layer: the code object has one metadata note, as a one-module compile gives. Only plugin code includes
// this header.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_KERNELPARTITIONS_H
#define TILEC_KERNELPARTITIONS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace tilec::plugin {

/// The module's kernels (amdgpu_kernel definitions), in the module's order.
std::vector<std::string> kernelsOf(const llvm::Module &module);

/// Makes `module` the partition of `kernel`: the other kernels go (what only they used goes in the optimizer's
/// GlobalDCE). Global variables defined for the whole compilation unit (HIP's __hip_cuid_*) stay defined in the
/// first partition only, as declarations in the others.
void keepOnlyKernel(llvm::Module &module, llvm::StringRef kernel, bool firstPartition);

/// One module's assembly from its partitions' (in kernel order): the first part's header and module tail, every
/// part's function with its labels numbered as in the whole module, and the kernels of every part's metadata in one
/// `amdhsa.kernels` list: the text a one-module compile prints. Returns false, leaving `merged` alone, when a part
/// is not laid out as LLVM's AMDGPU printer lays out a module of one function (then the caller compiles the module
/// whole). The parts are renumbered in place.
bool mergeAssembly(std::vector<std::string> &parts, std::string &merged);

/// Assembles AMDGPU assembly for `processor` into a relocatable object with LLVM's MC layer (the caller has
/// initialized the AMDGPU target, its MC layer and its assembly parser). Returns false with the
/// assembler's messages in `messages` when it cannot.
bool assembleObject(llvm::StringRef assembly, llvm::StringRef processor, std::string &object, std::string &messages);

} // namespace tilec::plugin

#endif
