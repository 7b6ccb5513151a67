// Buffer accesses with the hardware's bounds check, from one source for the GPU and the emulator: a 16-byte copy
// through buffers whose size ends mid-tensor. Lanes past the end read zeros, and their stores are dropped.
#include "check.h"

// Copies 4 floats per lane from X to Y through buffers of `bytes` bytes.
extern "C" __global__ __launch_bounds__(64) void buffer_copy(const float *__restrict__ X, float *__restrict__ Y,
                                                             unsigned bytes) {
  const tilec::Buffer in = tilec::make_buffer(X, bytes), out = tilec::make_buffer(Y, bytes);
  const int offset = __builtin_amdgcn_workitem_id_x() * 16;
  tilec::buffer_store<tilec::f32x4>(out, offset, tilec::buffer_load<tilec::f32x4>(in, offset) + 1.0f);
}

#if !defined(__HIP_DEVICE_COMPILE__)
int main() {
  // 64 lanes x 4 floats = 256 floats allocated; the buffers cover the first 100 floats (400 bytes = 25 lanes).
  std::vector<float> x(256, 5.0f);
  DeviceBuffer<float> dx(x), dy(std::vector<float>(256, -1.0f));
  hipLaunchKernelGGL(buffer_copy, dim3(1), dim3(64), 0, nullptr, dx.ptr, dy.ptr, 400u);
  std::vector<float> y = dy.download();
  int inside = 0, untouched = 0;
  for (int i = 0; i < 256; ++i) {
    if (i < 100) inside += y[i] == 6.0f;     // loaded 5, stored 5 + 1
    else untouched += y[i] == -1.0f;         // out of range: store dropped (its load read 0, so it would write 1)
  }
  std::printf("buffer: %d of 100 copied, %d of 156 untouched, %s\n", inside, untouched,
              hipGetErrorString(hipGetLastError()));
  return inside != 100 || untouched != 156;
}
#endif
