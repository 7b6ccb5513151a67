// Attention forward (examples/attention_*.tile) on the emulator against a double-precision reference:
// O = softmax(Q K^T * c) V row by row, with c = scale / log2(e) (the kernels' exponentials are exp2 of s * scale).
// Query and key counts that are not multiples of the blocks (M = 1, 100, 130; T = 1, 63, 64, 100, 200) test the
// masked columns past T and the rows past M. Q, K, V are f16 patterns; O is f16, so each element must be within
// 2^-9 of the reference relative to the largest |V| (P is rounded to f16 before P V, the output to f16).
// With GROUP defined (attention_gqa_f16): H = 8 query heads, Hkv = H / GROUP K/V heads (head z reads K/V head
// z / GROUP), and with CAUSAL query row r sees keys 0 .. r only. With ELEM=__bf16 (attention_fwd_bf16_gfx950) the
// tensors are bf16 and the tolerance 2^-7 relative to the largest |V| (bf16 keeps 8 bits of the significand).
#include "check.h"

#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
#ifndef KERNEL
#define KERNEL attention_fwd_f16
#endif
#ifndef ELEM
#define ELEM _Float16
#define TOLERANCE (4.0 / 512)
#else
#define TOLERANCE (4.0 / 128)
#endif
using Elem = ELEM;
#define LAUNCH_NAME(k) launch_##k
#define LAUNCH(k) LAUNCH_NAME(k)

#ifdef GROUP
extern "C" hipError_t LAUNCH(KERNEL)(const Elem *Q, const Elem *K, const Elem *V, Elem *O,
                                     float scale, int H, int M, int Hkv, int T, hipStream_t stream);
#elif defined(LSE)
extern "C" hipError_t LAUNCH(KERNEL)(const Elem *Q, const Elem *K, const Elem *V, Elem *O, float *L,
                                     float scale, int M, int T, hipStream_t stream);
#else
extern "C" hipError_t LAUNCH(KERNEL)(const Elem *Q, const Elem *K, const Elem *V, Elem *O,
                                     float scale, int M, int T, hipStream_t stream);
#endif

/// pattern(n, seed, range) in the tensors' dtype.
static std::vector<Elem> elems(size_t n, unsigned seed, float range) {
  std::vector<float> p = pattern(n, seed, range);
  std::vector<Elem> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<Elem>(p[i]);
  return out;
}

/// One head: the reference output of M query rows against T keys.
static void reference(const Elem *q, const Elem *k, const Elem *v, int M, int T, int D, bool causal,
                      double *out, double *lse = nullptr) {
  const double c = 1.0 / std::sqrt(double(D));
  for (int r = 0; r < M; ++r) {
    int keys = causal ? std::min(T, r + 1) : T;
    std::vector<double> s(keys);
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < keys; ++j) {
      double dot = 0;
      for (int d = 0; d < D; ++d) dot += double(q[size_t(r) * D + d]) * double(k[size_t(j) * D + d]);
      s[j] = dot * c;
      mx = std::fmax(mx, s[j]);
    }
    for (int j = 0; j < keys; ++j) sum += (s[j] = std::exp(s[j] - mx));
    if (lse) lse[r] = mx + std::log(sum);
    for (int d = 0; d < D; ++d) {
      double o = 0;
      for (int j = 0; j < keys; ++j) o += s[j] * double(v[size_t(j) * D + d]);
      out[size_t(r) * D + d] = keys ? o / sum : 0;
    }
  }
}

int main() {
  const int D = HEAD_DIM;
#ifdef GROUP
  const int H = 8, G = GROUP, Hkv = H / G;
#else
  const int H = 1, Hkv = 1;
#endif
#ifdef CAUSAL
  const bool causal = true;
#else
  const bool causal = false;
#endif
  Runs runs;
  for (int M : {1, 100, 130})
    for (int T : {1, 63, 64, 100, 200}) {
      if (causal && T < M) continue; // a decoder's self-attention: every query has its key (M <= T)
      std::vector<Elem> q = elems(size_t(H) * M * D, M + 7, 2.0f), k = elems(size_t(Hkv) * T * D, T + 11, 2.0f),
                        v = elems(size_t(Hkv) * T * D, T + 13, 4.0f);
      const float scale = float(1.0 / std::sqrt(double(D)) * 1.4426950408889634); // c * log2(e)
      std::vector<double> want(size_t(H) * M * D);
      for (int z = 0; z < H; ++z) {
        size_t kv = size_t(z / (H / Hkv)) * T * D;
        reference(&q[size_t(z) * M * D], &k[kv], &v[kv], M, T, D, causal, &want[size_t(z) * M * D]);
      }
      DeviceBuffer<Elem> dq(q), dk(k), dv(v), dout(want.size());
#ifdef LSE
      // With LSE (Inputs/attention_lse.tile) each row's log-sum-exp too, within 1e-4 (f32 exp2 and log of f32 sums).
      std::vector<double> wantL(M);
      reference(q.data(), k.data(), v.data(), M, T, D, false, want.data(), wantL.data());
      DeviceBuffer<float> dl(static_cast<size_t>(M));
      hipError_t e = LAUNCH(KERNEL)(dq.ptr, dk.ptr, dv.ptr, dout.ptr, dl.ptr, scale, M, T, nullptr);
      int badL = compare("L", dl.download(), wantL, 1, [](float g, double w) { return std::fabs(g - w) <= 1e-4 * (1 + std::fabs(w)); });
      runs.record("attention L", M, T, e, badL);
#elif defined(GROUP)
      hipError_t e = LAUNCH(KERNEL)(dq.ptr, dk.ptr, dv.ptr, dout.ptr, scale, H, M, Hkv, T, nullptr);
#else
      hipError_t e = LAUNCH(KERNEL)(dq.ptr, dk.ptr, dv.ptr, dout.ptr, scale, M, T, nullptr);
#endif
      std::vector<Elem> got = dout.download();
      int bad = compare("O", got, want, D, [](Elem g, double w) { return std::fabs(double(g) - w) <= TOLERANCE; });
      runs.record("attention", M, T, e, bad);
    }
#ifdef GROUP
  // The launcher refuses K/V heads that are not H / GROUP.
  {
    DeviceBuffer<Elem> d(size_t(H) * 64 * D);
    hipError_t e = LAUNCH(KERNEL)(d.ptr, d.ptr, d.ptr, d.ptr, 1.0f, H, 64, Hkv + 1, 64, nullptr);
    std::printf("Hkv = %d with H = %d: %s\n", Hkv + 1, H, hipGetErrorString(e));
  }
#endif
#if !defined(GROUP) && !defined(LSE)
  // K and V are read through buffer resources (32-bit offsets): the launcher refuses them at 2 GiB, before any
  // access (T * D * 2 bytes = 2^31 at T = 2^30 / D). One row less is accepted: test/Emulator/attention.test
  // pins the comparison (>= 0x80000000) in the launcher's text.
  {
    DeviceBuffer<Elem> d(size_t(64) * D);
    const int T = (1 << 30) / D;
    hipError_t e = LAUNCH(KERNEL)(d.ptr, d.ptr, d.ptr, d.ptr, 1.0f, 64, T, nullptr);
    std::printf("T = %d (K of 2 GiB): %s\n", T, hipGetErrorString(e));
  }
#endif
  std::printf("attention (d = %d%s%s): %d of %d runs correct\n", D, causal ? ", causal" : "",
              H > 1 ? ", grouped heads" : "", runs.runs - runs.failures, runs.runs);
  return runs.failures != 0;
}
