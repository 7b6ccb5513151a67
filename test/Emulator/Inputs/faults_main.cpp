// Kernels with the faults a GPU would not report clearly, written the way tilec emits code. The emulator must
// name the kernel, workgroup, wave, lane and address, and fail the launch.
#include "check.h"
#include <cstring>

// Lane 63 of the last workgroup stores one element past the end of Y.
extern "C" __global__ __launch_bounds__(64) void off_by_one(const float *__restrict__ X, float *__restrict__ Y) {
  const int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  tilec::global_store<float>(Y + i + 1, tilec::global_load<float>(X + i));
}

// A 16-byte load from an address that is 4 bytes past a 16-byte boundary.
extern "C" __global__ __launch_bounds__(64) void misaligned(const float *__restrict__ X, float *__restrict__ Y) {
  const int lane = __builtin_amdgcn_workitem_id_x();
  const tilec::f32x4 v = tilec::global_load<tilec::f32x4>(X + 4 * lane + 1);
  tilec::global_store<float>(Y + lane, v[0]);
}

// The _unaligned kernels' accesses need only element alignment: at odd elements (4 or 12 bytes past a 16-byte
// boundary) the loads and stores are fine; shifted by one more byte the f32 elements themselves are misaligned.
extern "C" __global__ __launch_bounds__(64) void unaligned(const float *__restrict__ X, float *__restrict__ Y, int byte) {
  const int lane = __builtin_amdgcn_workitem_id_x();
  const float *p = reinterpret_cast<const float *>(reinterpret_cast<const char *>(X + 2 * lane + 1) + byte);
  const tilec::f32x4 v = tilec::global_load_unaligned<tilec::f32x4>(p);
  tilec::global_store_unaligned<tilec::f32x4>(Y + 4 * (lane % 32) + 1, v);
}

// Wave 1 leaves before the barrier the other waves wait at.
extern "C" __global__ __launch_bounds__(256) void early_exit(float *__restrict__ Y) {
  const int tid = __builtin_amdgcn_workitem_id_x();
  if (tid / 64 == 1) return;
  tilec::barrier();
  tilec::global_store<float>(Y + tid, 1.0f);
}

// Every wave writes, waits, then reads what another wave wrote: correct only if the barrier orders them.
extern "C" __global__ __launch_bounds__(256) void exchange(float *__restrict__ Y, float *__restrict__ Z) {
  const int tid = __builtin_amdgcn_workitem_id_x();
  tilec::global_store<float>(Y + tid, float(tid));
  tilec::barrier();
  tilec::global_store<float>(Z + tid, tilec::global_load<float>(Y + (tid + 64) % 256));
}

// Lanes 0..31 write LDS, every lane reads: lanes 32..63 read bytes nobody wrote.
extern "C" __global__ __launch_bounds__(64) void half_written(float *__restrict__ Y) {
  __shared__ float buffer[64];
  const int lane = __builtin_amdgcn_workitem_id_x();
  if (lane < 32) tilec::lds_store<float>(buffer, lane, float(lane));
  tilec::barrier();
  tilec::global_store<float>(Y + lane, tilec::lds_load<float>(buffer, lane));
}

// Each lane reads the 8 bytes at element 2 * lane of a 128-element LDS array; lane 63 reads elements 126 and 127,
// and with the extra offset of 1 element lane 63 reads past the end (byte offset 508 of 512). Offset 1 also breaks
// the 8-byte alignment of ds_read_b64, which is reported first for lane 0.
extern "C" __global__ __launch_bounds__(64) void lds_past_end(float *__restrict__ Y, int extra) {
  __shared__ float buffer[128];
  const int lane = __builtin_amdgcn_workitem_id_x();
  tilec::lds_store<tilec::f32x2>(buffer, 2 * lane, tilec::f32x2{float(lane), 0.0f});
  tilec::barrier();
  tilec::global_store<float>(Y + lane, tilec::lds_load<tilec::f32x2>(buffer, 2 * lane + extra)[0]);
}

// Lane 63 writes 16 bytes at element 64 of a 64-element array: byte offset 256 of 256.
extern "C" __global__ __launch_bounds__(64) void lds_store_past_end(float *__restrict__ Y) {
  __shared__ float buffer[64];
  const int lane = __builtin_amdgcn_workitem_id_x();
  if (lane == 63) tilec::lds_store<tilec::f32x4>(buffer, 64, tilec::f32x4{});
  tilec::barrier();
  tilec::global_store<float>(Y + lane, 0.0f);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  DeviceBuffer<float> x(pattern(256, 1)), y(256), z(256);
  hipError_t launched = hipSuccess;
  if (!std::strcmp(mode, "oob")) hipLaunchKernelGGL(off_by_one, dim3(4), dim3(64), 0, nullptr, x.ptr, y.ptr);
  if (!std::strcmp(mode, "misaligned")) hipLaunchKernelGGL(misaligned, dim3(1), dim3(64), 0, nullptr, x.ptr, y.ptr);
  if (!std::strcmp(mode, "unaligned-ok")) hipLaunchKernelGGL(unaligned, dim3(1), dim3(64), 0, nullptr, x.ptr, y.ptr, 0);
  if (!std::strcmp(mode, "unaligned-byte"))
    hipLaunchKernelGGL(unaligned, dim3(1), dim3(64), 0, nullptr, x.ptr, y.ptr, 1);
  if (!std::strcmp(mode, "lds")) hipLaunchKernelGGL(half_written, dim3(1), dim3(64), 0, nullptr, y.ptr);
  if (!std::strcmp(mode, "lds-ok")) hipLaunchKernelGGL(lds_past_end, dim3(1), dim3(64), 0, nullptr, y.ptr, 0);
  if (!std::strcmp(mode, "lds-misaligned")) hipLaunchKernelGGL(lds_past_end, dim3(1), dim3(64), 0, nullptr, y.ptr, 1);
  if (!std::strcmp(mode, "lds-past-end")) hipLaunchKernelGGL(lds_past_end, dim3(1), dim3(64), 0, nullptr, y.ptr, 2);
  if (!std::strcmp(mode, "lds-store-past-end"))
    hipLaunchKernelGGL(lds_store_past_end, dim3(1), dim3(64), 0, nullptr, y.ptr);
  if (!std::strcmp(mode, "deadlock")) hipLaunchKernelGGL(early_exit, dim3(2), dim3(256), 0, nullptr, y.ptr);
  if (!std::strcmp(mode, "barrier")) {
    hipLaunchKernelGGL(exchange, dim3(1), dim3(256), 0, nullptr, y.ptr, z.ptr);
    std::vector<float> got = z.download();
    int bad = 0;
    for (int t = 0; t < 256; ++t) bad += got[t] != float((t + 64) % 256);
    std::printf("exchange: %d wrong\n", bad);
  }
  launched = hipGetLastError();
  std::printf("%s: %s\n", mode, hipGetErrorString(launched));
  return launched != hipSuccess;
}
