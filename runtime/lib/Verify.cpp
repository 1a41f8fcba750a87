//===- Verify.cpp - Output comparison with dtype tolerances -----*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements compareBuffers and the default tolerances.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Verify.h"
#include "memopt-runtime/HostData.h"

#include <cmath>
#include <cstdlib>

using namespace memopt::runtime;

Tolerance memopt::runtime::defaultTolerance(DType type) {
  switch (type) {
  case DType::F32:
    return {1e-4, 1e-4, 0};
  case DType::F16:
    return {1e-2, 1e-2, 0};
  case DType::BF16:
    return {2e-2, 2e-2, 0};
  case DType::F64:
    return {1e-9, 1e-9, 0};
  case DType::I8:
    return {0.0, 0.0, 1};
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::I1:
    return {0.0, 0.0, 0};
  }
  return {};
}

bool memopt::runtime::floatWithinTolerance(double got, double ref,
                                           const Tolerance &tol) {
  if (!std::isfinite(ref)) {
    if (std::isnan(ref))
      return std::isnan(got);
    return got == ref; // same-signed infinity
  }
  if (!std::isfinite(got))
    return false;
  return std::fabs(got - ref) <= tol.atol + tol.rtol * std::fabs(ref);
}

static int64_t loadInt(const void *data, DType type, int64_t i) {
  switch (type) {
  case DType::I8:
    return static_cast<const int8_t *>(data)[i];
  case DType::I16:
    return static_cast<const int16_t *>(data)[i];
  case DType::I32:
    return static_cast<const int32_t *>(data)[i];
  case DType::I64:
    return static_cast<const int64_t *>(data)[i];
  case DType::I1:
    return static_cast<const uint8_t *>(data)[i];
  default:
    return 0;
  }
}

CompareResult memopt::runtime::compareBuffers(const void *got, const void *ref,
                                              DType type, int64_t numElements,
                                              const Tolerance &tol) {
  CompareResult r;
  r.elements = numElements;
  bool fp = isFloat(type);
  double diffSq = 0.0, refSq = 0.0;
  for (int64_t i = 0; i < numElements; ++i) {
    bool ok;
    double g, e;
    if (fp) {
      g = loadAsDouble(got, type, i);
      e = loadAsDouble(ref, type, i);
      ok = floatWithinTolerance(g, e, tol);
      if (std::isfinite(e) && !std::isfinite(g))
        ++r.nonFinite;
    } else {
      int64_t gi = loadInt(got, type, i), ei = loadInt(ref, type, i);
      // i1 is stored as a byte; compare only the low bit's meaning.
      if (type == DType::I1) {
        gi = gi != 0;
        ei = ei != 0;
      }
      int64_t d = gi > ei ? gi - ei : ei - gi;
      ok = d <= tol.maxIntDiff;
      g = static_cast<double>(gi);
      e = static_cast<double>(ei);
    }
    if (std::isfinite(g) && std::isfinite(e)) {
      double d = std::fabs(g - e);
      if (d > r.maxAbsErr)
        r.maxAbsErr = d;
      if (e != 0.0 && d / std::fabs(e) > r.maxRelErr)
        r.maxRelErr = d / std::fabs(e);
      diffSq += d * d;
      refSq += e * e;
    }
    if (!ok) {
      if (r.firstMismatch < 0) {
        r.firstMismatch = i;
        r.firstGot = g;
        r.firstRef = e;
      }
      ++r.mismatches;
    }
  }
  if (refSq > 0.0)
    r.relL2 = std::sqrt(diffSq) / std::sqrt(refSq);
  else
    r.relL2 = diffSq > 0.0 ? INFINITY : 0.0;
  return r;
}
