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

#include "memopt-runtime/Status.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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

/// The dtype's default tolerance with its absolute part scaled by the RMS
/// of `ref`'s finite values where that is below 1: atol is meant for
/// outputs of magnitude ~1, and outputs of small values (probabilities over
/// long rows) are then compared relatively instead of accepted whatever
/// they are.
Tolerance scaledTolerance(DType type, const void *ref, int64_t numElements);

/// The tolerance of the comparison with the literal reference `ref`: the
/// scaled default, or the dtype default with the user's float overrides
/// (negative: not given; an atol given is not scaled).
Tolerance literalTolerance(DType type, const void *ref, int64_t numElements,
                           double atol, double rtol);

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
  /// ||got-ref||_2 and ||ref||_2 over the same pairs.
  double diffL2 = 0.0, refL2 = 0.0;
  /// Elements where got is NaN/Inf but ref is finite.
  int64_t nonFinite = 0;
  bool passed() const { return mismatches == 0; }
};

/// Compares `numElements` elements of `type`.
CompareResult compareBuffers(const void *got, const void *ref, DType type,
                             int64_t numElements, const Tolerance &tol);

/// Unit roundoff of a float dtype (2^-p for p significand bits: f16 2^-11,
/// bf16 2^-8, f32 2^-24, f64 2^-53) and the spacing of its values at |x|
/// (never below the smallest subnormal).
double unitRoundoff(DType type);
double ulpAt(DType type, double x);

/// The precision-aware verdict (README, "Verdicts"). Against the function
/// computed in f64 and rounded once (R), with the program's own
/// uncertainty taken from its evaluation in its own precision with the
/// reductions in a pairwise order (P; the literal order L where there is
/// no pairwise evaluation), a result G is within the program's precision
/// when
///   ||G - R||_2 <= max(kNormFactor * max(||P - R||_2, u * ||R||_2),
///                      kElementFactor * rms_i ulp(R_i))                 and
///   |G_i - R_i| <= kElementFactor * (max_j |P_j - R_j| + ulp(R_i)) for all i
/// (u the output dtype's unit roundoff; non-finite R_i must be matched).
/// A result that is not passes when it equals the literal evaluation within
/// the dtype tolerance and is no less accurate than it:
///   ||G - R||_2 <= kLiteralNormFactor * ||L - R||_2 + kNormFactor * u * ||R||_2
/// (the program's own order gives it).
/// Evaluations with every rounding perturbed (Monte Carlo arithmetic: the
/// perturbed reference run with several seeds, M_k) widen the uncertainty
/// to the largest of P's and theirs, ||M_k - R||_2 and max_j |M_kj - R_j|:
/// the pairwise order is one correct order, and on sums that cancel it can
/// land far closer to R than another (a column kernel's tree); the spread
/// of the perturbed evaluations is what any correct evaluation in the
/// program's precision may be off by. The tools run them only where the
/// verdict without them fails.
constexpr double kNormFactor = 4.0;
/// How many perturbed evaluations the tools run (seeds 1 ..).
constexpr unsigned kPerturbedSamples = 8;
constexpr double kElementFactor = 8.0;
constexpr double kLiteralNormFactor = 1.1;

struct PrecisionVerdict {
  /// False when there was no f64 evaluation: only `asLiteral` decides.
  bool judged = false;
  /// Errors against R (no tolerance: the counts are of differing
  /// elements): the literal evaluation's, the uncertainty's, G's (whose
  /// mismatches count the elements outside the element bound).
  CompareResult literal, uncertainty, got;
  bool pairwise = false; // the uncertainty is the pairwise evaluation's
  /// Perturbed evaluations taken into the uncertainty (0: none), and the
  /// largest of their errors against R (norm, element).
  unsigned perturbed = 0;
  double perturbedDiffL2 = 0.0, perturbedMaxAbs = 0.0;
  double elementSlack = 0.0; // max_j |P_j - R_j|
  double normBound = 0.0;    // the bound on ||G - R||_2
  bool withinBound = false;
  /// G against the literal evaluation, with the dtype tolerance, and
  /// whether G is no less accurate than it (always, when not judged).
  CompareResult asLiteral;
  bool asAccurateAsLiteral = false;
  bool literalRoute() const {
    return asLiteral.passed() && asAccurateAsLiteral;
  }
  bool passed = false;
  /// The literal evaluation is off by more than its magnitude
  /// (||L - R|| >= ||R||): the program's precision makes it meaningless.
  bool meaningless = false;
  /// "within the program's precision", "as the literal evaluation" or "".
  const char *route() const;
  /// Mismatching elements of the deciding check (G's against the bound, or
  /// against the literal evaluation when that passed).
  int64_t mismatches() const;
};

/// One line of a judged verdict's figures: G's errors against f64 and
/// their bounds, the literal evaluation's errors, and how it was decided.
std::string describeVerdict(const PrecisionVerdict &v);

/// Judges `got` (numElements of `type`). `f64` and `pairwise` may be null
/// (no such evaluation); `literalTol` is the tolerance of the comparison
/// with the literal evaluation (scaledTolerance unless the user gave one);
/// `perturbed` holds the perturbed evaluations, if any.
PrecisionVerdict judgeOutput(const void *got, const void *literal,
                             const void *f64, const void *pairwise, DType type,
                             int64_t numElements, const Tolerance &literalTol,
                             const std::vector<const void *> &perturbed = {});

/// The perturbed evaluations (seeds 1 .. kPerturbedSamples), run once, at
/// the first verdict that needs them, and shared by every output judged
/// after it.
class PerturbedSamples {
public:
  /// The buffers of one evaluation, by index.
  using Buffers = std::vector<std::vector<unsigned char>>;
  /// Evaluates the perturbed reference with `seed` into `out`.
  using Runner = std::function<Status(unsigned seed, Buffers &out)>;
  /// A null runner: there is no perturbed evaluation.
  explicit PerturbedSamples(Runner run) : run(std::move(run)) {}

  /// `judgeWith({})`; where that fails, is judged and a runner exists, the
  /// evaluations' buffer `index` given to `judgeWith` (the verdict with
  /// the uncertainty widened to their spread).
  Expected<PrecisionVerdict>
  judge(size_t index,
        const std::function<PrecisionVerdict(const std::vector<const void *> &)>
            &judgeWith);

private:
  Runner run;
  std::vector<Buffers> samples;
};

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_VERIFY_H
