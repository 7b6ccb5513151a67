// A tilec-emitted block-scaled GEMM (examples/gemm_mx*_gfx950.tile) on the CPU emulator, against the reference of
// mx_reference.h written from the OCP MX specification. Compile with MX_NAME (the kernel), MX_FA / MX_FB (format
// codes of A and B) and MX_STEP_K (K values per instruction: 64 for 32x32x64, 128 for 16x16x128). Sizes with tails in
// M, N and K (K values past a multiple of 32 in the last scale block), and with K's rows off the vector boundary (the
// launcher runs NAME_unaligned); D must equal the reference exactly, and the kernel that ran must be the one the
// rows call for (a size "ok but ran NAME_unaligned" fails). With MX_B_KN, B is given K x N (8-bit formats); with
// MX_B_KN4, B is given K x N as [KV, NB] (KV = K values, NB = ceil(N / values per element): fp4 two N values per
// byte, the even N in the low nibble, fp6 / bf6 four per 3 bytes; an 8-bit B under a packed A, NB = N); with
// MX_B_OWN_K, B (N x K) has columns of another width than A's, N x KB elements (KB = K values / B's values per
// element), a dimension of its own.
// With --launcher the launcher's refusals of scale tensors of the wrong shape are checked instead.
#include "check.h"
#include "mx_reference.h"
#include <array>
#include <cstring>
#include <random>
#include <string>

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
#define MX_LAUNCH MX_CAT(launch_, MX_NAME)
#define MX_STR2(a) #a
#define MX_STR(a) MX_STR2(a)

// The launcher: launch_NAME(A, B, SA, SB, C, M, K, N, KS, stream), K in elements of A's dtype; with MX_B_KN4
// launch_NAME(A, B, SA, SB, C, M, K, KV, NB, KS, N, stream), B being KV x NB bytes.
#if defined(MX_B_KN4)
extern "C" hipError_t MX_LAUNCH(const unsigned char *, const unsigned char *, const unsigned char *,
                                const unsigned char *, float *, int, int, int, int, int, int, hipStream_t);
#elif defined(MX_B_OWN_K) // launch_NAME(A, B, SA, SB, C, M, K, N, KB, KS, stream)
extern "C" hipError_t MX_LAUNCH(const unsigned char *, const unsigned char *, const unsigned char *,
                                const unsigned char *, float *, int, int, int, int, int, hipStream_t);
#else
extern "C" hipError_t MX_LAUNCH(const unsigned char *, const unsigned char *, const unsigned char *,
                                const unsigned char *, float *, int, int, int, int, hipStream_t);
#endif

namespace {

/// K values per element of A's tensor: 2 for fp4x2 columns, 4 for fp6x4 / bf6x4 (3 bytes each); and of B's.
constexpr int kValues = MX_FA == mxref::FP4 ? 2 : mxref::bitsOf(MX_FA) == 6 ? 4 : 1;
constexpr int kValuesB = MX_FB == mxref::FP4 ? 2 : mxref::bitsOf(MX_FB) == 6 ? 4 : 1;
/// Elements per vector access: 16 bytes, or 4 elements of 3 bytes.
constexpr int kVec = kValues == 4 ? 4 : 16;

#ifndef MX_SCALE_VEC
#define MX_SCALE_VEC 1
#endif

bool run(int m, int n, int k, std::mt19937 &rng, bool expectUnaligned) {
  const int ks = (k + 31) / 32;
  auto codes = [&](int format, int rows) {
    std::vector<unsigned> v(size_t(rows) * k);
    for (unsigned &x : v)
      do x = rng() % (1u << mxref::bitsOf(format));
      while (!std::isfinite(mxref::value(format, x)));
    return v;
  };
  auto scales = [&](int rows) {
    std::vector<unsigned char> v(size_t(rows) * ks);
    for (unsigned char &x : v) x = static_cast<unsigned char>(122 + rng() % 11); // 2^-5 .. 2^5
    return v;
  };
  const std::vector<unsigned> a = codes(MX_FA, m), b = codes(MX_FB, n);
  const std::vector<unsigned char> sa = scales(m), sb = scales(n);
#if defined(MX_B_KN) // B given K x N (8-bit formats): element (kk, j) at kk * n + j
  std::vector<unsigned> bt(size_t(k) * n);
  for (int j = 0; j < n; ++j)
    for (int kk = 0; kk < k; ++kk) bt[size_t(kk) * n + j] = b[size_t(j) * k + kk];
  DeviceBuffer<unsigned char> dB(mxref::pack(MX_FB, bt, k, n));
#elif defined(MX_B_KN4) // B given K x N as [KV, NB]: rows of n2 = n rounded up to whole elements (fp4: two per byte)
  const int n2 = (n + kValuesB - 1) / kValuesB * kValuesB;
  std::vector<unsigned> bt(size_t(k) * n2);
  for (int kk = 0; kk < k; ++kk)
    for (int j = 0; j < n2; ++j) bt[size_t(kk) * n2 + j] = j < n ? b[size_t(j) * k + kk] : 1 + rng() % 15; // no C column
  DeviceBuffer<unsigned char> dB(mxref::pack(MX_FB, bt, k, n2));
#elif defined(MX_B_OWN_K) // N x KB: rows of K values rounded up to whole elements of B, the rest non-zero codes
  const int kbv = (k + kValuesB - 1) / kValuesB * kValuesB;
  std::vector<unsigned> bp(size_t(n) * kbv);
  for (int j = 0; j < n; ++j)
    for (int kk = 0; kk < kbv; ++kk) bp[size_t(j) * kbv + kk] = kk < k ? b[size_t(j) * k + kk] : 1 + rng() % 7;
  DeviceBuffer<unsigned char> dB(mxref::pack(MX_FB, bp, n, kbv));
#else
  DeviceBuffer<unsigned char> dB(mxref::pack(MX_FB, b, n, k));
#endif
  DeviceBuffer<unsigned char> dA(mxref::pack(MX_FA, a, m, k)), dSA(sa), dSB(sb);
  DeviceBuffer<float> dC(size_t(m) * n);
#if defined(MX_B_KN4)
  const hipError_t launched =
      MX_LAUNCH(dA.ptr, dB.ptr, dSA.ptr, dSB.ptr, dC.ptr, m, k / kValues, k, n2 / kValuesB, ks, n, nullptr);
#elif defined(MX_B_OWN_K)
  const hipError_t launched = MX_LAUNCH(dA.ptr, dB.ptr, dSA.ptr, dSB.ptr, dC.ptr, m, k / kValues, n, kbv / kValuesB,
                                        ks, nullptr);
#else
  const hipError_t launched = MX_LAUNCH(dA.ptr, dB.ptr, dSA.ptr, dSB.ptr, dC.ptr, m, k / kValues, n, ks, nullptr);
#endif
  if (launched != hipSuccess) {
    std::printf("%dx%dx%d: launch failed\n", m, n, k);
    return false;
  }
  std::vector<float> want(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want[size_t(i) * n + j] = mxref::product(MX_FA, MX_FB, a, b, sa, sb, k, ks, MX_STEP_K, i, j);
  const int bad = compare(MX_STR(MX_NAME), dC.download(), want, n, [](float x, float y) { return x == y; });
  // The launcher's choice: the vector kernel for rows on vector boundaries (A's and B's K columns a multiple of the
  // vector, C's N of 4, and a K x N B's N of 16; hipMalloc's pointers are aligned), the _unaligned one otherwise.
  const std::string ran = tilec::emu::last_kernel();
#if defined(MX_B_KN)
  const bool wantUnaligned = expectUnaligned || n % 16 != 0;
#elif defined(MX_B_KN4)
  constexpr int kVecB = kValuesB == 4 ? 4 : 16; // B's elements per vector access
  const bool wantUnaligned = expectUnaligned || n % 4 != 0 || (n2 / kValuesB) % kVecB != 0;
#else
  const bool wantUnaligned = expectUnaligned || n % 4 != 0;
#endif
  // The scales go through LDS as [rows, bytes] tiles of MX_SCALE_VEC-byte accesses (tilec's PlanScaleLoads): the
  // vector kernel also needs KS a multiple of that vector.
  const bool wrongKernel = (ran.size() > 10 && ran.compare(ran.size() - 10, 10, "_unaligned") == 0) !=
                           (wantUnaligned || ks % MX_SCALE_VEC != 0);
  std::printf("%dx%dx%d%s: %s%s\n", m, n, k, expectUnaligned ? " (unaligned rows)" : "", bad ? "FAILED" : "ok",
              wrongKernel ? (" but ran " + ran).c_str() : "");
  return !bad && !wrongKernel;
}

/// Scale tensors of the wrong shape are refused before any launch.
int launcherChecks() {
  DeviceBuffer<unsigned char> bytes(4096);
  DeviceBuffer<float> c(64 * 64);
  const int k = 256 / kValues, ks = 8;
#if defined(MX_B_KN4)
  // And a K x N B of the wrong shape: [K values, ceil(N / values per element)].
  const int nb = 8 / kValuesB;
  const struct {
    const char *what;
    int ks, kv, nb;
  } cases[] = {{"KS = 8 for K = 256", ks, 256, nb}, {"KS = 7", ks - 1, 256, nb}, {"KS = 9", ks + 1, 256, nb},
               {"KV = 255", ks, 255, nb}, {"NB one more", ks, 256, nb + 1}};
  for (const auto &t : cases) {
    hipError_t e = MX_LAUNCH(bytes.ptr, bytes.ptr, bytes.ptr, bytes.ptr, c.ptr, 8, k, t.kv, t.nb, t.ks, 8, nullptr);
    std::printf("%s: %s\n", t.what, e == hipSuccess ? "launched" : "refused");
  }
#elif defined(MX_B_OWN_K)
  // And B's columns off by one: KB = K values / B's values per element.
  const int kb = 256 / kValuesB;
  const struct {
    const char *what;
    int ks, kb;
  } cases[] = {{"KS = 8 for K = 256", ks, kb}, {"KS = 7", ks - 1, kb}, {"KS = 9", ks + 1, kb},
               {"KB one short", ks, kb - 1}};
  for (const auto &t : cases) {
    hipError_t e = MX_LAUNCH(bytes.ptr, bytes.ptr, bytes.ptr, bytes.ptr, c.ptr, 8, k, 8, t.kb, t.ks, nullptr);
    std::printf("%s: %s\n", t.what, e == hipSuccess ? "launched" : "refused");
  }
#else
  const struct {
    const char *what;
    int ks;
  } cases[] = {{"KS = 8 for K = 256", ks}, {"KS = 7", ks - 1}, {"KS = 9", ks + 1}};
  for (const auto &t : cases) {
    hipError_t e = MX_LAUNCH(bytes.ptr, bytes.ptr, bytes.ptr, bytes.ptr, c.ptr, 8, k, 8, t.ks, nullptr);
    std::printf("%s: %s\n", t.what, e == hipSuccess ? "launched" : "refused");
  }
#endif
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "--launcher")) return launcherChecks();
  std::mt19937 rng(355);
  int ok = 0, total = 0;
  // M x N x K (K in values): whole blocks; tails in M, N and K (K a multiple of 32 that is not a K step, then one
  // that is not a multiple of 32: its last scale block is partial); a block smaller than one instruction.
#if defined(MX_LONG_K)
  // K = MX_LONG_K values, 8 or 9 K steps of a staged loop (test/Emulator/staged-pairs.test): its main loop's pairs of
  // steps, the odd step after them and the masked steps, in an interior block and in edge blocks.
  // MX_BLOCK_M: the kernel's block rows where they are more than 128, so that a block is interior (the unmasked main
  // loop) and another an edge.
#if !defined(MX_BLOCK_M)
#define MX_BLOCK_M 128
#endif
  std::vector<std::array<int, 3>> all = {{MX_BLOCK_M, 128, MX_LONG_K}, {MX_BLOCK_M + 72, 160, MX_LONG_K}};
#else
  std::vector<std::array<int, 3>> all = {{128, 128, 256}, {200, 136, 96}, {257, 200, 320},
                                         {64, 33, 64},    {1, 1, 32},     {130, 70, 200}};
#endif
  // An 8-bit A over a B of packed values: K odd, so B's last element holds a value past K (KB = ceil(K / values)).
#if !defined(MX_LONG_K)
  if (kValues == 1 && kValuesB > 1) all.push_back({72, 40, 97});
#endif
#if defined(MX_B_KN4) && !defined(MX_LONG_K)
  // A packed K x N B runs the vector kernel only where N fills whole vectors of B (fp4: N % 32, 6-bit: N % 16): edge
  // blocks in M and N with that kernel.
  all.push_back({200, 160, 256});
  all.push_back({72, 96, 128});
#endif
  for (const auto &s : all) {
    // The _unaligned kernel runs where A's (or B's) rows are off the 16-byte boundary.
    ok += run(s[0], s[1], s[2], rng, (s[2] / kValues) % kVec != 0 || (s[2] / kValuesB) % (kValuesB == 4 ? 4 : 16) != 0);
    ++total;
  }
  std::printf("%s: %d of %d sizes correct\n", MX_STR(MX_NAME), ok, total);
  return ok == total ? 0 : 1;
}
