//===- MetricsTest.cpp - Tests for the report arithmetic --------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Metrics.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace memopt::runtime;

namespace {

TEST(MetricsTest, Median) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
  EXPECT_TRUE(std::isnan(median({})));
  // Robust to one outlier, unlike the mean.
  EXPECT_DOUBLE_EQ(median({1.0, 1.0, 1.0, 1.0, 100.0}), 1.0);
}

TEST(MetricsTest, GbPerSecond) {
  // 805,339,136 bytes (W1 minimum) in 0.2 ms = 4026.7 GB/s.
  EXPECT_NEAR(gbPerSecond(805339136.0, 0.2), 4026.69568, 1e-5);
  EXPECT_DOUBLE_EQ(gbPerSecond(1e9, 1000.0), 1.0);
  EXPECT_TRUE(std::isnan(gbPerSecond(1e9, 0.0)));
  EXPECT_TRUE(std::isnan(gbPerSecond(1e9, -1.0)));
}

TEST(MetricsTest, CopyBandwidthCountsReadAndWrite) {
  // 1 GiB copied in 0.5 ms: 2 GiB moved.
  double bytes = copyBytesCounted(1073741824.0);
  EXPECT_DOUBLE_EQ(bytes, 2147483648.0);
  EXPECT_NEAR(gbPerSecond(bytes, 0.5), 4294.967296, 1e-6);
}

TEST(MetricsTest, FractionAndReduction) {
  EXPECT_DOUBLE_EQ(fractionOf(3600.0, 4000.0), 0.9);
  EXPECT_TRUE(std::isnan(fractionOf(1.0, 0.0)));
  // Baseline moves 5 tensors' worth, optimized 3: 5/3 fewer bytes.
  EXPECT_DOUBLE_EQ(reductionFactor(5.0 * 268435456, 3.0 * 268435456),
                   5.0 / 3.0);
  EXPECT_TRUE(std::isnan(reductionFactor(1.0, 0.0)));
}

} // namespace
