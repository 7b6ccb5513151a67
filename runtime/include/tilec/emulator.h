//===- tilec/emulator.h - Running emitted kernels on the CPU ----------------===//
//
// With -DTILEC_EMULATOR, the .hip file tilec emits compiles as plain host C++ (clang++ -x c++) and runs here:
//   - the HIP host API a launcher and a test program use (hipMalloc, hipMemcpy, hipLaunchKernelGGL, ...);
//   - the amdgcn builtins emitted device code uses (work-item and workgroup ids, s_barrier, fences), as macros;
//   - a scheduler that runs every work-item of a workgroup as a fiber: a workgroup is W waves of 64 lanes; fibers
//     run until they reach a barrier or a wave collective; a barrier opens when every wave has reached it, a wave
//     collective (an MFMA instruction) is computed once when all 64 lanes of its wave have reached it;
//   - the cross-lane builtins (DPP, ds_swizzle, ds_bpermute) and v_exp_f32 & co (tilec/emulator_crosslane.h);
//   - the MFMA builtins (tilec/emulator_mfma.h): D = A x B + C from the operands of all 64 lanes, with the lane
//     layouts of shared/facts/mfma.md;
//   - checks a GPU does not make: every global access must lie inside a live allocation and be aligned to its size,
//     a barrier that some waves reach while others have exited is a deadlock, and the lanes of a wave must reach
//     each wave collective together. Each is reported with the kernel, workgroup, wave, lane (and address), and
//     fails the launch (hipGetLastError returns hipErrorLaunchFailure).
// Header-only: its state lives in inline functions' statics, shared by every translation unit of a program.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_EMULATOR_H
#define TILEC_EMULATOR_H

// Emitted code passes and returns whole accesses (up to 16 x f32 = 64 B vectors) by value. On an x86 host without
// AVX(-512) clang warns that such calls have a different ABI than with it (-Wpsabi), which only matters between
// objects built with different flags; an emulator program is built with one set. Without this, emitted code that
// is warning-free for gfx942 fails an emulator build with -Werror (e.g. an f32 tile of vec 8 cast to fp8).
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <ucontext.h>
#include <unordered_set>
#include <vector>

//===--- The HIP host API subset ---===//

enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorInvalidDevicePointer = 17,
  hipErrorLaunchFailure = 719,
};
typedef struct ihipStream_t *hipStream_t;
enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
};
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};

#define __global__
#define __device__
#define __host__
#define __launch_bounds__(...)

namespace tilec::emu {

constexpr unsigned kWaveSize = 64;
constexpr size_t kFiberStack = 256 * 1024;

/// A wave collective one lane waits at: which operation, where it was called, and this lane's operands and result.
/// Both live on the lane's own stack, which stays put while the lane waits.
struct WaveCall {
  const char *name = nullptr; ///< for reports, e.g. "v_mfma_f32_32x32x8_f16"
  const void *op = nullptr;   ///< what the operation is (an instruction descriptor): every lane must agree
  /// Computes the operation once for the wave from every lane's operands, writing every lane's result.
  void (*compute)(const void *op, const void *const in[], void *const out[]) = nullptr;
  const char *file = nullptr; ///< call site
  unsigned line = 0;
  const void *in = nullptr;
  void *out = nullptr;

  /// The same operation at the same call site.
  bool sameAs(const WaveCall &o) const {
    return op == o.op && compute == o.compute && line == o.line && std::strcmp(file, o.file) == 0;
  }
  std::string where() const { return std::string(name) + " at " + file + ":" + std::to_string(line); }
};

/// One work-item: its context, stack and where it stands.
struct Fiber {
  enum class State { Ready, AtBarrier, AtCollective, Done };
  ucontext_t context;
  std::unique_ptr<char[]> stack;
  State state = State::Ready;
  unsigned thread = 0;
  WaveCall call; ///< while AtCollective
};

/// The emulator's state: allocations, the running launch and the last error.
struct Machine {
  std::map<std::uintptr_t, size_t> allocations; ///< base -> bytes
  hipError_t lastError = hipSuccess;
  // The running launch.
  const char *kernel = nullptr;
  dim3 grid, group, block;
  std::vector<Fiber> fibers;
  Fiber *current = nullptr;
  ucontext_t scheduler;
  const std::function<void()> *body = nullptr;
  bool failed = false;
  // On request (TILEC_EMULATOR_CHECK_LDS=1): the LDS bytes written so far by the running workgroup.
  bool checkLds = std::getenv("TILEC_EMULATOR_CHECK_LDS") && std::getenv("TILEC_EMULATOR_CHECK_LDS")[0] == '1';
  std::unordered_set<std::uintptr_t> ldsWritten;
};

inline Machine &machine() {
  static Machine m;
  return m;
}

/// Reports an error of the running launch at work-item `thread` of the running workgroup; the launch fails.
inline void report(const std::string &what, unsigned thread) {
  Machine &m = machine();
  std::fprintf(stderr, "tilec emulator: %s in kernel %s, workgroup (%u, %u), wave %u, lane %u\n", what.c_str(),
               m.kernel ? m.kernel : "?", m.group.x, m.group.y, thread / kWaveSize, thread % kWaveSize);
  m.failed = true;
}

/// Reports an error of the running work-item and returns to the scheduler; the work-item does not continue.
[[noreturn]] inline void fail(const std::string &what) {
  Machine &m = machine();
  report(what, m.current ? m.current->thread : 0);
  if (m.current) {
    m.current->state = Fiber::State::Done;
    swapcontext(&m.current->context, &m.scheduler);
  }
  std::abort(); // not reached: an aborted fiber is never resumed
}

inline std::string hex(const void *p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
  return buffer;
}

/// Checks one global access of `bytes` at `p`.
/// `align`: the alignment the access needs; 0 for its size (vector registers), the element size for the unaligned
/// accesses of rows that do not start on a vector boundary.
inline void check_global(const void *p, size_t bytes, bool isStore, size_t align = 0) {
  Machine &m = machine();
  const char *kind = isStore ? "store" : "load";
  auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = m.allocations.upper_bound(a);
  if (it == m.allocations.begin() || a + bytes > std::prev(it)->first + std::prev(it)->second) {
    std::string where = "not inside any allocation";
    if (it != m.allocations.begin()) {
      auto base = std::prev(it);
      if (a >= base->first)
        where = "offset " + std::to_string(a - base->first) + " of a " + std::to_string(base->second) +
                "-byte allocation at " + hex(reinterpret_cast<void *>(base->first));
    }
    fail("out-of-bounds " + std::to_string(bytes) + "-byte " + kind + " at " + hex(p) + " (" + where + ")");
  }
  // Vector accesses of power-of-two size must be aligned to it (a vector register load of 16 bytes, say).
  if (align == 0 && (bytes & (bytes - 1)) == 0) align = bytes;
  if (align == 0 && bytes == 12) align = 4; // dwordx3 (four fp6x4) needs a dword
  if (align > 1 && a % align != 0)
    fail("misaligned " + std::to_string(bytes) + "-byte " + kind + " at " + hex(p) + " (address % " +
         std::to_string(align) + " = " + std::to_string(a % align) + ")");
}

inline unsigned thread_id() { return machine().current->thread; }
inline unsigned group_id_x() { return machine().group.x; }
inline unsigned group_id_y() { return machine().group.y; }
inline unsigned group_id_z() { return machine().group.z; }

/// The workgroup barrier: this work-item waits until every work-item of the workgroup has arrived.
inline void barrier() {
  Machine &m = machine();
  Fiber *self = m.current;
  self->state = Fiber::State::AtBarrier;
  swapcontext(&self->context, &m.scheduler);
}

/// A wave collective: this lane leaves `call` (its operands, where its result goes) and waits until every lane of
/// its wave has reached the same call; the scheduler then computes it once and every lane resumes with its result.
inline void wave_collective(const WaveCall &call) {
  Machine &m = machine();
  Fiber *self = m.current;
  self->call = call;
  self->state = Fiber::State::AtCollective;
  swapcontext(&self->context, &m.scheduler);
}

/// "0-31, 40" for the lanes set in `lanes`.
inline std::string lane_ranges(const bool (&lanes)[kWaveSize]) {
  std::string out;
  for (unsigned l = 0; l < kWaveSize; ++l) {
    if (!lanes[l]) continue;
    unsigned last = l;
    while (last + 1 < kWaveSize && lanes[last + 1]) ++last;
    out += (out.empty() ? "" : ", ") + std::to_string(l) + (last > l ? "-" + std::to_string(last) : "");
    l = last;
  }
  return out;
}

/// Why lane `l` of the wave starting at work-item `first` is not at `call`, which the lanes in `arrived` are at.
inline std::string divergence(const Machine &m, unsigned threads, unsigned first, unsigned l, const WaveCall &call,
                              const bool (&arrived)[kWaveSize]) {
  const auto count = std::count(arrived, arrived + kWaveSize, true);
  std::string what = "divergent " + call.where() + ": lane" + (count > 1 ? "s " : " ") + lane_ranges(arrived) +
                     (count > 1 ? " are" : " is") + " at it, lane " + std::to_string(l);
  if (first + l >= threads)
    return what + " does not exist (the workgroup has " + std::to_string(threads) + " work-items, not a multiple of " +
           std::to_string(kWaveSize) + ")";
  const Fiber &f = m.fibers[first + l];
  if (f.state == Fiber::State::Done) return what + " exited without reaching it";
  if (f.state == Fiber::State::AtBarrier) return what + " waits at a barrier";
  return what + " is at " + f.call.where();
}

/// After a round, when no work-item is ready: computes the collective of every wave whose 64 lanes all wait at the
/// same call, and sets `progressed` if there was one. False (after reporting it) when the lanes of a wave disagree:
/// some at a collective, others exited, at a barrier or at another collective, which on a GPU computes garbage or
/// hangs. A collective needs all 64 lanes, so a wave the workgroup size leaves short is an error too.
inline bool run_wave_collectives(Machine &m, unsigned threads, bool &progressed) {
  progressed = false;
  for (unsigned first = 0; first < threads; first += kWaveSize) {
    const unsigned lanes = std::min(kWaveSize, threads - first);
    const Fiber *leader = nullptr;
    for (unsigned l = 0; l < lanes && !leader; ++l)
      if (m.fibers[first + l].state == Fiber::State::AtCollective) leader = &m.fibers[first + l];
    if (!leader) continue;
    bool arrived[kWaveSize] = {};
    for (unsigned l = 0; l < lanes; ++l) {
      const Fiber &f = m.fibers[first + l];
      arrived[l] = f.state == Fiber::State::AtCollective && f.call.sameAs(leader->call);
    }
    for (unsigned l = 0; l < kWaveSize; ++l)
      if (!arrived[l]) {
        report(divergence(m, threads, first, l, leader->call, arrived), first + l);
        return false;
      }
    const void *in[kWaveSize];
    void *out[kWaveSize];
    for (unsigned l = 0; l < kWaveSize; ++l) {
      in[l] = m.fibers[first + l].call.in;
      out[l] = m.fibers[first + l].call.out;
    }
    leader->call.compute(leader->call.op, in, out);
    for (unsigned l = 0; l < kWaveSize; ++l) m.fibers[first + l].state = Fiber::State::Ready;
    progressed = true;
  }
  return true;
}

inline void fiber_entry() {
  Machine &m = machine();
  (*m.body)();
  m.current->state = Fiber::State::Done;
  swapcontext(&m.current->context, &m.scheduler);
}

/// Runs one workgroup to completion; false when it failed (the error is already reported).
/// Records an LDS write; checks that an LDS read only reads bytes this workgroup wrote (on request).
/// Checks one LDS access of `bytes` at byte `offset` of an LDS array of `size` bytes (16-byte aligned): inside it,
/// and at an offset that is a multiple of the access size (power-of-two sizes; a dword for 12 bytes, four fp6x4), as
/// vector LDS reads and writes need.
inline void check_lds(const void *array, size_t size, long offset, size_t bytes, bool isStore) {
  const char *kind = isStore ? "store" : "load";
  if (offset < 0 || static_cast<unsigned long>(offset) + bytes > size)
    fail("out-of-bounds " + std::to_string(bytes) + "-byte LDS " + kind + " at byte offset " + std::to_string(offset) +
         " of a " + std::to_string(size) + "-byte LDS array at " + hex(array));
  const long align = (bytes & (bytes - 1)) == 0 ? static_cast<long>(bytes) : bytes == 12 ? 4 : 1;
  if (offset % align != 0)
    fail("misaligned " + std::to_string(bytes) + "-byte LDS " + kind + " at byte offset " + std::to_string(offset) +
         " of an LDS array at " + hex(array) + " (offset % " + std::to_string(align) + " = " +
         std::to_string(offset % align) + ")");
}

inline void note_lds(const void *p, size_t bytes, bool isStore) {
  Machine &m = machine();
  if (!m.checkLds) return;
  auto a = reinterpret_cast<std::uintptr_t>(p);
  for (size_t b = 0; b < bytes; ++b) {
    if (isStore) {
      m.ldsWritten.insert(a + b);
    } else if (!m.ldsWritten.count(a + b)) {
      fail("read of uninitialised LDS: " + std::to_string(bytes) + "-byte load at " + hex(p) + " (byte " +
           std::to_string(b) + " was not written by this workgroup)");
    }
  }
}

inline bool run_workgroup(Machine &m, unsigned threads) {
  m.ldsWritten.clear(); // LDS belongs to one workgroup: what an earlier one wrote is garbage to this one
  for (unsigned t = 0; t < threads; ++t) {
    Fiber &f = m.fibers[t];
    f.thread = t;
    f.state = Fiber::State::Ready;
    f.call = WaveCall();
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.get();
    f.context.uc_stack.ss_size = kFiberStack;
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_entry, 0);
  }
  while (true) {
    for (unsigned t = 0; t < threads; ++t) {
      Fiber &f = m.fibers[t];
      if (f.state != Fiber::State::Ready) continue;
      m.current = &f;
      swapcontext(&m.scheduler, &f.context);
      m.current = nullptr;
      if (m.failed) return false;
    }
    // Wave collectives first: a wave that computes one runs on, possibly to the barrier the others wait at.
    bool progressed = false;
    if (!run_wave_collectives(m, threads, progressed)) return false;
    if (progressed) continue;
    unsigned done = 0, waiting = 0;
    for (unsigned t = 0; t < threads; ++t) {
      done += m.fibers[t].state == Fiber::State::Done;
      waiting += m.fibers[t].state == Fiber::State::AtBarrier;
    }
    if (done == threads) return true;
    if (done != 0) {
      // Some waves wait at a barrier that others will never reach: on a GPU this hangs.
      std::string waves;
      for (unsigned w = 0; w * kWaveSize < threads; ++w)
        if (m.fibers[w * kWaveSize].state == Fiber::State::Done) waves += (waves.empty() ? "" : ", ") + std::to_string(w);
      m.current = nullptr;
      std::fprintf(stderr,
                   "tilec emulator: deadlock in kernel %s, workgroup (%u, %u): %u work-items wait at a barrier that "
                   "wave(s) %s exited without reaching\n",
                   m.kernel, m.group.x, m.group.y, waiting, waves.c_str());
      m.failed = true;
      return false;
    }
    for (unsigned t = 0; t < threads; ++t) m.fibers[t].state = Fiber::State::Ready; // the barrier opens
  }
}

/// The name of the kernel launched last (a launcher may pick one of several), for tests.
inline const char *last_kernel() { return machine().kernel ? machine().kernel : ""; }

/// Runs `body` for every work-item of every workgroup of `grid`.
inline hipError_t launch(const char *kernel, dim3 grid, dim3 block, const std::function<void()> &body) {
  Machine &m = machine();
  unsigned threads = block.x * block.y * block.z;
  if (threads == 0 || threads > 1024 || block.y != 1 || block.z != 1 || grid.x == 0 || grid.y == 0 || grid.z == 0)
    return m.lastError = hipErrorInvalidValue;
  if (m.fibers.size() < threads) {
    m.fibers.resize(threads);
    for (Fiber &f : m.fibers)
      if (!f.stack) f.stack.reset(new char[kFiberStack]);
  }
  m.kernel = kernel;
  m.grid = grid;
  m.block = block;
  m.body = &body;
  m.failed = false;
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        m.group = dim3(x, y, z);
        if (!run_workgroup(m, threads)) return m.lastError = hipErrorLaunchFailure;
      }
  return hipSuccess;
}

} // namespace tilec::emu

#include "tilec/emulator_mfma.h"
#include "tilec/emulator_crosslane.h"

#define __builtin_amdgcn_workitem_id_x() (::tilec::emu::thread_id())
#define __builtin_amdgcn_workgroup_id_x() (::tilec::emu::group_id_x())
#define __builtin_amdgcn_workgroup_id_y() (::tilec::emu::group_id_y())
#define __builtin_amdgcn_workgroup_id_z() (::tilec::emu::group_id_z())
#define __builtin_amdgcn_s_barrier() (::tilec::emu::barrier())
#define __builtin_amdgcn_fence(order, scope) ((void)0)
#define __builtin_amdgcn_sched_barrier(mask) ((void)0)
#define __builtin_amdgcn_sched_group_barrier(mask, size, group) ((void)0)
#define hipLaunchKernelGGL(kernel, grid, block, sharedBytes, stream, ...)                                             \
  ((void)(sharedBytes), (void)(stream),                                                                               \
   ::tilec::emu::launch(#kernel, (grid), (block), [&] { kernel(__VA_ARGS__); }))

inline hipError_t hipMalloc(void **p, size_t bytes) {
  if (!p) return hipErrorInvalidValue;
  *p = bytes ? std::aligned_alloc(256, (bytes + 255) / 256 * 256) : nullptr;
  if (bytes && !*p) return hipErrorOutOfMemory;
  if (*p) tilec::emu::machine().allocations[reinterpret_cast<std::uintptr_t>(*p)] = bytes;
  return hipSuccess;
}
template <typename T> inline hipError_t hipMalloc(T **p, size_t bytes) {
  return hipMalloc(reinterpret_cast<void **>(p), bytes);
}
inline hipError_t hipFree(void *p) {
  if (!p) return hipSuccess;
  auto &allocations = tilec::emu::machine().allocations;
  auto it = allocations.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == allocations.end()) return hipErrorInvalidDevicePointer;
  allocations.erase(it);
  std::free(p);
  return hipSuccess;
}
inline hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind) {
  if (bytes && (!dst || !src)) return hipErrorInvalidValue;
  std::memmove(dst, src, bytes);
  return hipSuccess;
}
inline hipError_t hipMemset(void *dst, int value, size_t bytes) {
  if (bytes && !dst) return hipErrorInvalidValue;
  std::memset(dst, value, bytes);
  return hipSuccess;
}
inline hipError_t hipDeviceSynchronize() { return tilec::emu::machine().lastError; }
inline hipError_t hipGetLastError() {
  hipError_t e = tilec::emu::machine().lastError;
  tilec::emu::machine().lastError = hipSuccess;
  return e;
}
inline const char *hipGetErrorString(hipError_t e) {
  switch (e) {
  case hipSuccess: return "hipSuccess";
  case hipErrorInvalidValue: return "hipErrorInvalidValue";
  case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
  case hipErrorInvalidDevicePointer: return "hipErrorInvalidDevicePointer";
  case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
  }
  return "hipErrorUnknown";
}

#endif // TILEC_EMULATOR_H
