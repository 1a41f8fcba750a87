//===- Metrics.h - Report arithmetic: medians, GB/s, fractions --*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the small pieces of arithmetic behind every figure that
// memopt-run reports, so that unit tests pin them. GB/s is 10^9 bytes per
// second throughout.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_METRICS_H
#define MEMOPT_RUNTIME_METRICS_H

#include <cstdint>
#include <vector>

namespace memopt::runtime {

/// Median of the samples (mean of the two middle ones for an even count).
/// Returns NaN for an empty list.
double median(std::vector<double> samples);

/// Bytes / time in GB/s (10^9 B/s). Returns NaN if ms <= 0.
double gbPerSecond(double bytes, double ms);

/// achieved / reference; NaN if reference <= 0.
double fractionOf(double achieved, double reference);

/// How many times fewer bytes the optimized pipeline moves:
/// baselineBytes / optimizedBytes; NaN if optimizedBytes <= 0.
double reductionFactor(double baselineBytes, double optimizedBytes);

/// Bytes the copy-bandwidth probe counts for one copy of `bufferBytes`:
/// read plus written.
inline double copyBytesCounted(double bufferBytes) { return 2.0 * bufferBytes; }

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_METRICS_H
