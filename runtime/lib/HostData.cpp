//===- HostData.cpp - Host buffers, seeded fills, f16/bf16 ------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the host data utilities declared in HostData.h.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"

#include <cstring>

using namespace memopt::runtime;

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

uint16_t memopt::runtime::floatToHalf(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7FFFFFFFu;
  if (absx >= 0x7F800000u) {
    // Inf or NaN; keep NaN quiet and non-zero.
    if (absx > 0x7F800000u)
      return sign | 0x7E00u | static_cast<uint16_t>((absx >> 13) & 0x3FFu);
    return sign | 0x7C00u;
  }
  // 65520 and above rounds to Inf.
  if (absx >= 0x477FF000u)
    return sign | 0x7C00u;
  int exp = static_cast<int>(absx >> 23) - 127;
  if (exp >= -14) {
    // Normal half: 10 mantissa bits, round the 13 dropped bits to even.
    uint32_t mant = absx & 0x7FFFFFu;
    uint32_t half = (static_cast<uint32_t>(exp + 15) << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
      ++half; // may carry into the exponent, which is still correct
    return sign | static_cast<uint16_t>(half);
  }
  // Subnormal half (or zero): value = m * 2^-24.
  if (exp < -25)
    return sign; // below half the smallest subnormal: rounds to zero
  uint32_t mant = (absx & 0x7FFFFFu) | 0x800000u;
  // mant * 2^(exp - 23) = half * 2^-24, so drop -(exp + 1) bits (14..24).
  int shift = -exp - 1;
  uint32_t half = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1u);
  uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u)))
    ++half;
  return sign | static_cast<uint16_t>(half);
}

float memopt::runtime::halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1Fu;
  uint32_t mant = bits & 0x3FFu;
  if (exp == 0x1F)
    return bitsFloat(sign | 0x7F800000u | (mant << 13));
  if (exp != 0)
    return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
  if (mant == 0)
    return bitsFloat(sign);
  // Subnormal: exact as float.
  float f = static_cast<float>(mant) * (1.0f / 16777216.0f);
  return sign ? -f : f;
}

uint16_t memopt::runtime::floatToBFloat16(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((x >> 16) | 0x0040u);
  uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float memopt::runtime::bfloat16ToFloat(uint16_t bits) {
  return bitsFloat(static_cast<uint32_t>(bits) << 16);
}

uint64_t memopt::runtime::bufferStreamSeed(uint64_t seed, int64_t bufferId) {
  // Mix (seed, id) through one splitmix64 step so that adjacent seeds and ids
  // give unrelated streams.
  SplitMix64 mix(seed ^ (0xD1B54A32D192ED03ull *
                         (static_cast<uint64_t>(bufferId) + 1)));
  return mix.next();
}

void memopt::runtime::fillBuffer(void *data, int64_t numElements, DType type,
                                 uint64_t seed, int64_t bufferId) {
  SplitMix64 rng(bufferStreamSeed(seed, bufferId));
  auto smallInt = [&]() {
    return static_cast<int64_t>(rng.next() >> 60) - 8; // [-8, 8)
  };
  for (int64_t i = 0; i < numElements; ++i) {
    switch (type) {
    case DType::F32:
      static_cast<float *>(data)[i] = rng.nextUnitFloat();
      break;
    case DType::F64:
      static_cast<double *>(data)[i] = rng.nextUnitDouble();
      break;
    case DType::F16:
      static_cast<uint16_t *>(data)[i] = floatToHalf(rng.nextUnitFloat());
      break;
    case DType::BF16:
      static_cast<uint16_t *>(data)[i] = floatToBFloat16(rng.nextUnitFloat());
      break;
    case DType::I8:
      static_cast<int8_t *>(data)[i] = static_cast<int8_t>(smallInt());
      break;
    case DType::I16:
      static_cast<int16_t *>(data)[i] = static_cast<int16_t>(smallInt());
      break;
    case DType::I32:
      static_cast<int32_t *>(data)[i] = static_cast<int32_t>(smallInt());
      break;
    case DType::I64:
      static_cast<int64_t *>(data)[i] = smallInt();
      break;
    case DType::I1:
      static_cast<uint8_t *>(data)[i] = static_cast<uint8_t>(rng.next() >> 63);
      break;
    }
  }
}

void memopt::runtime::fillBytes(void *data, int64_t numBytes, uint64_t seed,
                                int64_t bufferId) {
  SplitMix64 rng(bufferStreamSeed(seed, bufferId));
  for (int64_t i = 0; i < numBytes; ++i)
    static_cast<uint8_t *>(data)[i] = static_cast<uint8_t>(rng.next() >> 56);
}

std::vector<std::vector<unsigned char>>
memopt::runtime::makeInputs(const Manifest &m, uint64_t seed) {
  std::vector<std::vector<unsigned char>> result(m.buffers.size());
  for (const Buffer &b : m.buffers) {
    if (b.role != BufferRole::Input || b.isDerived())
      continue;
    auto &data = result[static_cast<size_t>(b.id)];
    data.resize(static_cast<size_t>(b.bytes));
    if (b.packedBits)
      fillBytes(data.data(), b.bytes, seed, b.id);
    else
      fillBuffer(data.data(), b.numElements(), b.dtype, seed, b.id);
  }
  // Validation guarantees every source is a filled, well-sized input.
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Input && b.isDerived())
      (void)computeDerived(m, b, result);
  return result;
}

namespace {
template <typename T>
void copyStridedTyped(const void *src, int64_t srcStride, void *dst,
                      int64_t dstStride, int64_t n) {
  const T *s = static_cast<const T *>(src);
  T *d = static_cast<T *>(dst);
  for (int64_t i = 0; i < n; ++i)
    d[i * dstStride] = s[i * srcStride];
}

/// Copies `n` elements of `elementSize` bytes, element i from `src` at
/// i * srcStride elements to `dst` at i * dstStride elements.
void copyStrided(const void *src, int64_t srcStride, void *dst,
                 int64_t dstStride, int64_t n, unsigned elementSize) {
  switch (elementSize) {
  case 1:
    return copyStridedTyped<uint8_t>(src, srcStride, dst, dstStride, n);
  case 2:
    return copyStridedTyped<uint16_t>(src, srcStride, dst, dstStride, n);
  case 4:
    return copyStridedTyped<uint32_t>(src, srcStride, dst, dstStride, n);
  case 8:
    return copyStridedTyped<uint64_t>(src, srcStride, dst, dstStride, n);
  default:
    break;
  }
  const unsigned char *s = static_cast<const unsigned char *>(src);
  unsigned char *d = static_cast<unsigned char *>(dst);
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(d + i * dstStride * elementSize,
                s + i * srcStride * elementSize, elementSize);
}
} // namespace

void memopt::runtime::gatherAosField(const void *src, void *dst,
                                     int64_t numElements, unsigned elementSize,
                                     int64_t record, int64_t field) {
  copyStrided(static_cast<const unsigned char *>(src) + field * elementSize,
              record, dst, 1, numElements, elementSize);
}

void memopt::runtime::scatterAosField(const void *src, void *dst,
                                      int64_t numElements, unsigned elementSize,
                                      int64_t record, int64_t field) {
  copyStrided(src, 1, static_cast<unsigned char *>(dst) + field * elementSize,
              record, numElements, elementSize);
}

Status
memopt::runtime::assembleOutputs(const Manifest &m,
                                 std::vector<std::vector<unsigned char>> &bufs,
                                 int64_t *bytes) {
  if (bufs.size() < m.buffers.size())
    bufs.resize(m.buffers.size());
  auto sized = [&](const Buffer &b) -> Status {
    if (static_cast<int64_t>(bufs[static_cast<size_t>(b.id)].size()) == b.bytes)
      return Status::ok();
    return makeError(ErrorKind::Manifest,
                     m.path + ": buffers[id=" + std::to_string(b.id) +
                         "]: host copy has " +
                         std::to_string(bufs[static_cast<size_t>(b.id)].size()) +
                         " bytes, expected " + std::to_string(b.bytes));
  };
  for (const Buffer &out : m.buffers) {
    if (out.role != BufferRole::Output || !out.hostOnly)
      continue;
    auto &dst = bufs[static_cast<size_t>(out.id)];
    dst.resize(static_cast<size_t>(out.bytes));
    unsigned size = dtypeSize(out.dtype);
    for (const Buffer &d : m.buffers) {
      if (d.role != BufferRole::Output || !d.isDerived() ||
          d.derived.source != out.id)
        continue;
      if (Status s = sized(d); s.failed())
        return s;
      scatterAosField(bufs[static_cast<size_t>(d.id)].data(), dst.data(),
                      d.numElements(), size, d.derived.record,
                      d.derived.field);
      if (bytes)
        *bytes += d.bytes;
    }
    int64_t record = out.numElements();
    for (const Buffer &d : m.buffers)
      if (d.role == BufferRole::Output && d.isDerived() &&
          d.derived.source == out.id)
        record = d.derived.record;
    int64_t records = out.numElements() / record;
    for (const PassThroughField &f : out.passThrough) {
      const Buffer &src = m.buffers[static_cast<size_t>(f.source)];
      if (Status s = sized(src); s.failed())
        return s;
      copyStrided(bufs[static_cast<size_t>(src.id)].data() +
                      f.sourceField * size,
                  record, dst.data() + f.field * size, record, records, size);
      if (bytes)
        *bytes += records * size;
    }
  }
  return Status::ok();
}

Status memopt::runtime::computeDerived(
    const Manifest &m, const Buffer &b,
    std::vector<std::vector<unsigned char>> &bufs) {
  std::string ctx = m.path + ": buffers[id=" + std::to_string(b.id) + "]";
  if (!b.isDerived())
    return makeError(ErrorKind::Manifest, ctx + ": not a derived buffer");
  const DerivedInfo &d = b.derived;
  if (bufs.size() < m.buffers.size())
    bufs.resize(m.buffers.size());
  return computeDerived(m, b, bufs[static_cast<size_t>(d.source)],
                        bufs[static_cast<size_t>(b.id)]);
}

Status memopt::runtime::computeDerived(const Manifest &m, const Buffer &b,
                                       const std::vector<unsigned char> &in,
                                       std::vector<unsigned char> &out) {
  std::string ctx = m.path + ": buffers[id=" + std::to_string(b.id) + "]";
  if (!b.isDerived())
    return makeError(ErrorKind::Manifest, ctx + ": not a derived buffer");
  const DerivedInfo &d = b.derived;
  const Buffer &src = m.buffers[static_cast<size_t>(d.source)];
  if (static_cast<int64_t>(in.size()) != src.bytes)
    return makeError(ErrorKind::Manifest,
                     ctx + ".derived.source: host copy of buffer " +
                         std::to_string(d.source) + " has " +
                         std::to_string(in.size()) + " bytes, expected " +
                         std::to_string(src.bytes));
  out.resize(static_cast<size_t>(b.bytes));
  gatherAosField(in.data(), out.data(), b.numElements(), dtypeSize(b.dtype),
                 d.record, d.field);
  return Status::ok();
}

uint64_t memopt::runtime::hashBytes(const void *data, size_t n) {
  const unsigned char *p = static_cast<const unsigned char *>(data);
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i = 0;
  // 8 bytes at a time: inputs are hundreds of MiB.
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

double memopt::runtime::loadAsDouble(const void *data, DType type,
                                     int64_t index) {
  switch (type) {
  case DType::F32:
    return static_cast<const float *>(data)[index];
  case DType::F64:
    return static_cast<const double *>(data)[index];
  case DType::F16:
    return halfToFloat(static_cast<const uint16_t *>(data)[index]);
  case DType::BF16:
    return bfloat16ToFloat(static_cast<const uint16_t *>(data)[index]);
  case DType::I8:
    return static_cast<const int8_t *>(data)[index];
  case DType::I16:
    return static_cast<const int16_t *>(data)[index];
  case DType::I32:
    return static_cast<const int32_t *>(data)[index];
  case DType::I64:
    return static_cast<double>(static_cast<const int64_t *>(data)[index]);
  case DType::I1:
    return static_cast<const uint8_t *>(data)[index];
  }
  return 0.0;
}
