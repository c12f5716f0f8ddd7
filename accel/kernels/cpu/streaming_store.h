// Streaming (non-temporal) output for large element-wise results. Results far larger than
// the caches are written around them: a normal store first reads each line it fills, so an
// out-of-cache a + b moved 4 bytes per output byte written instead of 3.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace accel::cpu {

// Outputs at least this large (bytes) are streamed: beyond the last-level cache of most CPUs,
// where the lines would be evicted before they are read again anyway. Smaller results stay
// cached for the op that reads them next: streaming the CNN example's 6.4 MB ReLU outputs
// (the old threshold was 4 MB, an L2's size) sent them to memory and back, and its training step
// ran 10-15% slower.
inline constexpr int64_t kStreamingOutputBytes = int64_t{32} << 20;

// out[i] = f(i) for i in [0, n), writing through a small cache-resident block that is then
// streamed to `out`. Falls back to plain stores where the CPU has no streaming store.
template <typename Out, typename F>
void stream_elements(Out* out, int64_t n, F f) {
#if defined(__SSE2__)
  constexpr int64_t kBlock = 1024 / sizeof(Out);
  constexpr size_t kBlockVectors = 1024 / sizeof(__m128i);
  int64_t i = 0;
  // Plain stores up to the first 16-byte boundary (streaming stores need one).
  while (i < n && reinterpret_cast<uintptr_t>(out + i) % 16 != 0) {
    out[i] = f(i);
    ++i;
  }
  alignas(64) Out block[kBlock];
  for (; i + kBlock <= n; i += kBlock) {
    for (int64_t j = 0; j < kBlock; ++j) block[j] = f(i + j);
    auto* dst = reinterpret_cast<__m128i*>(out + i);
    const auto* src = reinterpret_cast<const __m128i*>(block);
    for (size_t k = 0; k < kBlockVectors; ++k) {
      _mm_stream_si128(dst + k, _mm_load_si128(src + k));
    }
  }
  _mm_sfence();  // the streamed lines are visible before the op returns
  for (; i < n; ++i) out[i] = f(i);
#else
  for (int64_t i = 0; i < n; ++i) out[i] = f(i);
#endif
}

}  // namespace accel::cpu
