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

#include <algorithm>
#include <cmath>
#include <cstdio>
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
  r.diffL2 = std::sqrt(diffSq);
  r.refL2 = std::sqrt(refSq);
  if (refSq > 0.0)
    r.relL2 = std::sqrt(diffSq) / std::sqrt(refSq);
  else
    r.relL2 = diffSq > 0.0 ? INFINITY : 0.0;
  return r;
}

Tolerance memopt::runtime::scaledTolerance(DType type, const void *ref,
                                           int64_t n) {
  Tolerance tol = defaultTolerance(type);
  if (!isFloat(type))
    return tol;
  double sq = 0.0;
  int64_t finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    double x = loadAsDouble(ref, type, i);
    if (std::isfinite(x))
      sq += x * x, ++finite;
  }
  if (finite)
    tol.atol *= std::min(1.0, std::sqrt(sq / finite));
  return tol;
}

Tolerance memopt::runtime::literalTolerance(DType type, const void *ref,
                                            int64_t n, double atol,
                                            double rtol) {
  Tolerance t = atol >= 0 ? defaultTolerance(type)
                          : scaledTolerance(type, ref, n);
  if (isFloat(type)) {
    if (atol >= 0)
      t.atol = atol;
    if (rtol >= 0)
      t.rtol = rtol;
  }
  return t;
}

/// Significand bits of a float dtype, and its smallest normal exponent.
static void floatFormat(DType type, int &bits, int &minExp) {
  switch (type) {
  case DType::F16:
    bits = 11, minExp = -14;
    return;
  case DType::BF16:
    bits = 8, minExp = -126;
    return;
  case DType::F32:
    bits = 24, minExp = -126;
    return;
  default:
    bits = 53, minExp = -1022;
    return;
  }
}

double memopt::runtime::unitRoundoff(DType type) {
  int bits, minExp;
  floatFormat(type, bits, minExp);
  return std::ldexp(1.0, -bits);
}

double memopt::runtime::ulpAt(DType type, double x) {
  int bits, minExp;
  floatFormat(type, bits, minExp);
  int e = minExp + 1; // zero (and non-finite): the subnormal spacing
  if (x != 0.0 && std::isfinite(x))
    std::frexp(std::fabs(x), &e); // |x| = m * 2^e, m in [0.5, 1)
  return std::ldexp(1.0, std::max(e - 1, minExp) - bits + 1);
}

std::string memopt::runtime::describeVerdict(const PrecisionVerdict &v) {
  char spread[128] = "";
  if (v.perturbed > 0)
    std::snprintf(spread, sizeof(spread),
                  ", %u perturbed evaluations %.3g (max abs %.3g)",
                  v.perturbed,
                  v.got.refL2 > 0 ? v.perturbedDiffL2 / v.got.refL2
                                  : v.perturbedDiffL2,
                  v.perturbedMaxAbs);
  char buf[768];
  std::snprintf(
      buf, sizeof(buf),
      "vs f64: rel L2 %.3g, bound %.3g (%g x %s %.3g%s or the dtype's "
      "rounding); max abs %.3g, bound %g x (%.3g + ulp); literal evaluation "
      "vs f64: rel L2 %.3g, max abs %.3g; vs the literal evaluation: %lld "
      "mismatches, %s accurate; %s",
      v.got.relL2, v.got.refL2 > 0 ? v.normBound / v.got.refL2 : v.normBound,
      kNormFactor, v.pairwise ? "pairwise" : "literal", v.uncertainty.relL2,
      spread,
      v.got.maxAbsErr, kElementFactor, v.elementSlack, v.literal.relL2,
      v.literal.maxAbsErr, (long long)v.asLiteral.mismatches,
      v.asAccurateAsLiteral ? "as" : "less",
      v.passed ? v.route()
               : "outside the bound and not the literal evaluation");
  return buf;
}

const char *PrecisionVerdict::route() const {
  if (judged && withinBound)
    return perturbed > 0 ? "within the program's rounding spread"
                         : "within the program's precision";
  if (literalRoute())
    return "as the literal evaluation";
  return "";
}

int64_t PrecisionVerdict::mismatches() const {
  if ((judged && withinBound) || !literalRoute())
    return judged ? got.mismatches : asLiteral.mismatches;
  return asLiteral.mismatches;
}

PrecisionVerdict memopt::runtime::judgeOutput(const void *got,
                                              const void *literal,
                                              const void *f64,
                                              const void *pairwise,
                                              DType type, int64_t n,
                                              const Tolerance &literalTol,
                                              const std::vector<const void *>
                                                  &perturbed) {
  PrecisionVerdict v;
  v.asLiteral = compareBuffers(got, literal, type, n, literalTol);
  v.passed = v.asLiteral.passed();
  v.asAccurateAsLiteral = true;
  if (!f64)
    return v;
  v.judged = true;
  Tolerance exact = isFloat(type) ? Tolerance{0.0, 0.0, 0}
                                  : defaultTolerance(type);
  v.literal = compareBuffers(literal, f64, type, n, exact);
  v.pairwise = pairwise != nullptr;
  v.uncertainty = pairwise ? compareBuffers(pairwise, f64, type, n, exact)
                           : v.literal;
  v.meaningless = isFloat(type) && v.literal.refL2 > 0.0 &&
                  v.literal.diffL2 >= v.literal.refL2;
  if (!isFloat(type)) {
    // Integers (from float computations: quantization, argmax): the dtype
    // tolerance against the f64 evaluation.
    v.got = compareBuffers(got, f64, type, n, exact);
    v.withinBound = v.got.passed();
    v.passed |= v.withinBound;
    return v;
  }
  v.elementSlack = v.uncertainty.maxAbsErr;
  double uncertaintyL2 = v.uncertainty.diffL2;
  for (const void *m : perturbed) {
    CompareResult spread = compareBuffers(m, f64, type, n, exact);
    ++v.perturbed;
    v.perturbedDiffL2 = std::max(v.perturbedDiffL2, spread.diffL2);
    v.perturbedMaxAbs = std::max(v.perturbedMaxAbs, spread.maxAbsErr);
  }
  uncertaintyL2 = std::max(uncertaintyL2, v.perturbedDiffL2);
  v.elementSlack = std::max(v.elementSlack, v.perturbedMaxAbs);
  v.got = compareBuffers(got, f64, type, n, exact);
  v.got.mismatches = 0;
  v.got.firstMismatch = -1;
  double ulpSquares = 0.0;
  int64_t finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    double g = loadAsDouble(got, type, i), r = loadAsDouble(f64, type, i);
    if (std::isfinite(r)) {
      double ulp = ulpAt(type, r);
      ulpSquares += ulp * ulp;
      ++finite;
    }
    bool ok;
    if (!std::isfinite(r))
      ok = std::isnan(r) ? std::isnan(g) : g == r;
    else
      ok = std::isfinite(g) &&
           std::fabs(g - r) <=
               kElementFactor * (v.elementSlack + ulpAt(type, r));
    if (!ok) {
      if (v.got.firstMismatch < 0) {
        v.got.firstMismatch = i;
        v.got.firstGot = g;
        v.got.firstRef = r;
      }
      ++v.got.mismatches;
    }
  }
  // Floors: the dtype's rounding of the values, and of zero (an output the
  // exact evaluation gives as 0 may come out as a rounding residue).
  // And never tighter than the element bound at the RMS ulp: a few outputs
  // (a whole-tensor sum) whose literal and pairwise orders happen to be
  // exact leave no sample of the program's uncertainty, and a norm floor
  // of 4 u ||R|| would then be tighter than the 8 ulp each element may be
  // off (fuzz seed 5285: one sum of 5280 squares 4 ulp from f64).
  v.normBound = std::max(
      kNormFactor * std::max({uncertaintyL2,
                              unitRoundoff(type) * v.got.refL2,
                              ulpAt(type, 0.0) * std::sqrt(double(n))}),
      finite ? kElementFactor * std::sqrt(ulpSquares / double(finite)) : 0.0);
  v.withinBound = v.got.mismatches == 0 && v.got.diffL2 <= v.normBound;
  // Equal to the literal evaluation within the dtype tolerance is not
  // enough where that evaluation is poor (a 10% divisor error can land on
  // the literal order's own error): no less accurate than it, too.
  v.asAccurateAsLiteral =
      v.got.diffL2 <= kLiteralNormFactor * v.literal.diffL2 +
                          kNormFactor * unitRoundoff(type) * v.got.refL2;
  v.passed = v.withinBound || v.literalRoute();
  return v;
}

Expected<PrecisionVerdict> memopt::runtime::PerturbedSamples::judge(
    size_t index,
    const std::function<PrecisionVerdict(const std::vector<const void *> &)>
        &judgeWith) {
  PrecisionVerdict v = judgeWith({});
  if (v.passed || !v.judged || !run)
    return v;
  for (unsigned seed = samples.size() + 1; seed <= kPerturbedSamples; ++seed) {
    samples.emplace_back();
    if (Status st = run(seed, samples.back()); st.failed()) {
      samples.pop_back();
      return st.error();
    }
  }
  std::vector<const void *> at;
  for (const Buffers &b : samples)
    at.push_back(b[index].data());
  return judgeWith(at);
}
