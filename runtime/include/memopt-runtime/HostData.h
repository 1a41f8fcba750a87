//===- HostData.h - Host buffers, seeded fills, f16/bf16 --------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares host-side data utilities: IEEE half and bfloat16
// conversion with round-to-nearest-even, the splitmix64 generator, the
// deterministic per-buffer input fills, and output poisoning.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_HOSTDATA_H
#define MEMOPT_RUNTIME_HOSTDATA_H

#include "memopt-runtime/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memopt::runtime {

/// Byte value written over outputs and temporaries before every run, so a
/// kernel that skips an element leaves NaN (floats) or -1 (integers).
constexpr unsigned char kPoisonByte = 0xFF;

/// f32 -> IEEE binary16, round to nearest even; overflow gives +-Inf, NaN
/// stays a (quiet) NaN, tiny values become subnormals or signed zero.
uint16_t floatToHalf(float value);
/// IEEE binary16 -> f32 (exact).
float halfToFloat(uint16_t bits);
/// f32 -> bfloat16, round to nearest even; NaN stays a quiet NaN.
uint16_t floatToBFloat16(float value);
/// bfloat16 -> f32 (exact).
float bfloat16ToFloat(uint16_t bits);

/// splitmix64 (Steele, Lea, Flood 2014): small, fast, and identical on every
/// platform, which is all a reproducible fill needs.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform float in [-1, 1) with 24 random bits.
  float nextUnitFloat() {
    return static_cast<float>(next() >> 40) * (1.0f / 8388608.0f) - 1.0f;
  }
  /// Uniform double in [-1, 1) with 53 random bits.
  double nextUnitDouble() {
    return static_cast<double>(next() >> 11) * (1.0 / 4503599627370496.0) -
           1.0;
  }

private:
  uint64_t state;
};

/// Seed of the generator for buffer `bufferId` under run seed `seed`; each
/// buffer gets an independent stream, so a buffer's contents depend only on
/// (seed, id, dtype, size), never on the other buffers.
uint64_t bufferStreamSeed(uint64_t seed, int64_t bufferId);

/// Fills `data` (numElements elements of `type`) from the stream for
/// (seed, bufferId). Floats are uniform in [-1, 1) (converted to f16/bf16
/// with round-to-nearest-even); integers are small: [-8, 8), i1 is 0 or 1.
void fillBuffer(void *data, int64_t numElements, DType type, uint64_t seed,
                int64_t bufferId);

/// Fills `numBytes` bytes with uniformly random bytes from the stream for
/// (seed, bufferId): the storage of packed sub-byte integers, so that every
/// element value appears in every position of a byte.
void fillBytes(void *data, int64_t numBytes, uint64_t seed, int64_t bufferId);

/// Allocates and fills host copies of all input buffers of `m`; element i of
/// the result is the buffer with id i (empty for non-inputs). Signature
/// inputs (host-only ones included) are filled from the seed; derived inputs
/// are then computed from their sources (computeDerived).
std::vector<std::vector<unsigned char>> makeInputs(const Manifest &m,
                                                   uint64_t seed);

/// The aos-field gather: dst[i] = src[i * record + field] for i in
/// [0, numElements), elements of `elementSize` bytes (1, 2, 4 or 8; any
/// other size is copied bytewise). `src` holds numElements * record elements.
void gatherAosField(const void *src, void *dst, int64_t numElements,
                    unsigned elementSize, int64_t record, int64_t field);

/// Computes the host contents of derived buffer `b` of `m` into
/// bufs[b.id] from bufs[b.derived.source] (resizing bufs to the manifest's
/// buffer count if needed). Fails (kind Manifest, naming the buffer) if `b`
/// is not derived or the source's host copy has the wrong size.
Status computeDerived(const Manifest &m, const Buffer &b,
                      std::vector<std::vector<unsigned char>> &bufs);
/// Same, with the source's host copy and the destination given directly
/// (`out` is resized to b.bytes).
Status computeDerived(const Manifest &m, const Buffer &b,
                      const std::vector<unsigned char> &source,
                      std::vector<unsigned char> &out);

/// The aos-field scatter, the inverse of gatherAosField: dst[i * record +
/// field] = src[i] for i in [0, numElements).
void scatterAosField(const void *src, void *dst, int64_t numElements,
                     unsigned elementSize, int64_t record, int64_t field);

/// Assembles the host copy of every host-only output of `m` in bufs[id]
/// (resized to its bytes): each derived output bufs[d.id] is scattered into
/// its field, each pass-through field is copied from its input (host copies
/// of inputs in bufs). Adds the bytes written to `*bytes` when given. Fails
/// (kind Manifest, naming the buffer) on a missing or wrongly sized copy.
Status assembleOutputs(const Manifest &m,
                       std::vector<std::vector<unsigned char>> &bufs,
                       int64_t *bytes = nullptr);

/// A fast 64-bit hash of a byte range (FNV-style, 8 bytes at a time), used
/// to check that inputs were not written.
uint64_t hashBytes(const void *data, size_t size);

/// Reads element `index` of a buffer of `type` as double (f16/bf16 widened).
double loadAsDouble(const void *data, DType type, int64_t index);

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_HOSTDATA_H
