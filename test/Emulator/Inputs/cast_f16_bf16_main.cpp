// test/Emulator/cast-f16-bf16.tile on the emulator: f16 -> bf16 and bf16 -> f16 casts, bit for bit against
// references written from the formats (check.h's bf16_bits rounds by the definition; bf16 -> f32 is exact, and
// f32 -> f16 is one IEEE rounding), for a 64 x 64 tensor of values with more bits than the target keeps.
#include "check.h"

extern "C" hipError_t launch_to_bf16(const _Float16 *X, __bf16 *Y, int M, int N, hipStream_t stream);
extern "C" hipError_t launch_to_f16(const __bf16 *X, _Float16 *Y, int M, int N, hipStream_t stream);

int main() {
  const int M = 64, N = 64;
  std::vector<float> values = pattern(size_t(M) * N, 17, 1000.0f);
  // to_bf16: f16 inputs (11 significant bits) rounded to bf16 (8).
  std::vector<_Float16> h(values.begin(), values.end());
  std::vector<uint16_t> want(h.size());
  for (size_t i = 0; i < h.size(); ++i) want[i] = bf16_bits(float(h[i]));
  DeviceBuffer<_Float16> dh(h);
  DeviceBuffer<__bf16> db(h.size());
  hipError_t e = launch_to_bf16(dh.ptr, db.ptr, M, N, nullptr);
  std::vector<__bf16> gotb = db.download();
  std::vector<uint16_t> bits(gotb.size());
  std::memcpy(bits.data(), gotb.data(), bits.size() * 2);
  int bad = e != hipSuccess ? 1 : compare("bf16 bits", bits, want, N, [](uint16_t a, uint16_t b) { return a == b; });
  std::printf("to_bf16: %d of %d exact\n", int(h.size()) - bad, int(h.size()));
  // to_f16: bf16 inputs (exact in f32) rounded to f16.
  std::vector<__bf16> b(h.size());
  std::vector<_Float16> wanth(h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    uint16_t u = bf16_bits(values[i] / 7.0f);
    std::memcpy(&b[i], &u, 2);
    uint32_t f32bits = uint32_t(u) << 16;
    float f;
    std::memcpy(&f, &f32bits, 4);
    wanth[i] = static_cast<_Float16>(f);
  }
  DeviceBuffer<__bf16> db2(b);
  DeviceBuffer<_Float16> dh2(h.size());
  e = launch_to_f16(db2.ptr, dh2.ptr, M, N, nullptr);
  int bad2 = e != hipSuccess ? 1
                             : compare("f16", dh2.download(), wanth, N, [](_Float16 x, _Float16 y) { return x == y; });
  std::printf("to_f16: %d of %d exact\n", int(h.size()) - bad2, int(h.size()));
  return bad || bad2;
}
