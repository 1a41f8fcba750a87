//===- Verify.h - Output comparison with dtype tolerances -------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the element-wise comparison of a computed buffer with a
// reference buffer. An element passes when |got - ref| <= atol + rtol * |ref|
// (floats) or |got - ref| <= maxIntDiff (integers). A NaN or Inf where the
// reference is finite never passes; a non-finite reference must be matched
// exactly (NaN by NaN, +-Inf by the same Inf).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_VERIFY_H
#define MEMOPT_RUNTIME_VERIFY_H

#include "memopt-runtime/Manifest.h"

#include <cstdint>

namespace memopt::runtime {

struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  /// Integer types: largest allowed |got - ref|.
  int64_t maxIntDiff = 0;
};

/// Default tolerance for a dtype: f32 1e-4 abs + 1e-4 rel; f16 1e-2 + 1e-2;
/// bf16 2e-2 + 2e-2; f64 1e-9 + 1e-9; i8 off by at most one (rounding of
/// quantized values); other integers and i1 exact.
Tolerance defaultTolerance(DType type);

/// True if `got` is acceptable for `ref` under `tol` for a float dtype.
bool floatWithinTolerance(double got, double ref, const Tolerance &tol);

struct CompareResult {
  int64_t elements = 0;
  int64_t mismatches = 0;
  /// Index of the first failing element, -1 if none; its values.
  int64_t firstMismatch = -1;
  double firstGot = 0.0, firstRef = 0.0;
  /// Over finite pairs: max |got-ref|; max |got-ref|/|ref| over ref != 0;
  /// ||got-ref||_2 / ||ref||_2 (0 when both norms are 0).
  double maxAbsErr = 0.0, maxRelErr = 0.0, relL2 = 0.0;
  /// Elements where got is NaN/Inf but ref is finite.
  int64_t nonFinite = 0;
  bool passed() const { return mismatches == 0; }
};

/// Compares `numElements` elements of `type`.
CompareResult compareBuffers(const void *got, const void *ref, DType type,
                             int64_t numElements, const Tolerance &tol);

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_VERIFY_H
