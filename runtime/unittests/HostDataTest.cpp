//===- HostDataTest.cpp - Tests for fills and f16/bf16 ----------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace memopt::runtime;

namespace {

TEST(HostDataTest, HalfExactValues) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(0.5f), 0x3800);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(INFINITY), 0x7C00);
  EXPECT_EQ(floatToHalf(-INFINITY), 0xFC00);
  EXPECT_EQ(floatToHalf(1e6f), 0x7C00); // overflow
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00); // rounds up to Inf
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  uint16_t nan = floatToHalf(NAN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
}

TEST(HostDataTest, HalfRoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: up.
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  // Slightly above halfway rounds up.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
            0x3C01);
  // Subnormal ties: 2^-25 is half of the smallest subnormal -> 0 (even).
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);
  // Largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -26)),
            0x0400);
}

TEST(HostDataTest, HalfRoundTripsEveryHalf) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint16_t bits = static_cast<uint16_t>(h);
    float f = halfToFloat(bits);
    if (std::isnan(f)) {
      EXPECT_EQ(bits & 0x7C00, 0x7C00);
      continue;
    }
    ASSERT_EQ(floatToHalf(f), bits) << "half 0x" << std::hex << h;
  }
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
}

TEST(HostDataTest, HalfMatchesDirectRoundingOnRandomFloats) {
  // Reference: pick the nearer of the two neighbouring halves (ties to even).
  SplitMix64 rng(42);
  for (int i = 0; i < 200000; ++i) {
    float f = std::ldexp(rng.nextUnitFloat(),
                         static_cast<int>(rng.next() % 40) - 30);
    uint16_t h = floatToHalf(f);
    float back = halfToFloat(h);
    // Neighbours of h towards f.
    float up = halfToFloat(static_cast<uint16_t>(h + 1));
    float down = h & 0x7FFF ? halfToFloat(static_cast<uint16_t>(h - 1)) : back;
    double err = std::fabs(double(back) - f);
    if (!std::isinf(up)) {
      EXPECT_LE(err, std::fabs(double(up) - f)) << f;
    }
    EXPECT_LE(err, std::fabs(double(down) - f)) << f;
  }
}

TEST(HostDataTest, BFloat16) {
  EXPECT_EQ(floatToBFloat16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBFloat16(-2.0f), 0xC000);
  EXPECT_EQ(bfloat16ToFloat(0x3F80), 1.0f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even.
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(floatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)),
            0x3F81);
  EXPECT_EQ(floatToBFloat16(INFINITY), 0x7F80);
  uint16_t nan = floatToBFloat16(NAN);
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(nan)));
  // The largest finite float rounds to infinity.
  EXPECT_EQ(floatToBFloat16(std::numeric_limits<float>::max()), 0x7F80);
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float f = bfloat16ToFloat(static_cast<uint16_t>(b));
    if (!std::isnan(f)) {
      ASSERT_EQ(floatToBFloat16(f), b);
    }
  }
}

TEST(HostDataTest, SplitMix64KnownSequence) {
  // Reference values of splitmix64 seeded with 0 (Vigna's splitmix64.c).
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(rng.next(), 0x06C45D188009454Full);
}

TEST(HostDataTest, FillsAreDeterministicPerBuffer) {
  std::vector<float> a(4096), b(4096), c(4096), d(4096);
  fillBuffer(a.data(), 4096, DType::F32, 7, 0);
  fillBuffer(b.data(), 4096, DType::F32, 7, 0);
  fillBuffer(c.data(), 4096, DType::F32, 7, 1);
  fillBuffer(d.data(), 4096, DType::F32, 8, 0);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
  double sum = 0;
  for (float v : a) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
    sum += v;
  }
  EXPECT_LT(std::fabs(sum / 4096), 0.05); // roughly centred
  // A prefix of a longer fill equals the shorter fill.
  std::vector<float> longer(8192);
  fillBuffer(longer.data(), 8192, DType::F32, 7, 0);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), longer.begin()));
}

TEST(HostDataTest, LowPrecisionFillsAreRoundedF32Fills) {
  std::vector<float> f(1000);
  std::vector<uint16_t> h(1000), b(1000);
  fillBuffer(f.data(), 1000, DType::F32, 3, 5);
  fillBuffer(h.data(), 1000, DType::F16, 3, 5);
  fillBuffer(b.data(), 1000, DType::BF16, 3, 5);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(h[i], floatToHalf(f[i]));
    EXPECT_EQ(b[i], floatToBFloat16(f[i]));
  }
}

TEST(HostDataTest, IntegerFillsAreSmall) {
  std::vector<int8_t> i8(1000);
  std::vector<int64_t> i64(1000);
  std::vector<uint8_t> i1(1000);
  fillBuffer(i8.data(), 1000, DType::I8, 1, 2);
  fillBuffer(i64.data(), 1000, DType::I64, 1, 2);
  fillBuffer(i1.data(), 1000, DType::I1, 1, 2);
  bool sawNegative = false;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_GE(i8[i], -8);
    EXPECT_LT(i8[i], 8);
    EXPECT_EQ(i64[i], i8[i]); // same stream, same draws
    EXPECT_LE(i1[i], 1);
    sawNegative |= i8[i] < 0;
  }
  EXPECT_TRUE(sawNegative);
}

TEST(HostDataTest, MakeInputsFillsOnlyInputs) {
  Manifest m;
  Buffer in;
  in.id = 0;
  in.role = BufferRole::Input;
  in.dtype = DType::F32;
  in.shape = {16};
  in.bytes = 64;
  Buffer out = in;
  out.id = 1;
  out.role = BufferRole::Output;
  m.buffers = {in, out};
  auto inputs = makeInputs(m, 9);
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].size(), 64u);
  EXPECT_TRUE(inputs[1].empty());
  std::vector<float> expect(16);
  fillBuffer(expect.data(), 16, DType::F32, 9, 0);
  EXPECT_EQ(std::memcmp(inputs[0].data(), expect.data(), 64), 0);
}

} // namespace
