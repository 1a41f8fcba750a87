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

TEST(VerifyTest, UlpsAndRoundoff) {
  EXPECT_DOUBLE_EQ(unitRoundoff(DType::F16), std::ldexp(1.0, -11));
  EXPECT_DOUBLE_EQ(unitRoundoff(DType::BF16), std::ldexp(1.0, -8));
  EXPECT_DOUBLE_EQ(ulpAt(DType::F16, 1.0), std::ldexp(1.0, -10));
  EXPECT_DOUBLE_EQ(ulpAt(DType::F16, -3.0), std::ldexp(1.0, -9));
  EXPECT_DOUBLE_EQ(ulpAt(DType::BF16, 1.5), std::ldexp(1.0, -7));
  EXPECT_DOUBLE_EQ(ulpAt(DType::F32, 1.0), std::ldexp(1.0, -23));
  // Subnormal spacing at and near zero.
  EXPECT_DOUBLE_EQ(ulpAt(DType::F16, 0.0), std::ldexp(1.0, -24));
  EXPECT_DOUBLE_EQ(ulpAt(DType::F16, 1e-6), std::ldexp(1.0, -24));
  EXPECT_DOUBLE_EQ(ulpAt(DType::F32, 0.0), std::ldexp(1.0, -149));
}

/// Deterministic values in [-1, 1) and a perturbation of relative size
/// `rel` of each.
static std::vector<float> values(int n, double scale = 1.0) {
  std::vector<float> v(n);
  uint64_t x = 12345;
  for (float &f : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    f = static_cast<float>(scale * (double(x >> 11) / 9007199254740992.0 * 2 - 1));
  }
  return v;
}
static std::vector<float> perturbed(const std::vector<float> &r, double rel,
                                    uint64_t seed) {
  std::vector<float> v = r;
  for (float &f : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    f *= static_cast<float>(1 + rel * (double(seed >> 11) / 9007199254740992.0 * 2 - 1));
  }
  return v;
}

TEST(VerifyTest, PrecisionVerdictRoutes) {
  const int n = 4096;
  Tolerance tol = defaultTolerance(DType::F32);
  std::vector<float> r = values(n);
  std::vector<float> p = perturbed(r, 1e-3, 1); // the program's uncertainty
  std::vector<float> lit = perturbed(r, 0.5, 2); // a poor literal order
  // A reassociated result as accurate as the pairwise one: within.
  std::vector<float> g = perturbed(r, 1e-3, 3);
  PrecisionVerdict v =
      judgeOutput(g.data(), lit.data(), r.data(), p.data(), DType::F32, n, tol);
  EXPECT_TRUE(v.judged);
  EXPECT_TRUE(v.pairwise);
  EXPECT_TRUE(v.withinBound);
  EXPECT_TRUE(v.passed);
  EXPECT_FALSE(v.asLiteral.passed());
  EXPECT_STREQ(v.route(), "within the program's precision");
  EXPECT_FALSE(v.meaningless);
  EXPECT_EQ(v.mismatches(), 0);
  // Six times the uncertainty: outside the norm bound (4x), and not the
  // literal evaluation.
  std::vector<float> worse = perturbed(r, 6e-3, 4);
  v = judgeOutput(worse.data(), lit.data(), r.data(), p.data(), DType::F32, n,
                  tol);
  EXPECT_FALSE(v.withinBound);
  EXPECT_FALSE(v.passed);
  EXPECT_STREQ(v.route(), "");
  // A divisor 10% off.
  std::vector<float> planted = r;
  for (float &f : planted)
    f /= 1.1f;
  v = judgeOutput(planted.data(), lit.data(), r.data(), p.data(), DType::F32,
                  n, tol);
  EXPECT_FALSE(v.passed);
  // The literal order itself passes as the literal evaluation.
  v = judgeOutput(lit.data(), lit.data(), r.data(), p.data(), DType::F32, n,
                  tol);
  EXPECT_TRUE(v.passed);
  EXPECT_FALSE(v.withinBound);
  EXPECT_STREQ(v.route(), "as the literal evaluation");
  // One element far off fails the element bound though the norm is small.
  std::vector<float> spike = p;
  spike[100] += 0.05f;
  v = judgeOutput(spike.data(), lit.data(), r.data(), p.data(), DType::F32, n,
                  tol);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.got.mismatches, 1);
  EXPECT_EQ(v.got.firstMismatch, 100);
  // Without a pairwise evaluation the literal one gives the uncertainty.
  v = judgeOutput(g.data(), lit.data(), r.data(), nullptr, DType::F32, n, tol);
  EXPECT_FALSE(v.pairwise);
  EXPECT_TRUE(v.passed);
  // Without an f64 evaluation only the literal comparison decides.
  std::vector<float> near = perturbed(g, 1e-5, 6);
  v = judgeOutput(g.data(), near.data(), nullptr, nullptr, DType::F32, n, tol);
  EXPECT_FALSE(v.judged);
  EXPECT_TRUE(v.passed);
  v = judgeOutput(g.data(), lit.data(), nullptr, nullptr, DType::F32, n, tol);
  EXPECT_FALSE(v.passed);
}

TEST(VerifyTest, PerturbedEvaluationsWidenTheUncertainty) {
  const int n = 4096;
  Tolerance tol = defaultTolerance(DType::F32);
  std::vector<float> r = values(n);
  // A pairwise order that happens to land close to R, and a correct
  // reassociation six times farther: outside the pairwise bound.
  std::vector<float> p = perturbed(r, 1e-4, 1);
  std::vector<float> lit = perturbed(r, 1e-4, 2);
  std::vector<float> g = perturbed(r, 6e-4, 3);
  PrecisionVerdict v =
      judgeOutput(g.data(), lit.data(), r.data(), p.data(), DType::F32, n, tol);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.perturbed, 0u);
  // Perturbed evaluations as far off as g: within their spread.
  std::vector<std::vector<float>> m;
  for (uint64_t s = 0; s < 4; ++s)
    m.push_back(perturbed(r, 5e-4, 10 + s));
  std::vector<const void *> samples;
  for (const auto &x : m)
    samples.push_back(x.data());
  v = judgeOutput(g.data(), lit.data(), r.data(), p.data(), DType::F32, n, tol,
                  samples);
  EXPECT_EQ(v.perturbed, 4u);
  EXPECT_TRUE(v.withinBound);
  EXPECT_TRUE(v.passed);
  EXPECT_STREQ(v.route(), "within the program's rounding spread");
  EXPECT_NE(describeVerdict(v).find("4 perturbed evaluations"),
            std::string::npos);
  // Far outside the spread (a divisor 1% off): still a failure.
  std::vector<float> planted = r;
  for (float &f : planted)
    f /= 1.01f;
  v = judgeOutput(planted.data(), lit.data(), r.data(), p.data(), DType::F32,
                  n, tol, samples);
  EXPECT_FALSE(v.passed);
  // The samples only widen the bound: what passes without them passes.
  std::vector<float> close = perturbed(r, 1e-4, 4);
  EXPECT_TRUE(judgeOutput(close.data(), lit.data(), r.data(), p.data(),
                          DType::F32, n, tol, samples)
                  .passed);
}

TEST(VerifyTest, FewOutputsKeepTheElementBound) {
  // One sum whose literal and pairwise orders both round to the f64 value:
  // no sample of the uncertainty. Another correct order 4 ulp off passes
  // (fuzz seed 5285); 20 ulp off fails, as does a 1e-4 error.
  Tolerance tol = defaultTolerance(DType::F32);
  float r = 0.0268f;
  float ulp = std::nextafter(r, 1.0f) - r;
  float four = r + 4 * ulp, twenty = r + 20 * ulp, far = r * (1 + 1e-4f);
  PrecisionVerdict v =
      judgeOutput(&four, &r, &r, &r, DType::F32, 1, tol);
  EXPECT_TRUE(v.withinBound);
  EXPECT_TRUE(v.passed);
  v = judgeOutput(&twenty, &r, &r, &r, DType::F32, 1, tol);
  EXPECT_FALSE(v.withinBound);
  v = judgeOutput(&far, &r, &r, &r, DType::F32, 1, tol);
  EXPECT_FALSE(v.passed);
  // Many outputs: the floor stays u ||R||, 4 ulp everywhere is outside it.
  std::vector<float> rs(4096, r), gs(4096, four);
  v = judgeOutput(gs.data(), rs.data(), rs.data(), rs.data(), DType::F32, 4096,
                  tol);
  EXPECT_FALSE(v.withinBound);
}

TEST(VerifyTest, ZeroOutputsAllowARoundingResidue) {
  // The exact value is 0 everywhere; a kernel leaves a residue of one f32
  // subnormal spacing (a contracted a*b - a*b): within the zero floor. A
  // residue of 1e-3 is not.
  std::vector<float> zero(64, 0.0f), got(64, 0.0f);
  got[3] = 1e-45f;
  Tolerance tol = defaultTolerance(DType::F32);
  EXPECT_TRUE(judgeOutput(got.data(), zero.data(), zero.data(), zero.data(),
                          DType::F32, 64, tol)
                  .withinBound);
  got[3] = 1e-3f;
  EXPECT_FALSE(judgeOutput(got.data(), zero.data(), zero.data(), zero.data(),
                           DType::F32, 64, Tolerance{0, 0, 0})
                   .passed);
}

TEST(VerifyTest, MeaninglessLiteralIsAWarningNotAVerdict) {
  const int n = 256;
  std::vector<float> r = values(n), p = perturbed(r, 1e-3, 5);
  std::vector<float> lit = r;
  for (float &f : lit)
    f = 4 * f + 1; // off by more than the value's norm
  PrecisionVerdict v = judgeOutput(p.data(), lit.data(), r.data(), p.data(),
                                   DType::F32, n, defaultTolerance(DType::F32));
  EXPECT_TRUE(v.meaningless);
  EXPECT_TRUE(v.passed);
}

TEST(VerifyTest, PrecisionVerdictNonFiniteAndIntegers) {
  std::vector<float> r = {1.0f, NAN, INFINITY, 2.0f};
  std::vector<float> g = r;
  Tolerance tol = defaultTolerance(DType::F32);
  EXPECT_TRUE(
      judgeOutput(g.data(), r.data(), r.data(), r.data(), DType::F32, 4, tol)
          .withinBound);
  g[1] = 0.0f; // NaN expected
  EXPECT_FALSE(
      judgeOutput(g.data(), r.data(), r.data(), r.data(), DType::F32, 4, tol)
          .passed);
  g = r;
  g[3] = NAN; // finite expected
  EXPECT_FALSE(
      judgeOutput(g.data(), r.data(), r.data(), r.data(), DType::F32, 4, tol)
          .passed);
  // Integers: the f64 evaluation's result within the dtype tolerance, or
  // the literal one's.
  std::vector<int32_t> exact = {3, -1, 7}, lit = {3, -2, 7}, got = {3, -1, 7};
  Tolerance itol = defaultTolerance(DType::I32);
  PrecisionVerdict v = judgeOutput(got.data(), lit.data(), exact.data(),
                                   nullptr, DType::I32, 3, itol);
  EXPECT_TRUE(v.withinBound);
  EXPECT_TRUE(v.passed);
  got[1] = 5;
  EXPECT_FALSE(judgeOutput(got.data(), lit.data(), exact.data(), nullptr,
                           DType::I32, 3, itol)
                   .passed);
}

TEST(VerifyTest, ScaledToleranceFollowsSmallOutputs) {
  // Probabilities of ~1e-4: atol shrinks with them, so a 5% error fails.
  std::vector<float> ref = values(1000, 1e-4), got = ref;
  for (float &f : got)
    f *= 1.05f;
  Tolerance t = scaledTolerance(DType::F16, ref.data() /*as f32*/, 0);
  EXPECT_DOUBLE_EQ(t.atol, defaultTolerance(DType::F16).atol);
  t = scaledTolerance(DType::F32, ref.data(), 1000);
  EXPECT_LT(t.atol, 1e-7);
  EXPECT_FALSE(compareBuffers(got.data(), ref.data(), DType::F32, 1000,
                              Tolerance{t.atol, 1e-2, 0})
                   .passed());
  // Outputs of magnitude >= 1 keep the dtype's atol.
  std::vector<float> big = values(1000, 10.0);
  EXPECT_DOUBLE_EQ(scaledTolerance(DType::F32, big.data(), 1000).atol, 1e-4);
}

} // namespace
