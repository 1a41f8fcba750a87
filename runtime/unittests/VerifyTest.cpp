//===- VerifyTest.cpp - Tests for tolerance checks --------------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Verify.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace memopt::runtime;

namespace {

TEST(VerifyTest, DefaultTolerances) {
  EXPECT_DOUBLE_EQ(defaultTolerance(DType::F32).atol, 1e-4);
  EXPECT_DOUBLE_EQ(defaultTolerance(DType::F32).rtol, 1e-4);
  EXPECT_DOUBLE_EQ(defaultTolerance(DType::F16).atol, 1e-2);
  EXPECT_DOUBLE_EQ(defaultTolerance(DType::BF16).rtol, 2e-2);
  EXPECT_EQ(defaultTolerance(DType::I8).maxIntDiff, 1);
  EXPECT_EQ(defaultTolerance(DType::I32).maxIntDiff, 0);
}

TEST(VerifyTest, F32Boundary) {
  Tolerance t = defaultTolerance(DType::F32);
  // |a - b| <= 1e-4 + 1e-4 * |ref|.
  EXPECT_TRUE(floatWithinTolerance(100.0 + 0.0100, 100.0, t));
  EXPECT_FALSE(floatWithinTolerance(100.0 + 0.0102, 100.0, t));
  EXPECT_TRUE(floatWithinTolerance(0.00009, 0.0, t));
  EXPECT_FALSE(floatWithinTolerance(0.00011, 0.0, t));
}

TEST(VerifyTest, NonFiniteRules) {
  Tolerance t = defaultTolerance(DType::F32);
  EXPECT_FALSE(floatWithinTolerance(NAN, 1.0, t));
  EXPECT_FALSE(floatWithinTolerance(INFINITY, 1e30, t));
  EXPECT_FALSE(floatWithinTolerance(-INFINITY, 0.0, t));
  EXPECT_TRUE(floatWithinTolerance(NAN, NAN, t));
  EXPECT_FALSE(floatWithinTolerance(1.0, NAN, t));
  EXPECT_TRUE(floatWithinTolerance(INFINITY, INFINITY, t));
  EXPECT_FALSE(floatWithinTolerance(-INFINITY, INFINITY, t));
  EXPECT_FALSE(floatWithinTolerance(1e30, INFINITY, t));
}

TEST(VerifyTest, ComparesF32AndReportsStatistics) {
  std::vector<float> ref = {1.0f, -2.0f, 0.0f, 4.0f};
  std::vector<float> got = {1.00005f, -2.0f, 0.0f, 4.0f};
  CompareResult r = compareBuffers(got.data(), ref.data(), DType::F32, 4,
                                   defaultTolerance(DType::F32));
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.elements, 4);
  EXPECT_NEAR(r.maxAbsErr, 5e-5, 1e-7);
  EXPECT_NEAR(r.maxRelErr, 5e-5, 1e-7);
  double d0 = static_cast<double>(got[0]) - 1.0; // 1.00005f is not exact
  EXPECT_DOUBLE_EQ(r.relL2, d0 / std::sqrt(21.0));
  EXPECT_EQ(r.firstMismatch, -1);

  got[2] = 0.5f;
  got[3] = NAN;
  r = compareBuffers(got.data(), ref.data(), DType::F32, 4,
                     defaultTolerance(DType::F32));
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.firstMismatch, 2);
  EXPECT_DOUBLE_EQ(r.firstGot, 0.5);
  EXPECT_DOUBLE_EQ(r.firstRef, 0.0);
  EXPECT_EQ(r.nonFinite, 1);
  EXPECT_DOUBLE_EQ(r.maxAbsErr, 0.5); // NaN pairs excluded from statistics
}

TEST(VerifyTest, PoisonedOutputNeverPasses) {
  std::vector<float> ref(8, 0.25f);
  std::vector<unsigned char> got(8 * sizeof(float), kPoisonByte);
  CompareResult r = compareBuffers(got.data(), ref.data(), DType::F32, 8,
                                   defaultTolerance(DType::F32));
  EXPECT_EQ(r.mismatches, 8);
  EXPECT_EQ(r.nonFinite, 8);
}

TEST(VerifyTest, HalfAndBFloat16Tolerances) {
  std::vector<uint16_t> ref = {floatToHalf(1.0f), floatToHalf(-3.0f)};
  std::vector<uint16_t> got = {floatToHalf(1.015f), floatToHalf(-3.0f)};
  EXPECT_TRUE(compareBuffers(got.data(), ref.data(), DType::F16, 2,
                             defaultTolerance(DType::F16))
                  .passed());
  got[0] = floatToHalf(1.03f);
  EXPECT_FALSE(compareBuffers(got.data(), ref.data(), DType::F16, 2,
                              defaultTolerance(DType::F16))
                   .passed());
  std::vector<uint16_t> bref = {floatToBFloat16(2.0f)};
  std::vector<uint16_t> bgot = {floatToBFloat16(2.05f)};
  EXPECT_TRUE(compareBuffers(bgot.data(), bref.data(), DType::BF16, 1,
                             defaultTolerance(DType::BF16))
                  .passed());
  bgot[0] = floatToBFloat16(2.1f);
  EXPECT_FALSE(compareBuffers(bgot.data(), bref.data(), DType::BF16, 1,
                              defaultTolerance(DType::BF16))
                   .passed());
}

TEST(VerifyTest, IntegerTolerances) {
  std::vector<int8_t> ref = {-127, 0, 127, 5};
  std::vector<int8_t> got = {-126, 1, 127, 5};
  EXPECT_TRUE(compareBuffers(got.data(), ref.data(), DType::I8, 4,
                             defaultTolerance(DType::I8))
                  .passed());
  got[3] = 7;
  CompareResult r = compareBuffers(got.data(), ref.data(), DType::I8, 4,
                                   defaultTolerance(DType::I8));
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.firstMismatch, 3);
  EXPECT_DOUBLE_EQ(r.maxAbsErr, 2.0);

  std::vector<int32_t> ri = {1, 2}, gi = {1, 3};
  EXPECT_FALSE(compareBuffers(gi.data(), ri.data(), DType::I32, 2,
                              defaultTolerance(DType::I32))
                   .passed());
  std::vector<uint8_t> rb = {1, 0}, gb = {7, 0}; // any non-zero byte is true
  EXPECT_TRUE(compareBuffers(gb.data(), rb.data(), DType::I1, 2,
                             defaultTolerance(DType::I1))
                  .passed());
}

TEST(VerifyTest, RelativeL2OfZeroReference) {
  std::vector<float> zero(4, 0.0f);
  EXPECT_DOUBLE_EQ(compareBuffers(zero.data(), zero.data(), DType::F32, 4,
                                  defaultTolerance(DType::F32))
                       .relL2,
                   0.0);
}

} // namespace
