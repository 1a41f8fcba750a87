//===- Metrics.cpp - Report arithmetic: medians, GB/s, fractions -*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the report arithmetic declared in Metrics.h.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Metrics.h"

#include <algorithm>
#include <cmath>

using namespace memopt::runtime;

double memopt::runtime::median(std::vector<double> samples) {
  if (samples.empty())
    return NAN;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  if (n % 2 == 1)
    return samples[n / 2];
  return 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

double memopt::runtime::gbPerSecond(double bytes, double ms) {
  if (!(ms > 0.0))
    return NAN;
  return bytes / (ms * 1e-3) / 1e9;
}

double memopt::runtime::fractionOf(double achieved, double reference) {
  if (!(reference > 0.0))
    return NAN;
  return achieved / reference;
}

double memopt::runtime::reductionFactor(double baselineBytes,
                                        double optimizedBytes) {
  if (!(optimizedBytes > 0.0))
    return NAN;
  return baselineBytes / optimizedBytes;
}
