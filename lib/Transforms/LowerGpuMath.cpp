//===- LowerGpuMath.cpp - libdevice-free math for kernels ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-lower-gpu-math: math ops in kernels become
// native PTX instructions (through LLVM intrinsics) or arithmetic, so that the
// PTX never depends on libdevice being found at compile time.
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

#include <limits>

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTLOWERGPUMATHPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// math.exp(x) -> exp2(x * log2(e)) on f32 (ex2.approx in PTX); with the
/// `afn` flag (memopt-approximate-math: results below 2^-126 may flush to
/// zero) ex2.approx.ftz, one MUFU.EX2 without the denormal scaling around
/// it.
struct ExpToExp2 : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Location loc = op.getLoc();
    Value log2e = arith::ConstantOp::create(
        rewriter, loc, rewriter.getF32FloatAttr(1.4426950408889634f));
    Value x = arith::MulFOp::create(rewriter, loc, op.getOperand(), log2e);
    if (bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn)) {
      rewriter.replaceOp(
          op, LLVM::CallIntrinsicOp::create(
                  rewriter, loc, rewriter.getF32Type(),
                  rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
                  ValueRange{x})
                  .getResult(0));
      return success();
    }
    rewriter.replaceOpWithNewOp<math::Exp2Op>(op, x);
    return success();
  }
};

/// math.tanh on f32 (16-bit floats through f32):
///   |x| < 2^-4:  x + x^3 (-1/3 + x^2 2/15)   (Taylor, error < 2^-27 |x|)
///   otherwise:   copysign((1 - e) / (1 + e), x), e = exp(-2|x|)
/// e from ex2.approx (relative error ~2^-22): 1 - e >= 0.117 there, so the
/// quotient is within ~2^-19 relative. Upstream's expansion uses the second
/// form everywhere, which returns 0 for |x| < 2^-25 and loses most bits
/// below 2^-12.
/// With the `afn` flag (memopt-approximate-math: the result is only
/// observed in 16 bits) the cheaper forms, within 2^-18 relative:
///   |x| < 2^-4:  x - x^3 / 3                  (error < 2^-19 |x|)
///   otherwise:   1 - 2 rcp.approx(1 + E), E = ex2.approx.ftz(2 x log2(e))
/// (E = inf or 0 give 1 and -1; no sign handling).
struct TanhLowering : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    Type t = op.getType();
    if (!t.isF32() && !t.isF16() && !t.isBF16())
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto cst = [&](float v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(v));
    };
    auto intrinsic = [&](StringRef name, Value v) -> Value {
      return LLVM::CallIntrinsicOp::create(rewriter, loc, f32,
                                           rewriter.getStringAttr(name),
                                           ValueRange{v})
          .getResult(0);
    };
    bool approx =
        bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn);
    Value x = op.getOperand();
    if (t != f32)
      x = arith::ExtFOp::create(rewriter, loc, f32, x);
    // 1 + tanh(x) (tanh-GELU) and 1 - tanh(x), with afn: 2 / (1 + exp(-2x))
    // and 2 / (1 + exp(2x)), within ~2^-21 relative everywhere. Through
    // tanh they cancel where tanh(x) is near -1 (or 1): the exhaustive f16
    // GELU lost up to 5 ulps there with the approximate quotient.
    if (std::optional<OnePlusMinusTanh> m =
            approx ? matchOnePlusMinusTanh(op.getResult()) : std::nullopt) {
      rewriter.setInsertionPoint(m->user);
      Value e = intrinsic(
          "llvm.nvvm.ex2.approx.ftz.f",
          arith::MulFOp::create(rewriter, loc, x,
                                cst(m->sign * 2.8853900817779268f)));
      Value r = intrinsic("llvm.nvvm.rcp.approx.ftz.f",
                          arith::AddFOp::create(rewriter, loc, cst(1.0f), e));
      rewriter.replaceOp(
          m->user,
          arith::MulFOp::create(rewriter, loc, r, cst(2.0f)).getResult());
      rewriter.eraseOp(op);
      return success();
    }
    Value a = math::AbsFOp::create(rewriter, loc, x);
    Value x2 = arith::MulFOp::create(rewriter, loc, x, x);
    Value small, large;
    if (approx) {
      Value p = arith::MulFOp::create(rewriter, loc, x2, cst(-1.0f / 3.0f));
      small = math::FmaOp::create(rewriter, loc, p, x, x);
      Value e = intrinsic(
          "llvm.nvvm.ex2.approx.ftz.f",
          arith::MulFOp::create(rewriter, loc, x, cst(2.8853900817779268f)));
      Value r = intrinsic(
          "llvm.nvvm.rcp.approx.ftz.f",
          arith::AddFOp::create(rewriter, loc, cst(1.0f), e));
      large = math::FmaOp::create(rewriter, loc, r, cst(-2.0f), cst(1.0f));
    } else {
      Value p = math::FmaOp::create(rewriter, loc, x2, cst(2.0f / 15.0f),
                                    cst(-1.0f / 3.0f));
      Value x3 = arith::MulFOp::create(rewriter, loc, x2, x);
      small = math::FmaOp::create(rewriter, loc, x3, p, x);
      // e = exp(-2|x|) = exp2(|x| * -2 log2(e)).
      Value e = math::Exp2Op::create(
          rewriter, loc,
          arith::MulFOp::create(rewriter, loc, a, cst(-2.8853900817779268f)));
      Value num = arith::SubFOp::create(rewriter, loc, cst(1.0f), e);
      Value den = arith::AddFOp::create(rewriter, loc, cst(1.0f), e);
      Value q = arith::DivFOp::create(rewriter, loc, num, den);
      large = math::CopySignOp::create(rewriter, loc, q, x);
    }
    Value isSmall = arith::CmpFOp::create(rewriter, loc,
                                          arith::CmpFPredicate::OLT, a,
                                          cst(0.0625f));
    Value r = arith::SelectOp::create(rewriter, loc, isSmall, small, large);
    if (t != f32)
      r = arith::TruncFOp::create(rewriter, loc, t, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Builders of f64 arithmetic for the f64 math lowerings below.
namespace {
struct F64Builder {
  PatternRewriter &b;
  Location loc;
  Type f64 = b.getF64Type(), i64 = b.getI64Type();
  Value c(double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  }
  Value ci(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value bits(Value x) { return arith::BitcastOp::create(b, loc, i64, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, loc, f64, x); }
  Value toInt(Value x) { return arith::FPToSIOp::create(b, loc, i64, x); }
  Value toFloat(Value x) { return arith::SIToFPOp::create(b, loc, f64, x); }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  /// 2^k for k in [-1022, 1023] (i64).
  Value pow2(Value k) {
    return fromBits(arith::ShLIOp::create(b, loc, addi(k, ci(1023)), ci(52)));
  }
};

/// A one-operand f64 math op replaced by what `lower` builds of it.
template <typename OpTy> struct F64Lowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  virtual Value lower(F64Builder &f, Value x) const = 0;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (!op.getType().isF64())
      return failure();
    F64Builder f{rewriter, op.getLoc()};
    rewriter.replaceOp(op, lower(f, op.getOperand()));
    return success();
  }
};
} // namespace

/// math.exp and math.exp2 on f64 (PTX has no f64 exp; libdevice's is what
/// NVVM would call): x clamped to where the result is not yet 0 or inf
/// ([-746, 710] for exp, [-1076, 1025] for exp2), k = round(x log2(e))
/// (round(x) for exp2), r = x - k ln2 in two FMA steps with ln2 split in
/// two doubles ((x - k) ln2 for exp2, x - k exact there; |r| <= ln2 / 2),
/// e^r by its Taylor polynomial of degree 13 (truncation below 2^-57
/// relative), times 2^k as two powers of two (k may lie past the normal
/// exponents: subnormal results, 2^1024 for an overflow to inf). NaN stays
/// NaN. Within 1 ulp of libm at every point the host test
/// (lower-gpu-math-f64-exec.mlir) samples.
template <typename OpTy, bool Base2>
struct ExpF64Lowering : F64Lowering<OpTy> {
  using F64Lowering<OpTy>::F64Lowering;
  Value lower(F64Builder &f, Value x) const override {
    Value xc = arith::MinNumFOp::create(
        f.b, f.loc,
        arith::MaxNumFOp::create(f.b, f.loc, x, f.c(Base2 ? -1076.0 : -746.0)),
        f.c(Base2 ? 1025.0 : 710.0));
    // r = x - k ln2 (exp), (x - k) ln2 (exp2), ln2 as two doubles.
    Value ln2hi = f.c(0x1.62e42fefa39efp-1), ln2lo = f.c(0x1.abc9e3b39803fp-56);
    Value kf = math::RoundEvenOp::create(
        f.b, f.loc, Base2 ? xc : f.mul(xc, f.c(1.4426950408889634)));
    Value r;
    if (Base2) {
      Value t = f.sub(xc, kf);
      r = f.fma(t, ln2hi, f.mul(t, ln2lo));
    } else {
      Value nk = arith::NegFOp::create(f.b, f.loc, kf);
      r = f.fma(nk, ln2lo, f.fma(nk, ln2hi, xc));
    }
    // 1/n! for n = 13 .. 0.
    double coef[14];
    coef[0] = 1.0;
    for (int n = 1; n < 14; ++n)
      coef[n] = coef[n - 1] / n;
    Value p = f.c(coef[13]);
    for (int n = 12; n >= 0; --n)
      p = f.fma(p, r, f.c(coef[n]));
    Value k = f.toInt(kf);
    Value k1 = arith::ShRSIOp::create(f.b, f.loc, k, f.ci(1));
    Value k2 = f.subi(k, k1);
    Value res = f.mul(f.mul(p, f.pow2(k1)), f.pow2(k2));
    Value isNan = f.cmp(arith::CmpFPredicate::UNO, x, x);
    return f.select(isNan, x, res);
  }
};

/// math.log and math.log2 on f64, as fdlibm's e_log.c computes log: x =
/// m 2^e with m in [sqrt(2)/2, sqrt(2)) (subnormals scaled by 2^54 first),
/// f = m - 1, s = f / (2 + f), log(m) = f - (f^2/2 - s (f^2/2 + R(s^2)))
/// with fdlibm's minimax R; log adds e ln2 in two parts (the first exact
/// for |e| < 2^11), log2 is e + log(m) log2(e) (log2(e) in two parts).
/// x < 0 and NaN give NaN, 0 gives -inf, inf gives inf. Within 1 ulp of
/// libm at every point the host test samples.
template <typename OpTy, bool Base2>
struct LogF64Lowering : F64Lowering<OpTy> {
  using F64Lowering<OpTy>::F64Lowering;
  Value lower(F64Builder &f, Value x) const override {
    using P = arith::CmpFPredicate;
    Value isSub = f.cmp(P::OLT, x, f.c(0x1p-1022));
    Value bits = f.bits(f.select(isSub, f.mul(x, f.c(0x1p54)), x));
    Value e = f.subi(
        f.andi(arith::ShRUIOp::create(f.b, f.loc, bits, f.ci(52)), f.ci(0x7ff)),
        f.select(isSub, f.ci(1023 + 54), f.ci(1023)));
    Value m = f.fromBits(
        arith::OrIOp::create(f.b, f.loc, f.andi(bits, f.ci(0x000fffffffffffffLL)),
                             f.ci(0x3ff0000000000000LL)));
    Value big = f.cmp(P::OGT, m, f.c(1.4142135623730951));
    m = f.select(big, f.mul(m, f.c(0.5)), m);
    e = f.select(big, f.addi(e, f.ci(1)), e);
    Value fm = f.sub(m, f.c(1.0));
    Value hfsq = f.mul(f.c(0.5), f.mul(fm, fm));
    Value s = f.div(fm, f.add(f.c(2.0), fm));
    Value z = f.mul(s, s);
    Value w = f.mul(z, z);
    Value t1 = f.mul(
        w, f.fma(w, f.fma(w, f.c(1.531383769920937332e-01),
                          f.c(2.222219843214978396e-01)),
                 f.c(3.999999999940941908e-01)));
    Value t2 = f.mul(
        z, f.fma(w,
                 f.fma(w,
                       f.fma(w, f.c(1.479819860511658591e-01),
                             f.c(1.818357216161805012e-01)),
                       f.c(2.857142874366239149e-01)),
                 f.c(6.666666666666735130e-01)));
    Value rr = f.add(t2, t1);
    Value dk = f.toFloat(e);
    Value res;
    if (Base2) {
      // e + log(m) log2(e), log(m) = f - (hfsq - s (hfsq + R)).
      Value lnm = f.sub(fm, f.sub(hfsq, f.mul(s, f.add(hfsq, rr))));
      Value v = f.fma(lnm, f.c(0x1.71547652b82fep+0),
                      f.mul(lnm, f.c(0x1.777d0ffda0d24p-56)));
      res = f.add(dk, v);
    } else {
      // dk ln2_hi - ((hfsq - (s (hfsq + R) + dk ln2_lo)) - f)
      Value inner = f.add(f.mul(s, f.add(hfsq, rr)),
                          f.mul(dk, f.c(1.90821492927058770002e-10)));
      res = f.sub(f.mul(dk, f.c(6.93147180369123816490e-01)),
                  f.sub(f.sub(hfsq, inner), fm));
    }
    double inf = std::numeric_limits<double>::infinity();
    res = f.select(f.cmp(P::OEQ, x, f.c(0.0)), f.c(-inf), res);
    res = f.select(f.cmp(P::OEQ, x, f.c(inf)), x, res);
    return f.select(f.cmp(P::ULT, x, f.c(0.0)),
                    f.c(std::numeric_limits<double>::quiet_NaN()), res);
  }
};

/// math.tanh on f64: for |x| < 0.55 its odd Taylor polynomial to x^41
/// (21 coefficients from tanh' = 1 - tanh^2; the series converges as
/// (2x / pi)^2n, the next term below 2^-60 relative), else
/// copysign((1 - e) / (1 + e), x) with e = exp(-2|x|) (1 - e >= 0.66
/// there, so e's error is not amplified; e vanishes into 1 for |x| > 19).
/// NaN stays NaN. Within 2 ulps of libm at every point the host test
/// samples.
struct TanhF64Lowering : F64Lowering<math::TanhOp> {
  using F64Lowering::F64Lowering;
  Value lower(F64Builder &f, Value x) const override {
    // a_n of x^(2n+1): (2n + 1) a_n = -sum_{i+j=n-1} a_i a_j, a_0 = 1.
    constexpr int kTerms = 21;
    double a[kTerms] = {1.0};
    for (int n = 1; n < kTerms; ++n) {
      double sum = 0.0;
      for (int i = 0; i <= n - 1; ++i)
        sum += a[i] * a[n - 1 - i];
      a[n] = -sum / (2 * n + 1);
    }
    Value x2 = f.mul(x, x);
    Value p = f.c(a[kTerms - 1]);
    for (int n = kTerms - 2; n >= 0; --n)
      p = f.fma(p, x2, f.c(a[n]));
    Value small = f.mul(p, x);
    Value ax = math::AbsFOp::create(f.b, f.loc, x);
    Value e = math::ExpOp::create(f.b, f.loc, f.mul(ax, f.c(-2.0)));
    Value q = f.div(f.sub(f.c(1.0), e), f.add(f.c(1.0), e));
    Value large = math::CopySignOp::create(f.b, f.loc, q, x);
    Value isSmall = f.cmp(arith::CmpFPredicate::OLT, ax, f.c(0.55));
    return f.select(isSmall, small, large);
  }
};

/// math.log1p on f64: u = 1 + x, then x when u rounds to 1, else
/// log(u) x / (u - 1) (the quotient corrects u's rounding: Goldberg,
/// "What every computer scientist should know about floating-point
/// arithmetic", theorem 4); inf gives inf. Within 2 ulps of libm at every
/// point the host test samples.
struct Log1pF64Lowering : F64Lowering<math::Log1pOp> {
  using F64Lowering::F64Lowering;
  Value lower(F64Builder &f, Value x) const override {
    using P = arith::CmpFPredicate;
    Value u = f.add(f.c(1.0), x);
    Value l = math::LogOp::create(f.b, f.loc, u);
    Value r = f.div(f.mul(l, x), f.sub(u, f.c(1.0)));
    r = f.select(f.cmp(P::OEQ, u, f.c(1.0)), x, r);
    return f.select(
        f.cmp(P::OEQ, x, f.c(std::numeric_limits<double>::infinity())), x, r);
  }
};

/// A math op with a native f32 PTX instruction -> llvm.call_intrinsic;
/// f64 too where PTX has the f64 form (`f64`: sqrt.rn.f64, abs.f64,
/// cvt.rmi.f64.f64, fma.rn.f64, ...).
template <typename OpTy>
struct ToIntrinsic : OpRewritePattern<OpTy> {
  ToIntrinsic(MLIRContext *ctx, StringRef name, bool f64 = true)
      : OpRewritePattern<OpTy>(ctx), name(name), f64(f64) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type t = op->getResult(0).getType();
    if (t.isF64() && f64) {
      Value r = LLVM::CallIntrinsicOp::create(
                    rewriter, op.getLoc(), t,
                    rewriter.getStringAttr("llvm." + name + ".f64"),
                    op->getOperands())
                    .getResult(0);
      rewriter.replaceOp(op, r);
      return success();
    }
    if (!t.isF32() && !t.isF16() && !t.isBF16())
      return failure();
    // 16-bit floats: compute in f32 (exact for max/min/abs/rounding).
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> args;
    for (Value v : op->getOperands())
      args.push_back(t == f32 ? v
                              : arith::ExtFOp::create(rewriter, loc, f32, v)
                                    .getResult());
    Value r = LLVM::CallIntrinsicOp::create(
                  rewriter, loc, f32,
                  rewriter.getStringAttr("llvm." + name + ".f32"), args)
                  .getResult(0);
    if (t != f32)
      r = arith::TruncFOp::create(rewriter, loc, t, r);
    rewriter.replaceOp(op, r);
    return success();
  }
  std::string name;
  bool f64;
};
} // namespace

/// Math functions lowered by MLIR's polynomial approximations.
static bool isApproximated(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"log", "log2", "log1p", "erf", "erfc", "expm1",
                             "sin", "cos", "atan", "atan2", "asin", "acos",
                             "cbrt"},
                            name);
}

/// Divisions by one f32 divisor, by several divisions or from inside a loop
/// its definition is outside of, become multiplications by its reciprocal,
/// computed once before the first of them. Full range: for |b| in
/// [2^-126, 2^126], a / b = (a * RN(1/b)) * 1; outside it RN(1/b) would
/// overflow or lose bits, so b is scaled by 2^64 (tiny b) or 2^-64 (huge
/// b) first and the product by the same factor after:
/// a / b = (a * RN(1 / (b * 2^64))) * 2^64. Both scalings are exact; each
/// quotient is within 1.5 ulp of the correctly rounded one (double rounding
/// of a subnormal quotient of a huge divisor adds at most one unit of the
/// subnormal spacing), 0, inf and NaN divisors give what the division does.
static void shareReciprocals(Operation *root) {
  llvm::MapVector<Value, SmallVector<arith::DivFOp>> byDivisor;
  root->walk([&](arith::DivFOp div) {
    if (div.getType().isF32())
      byDivisor[div.getRhs()].push_back(div);
  });
  for (auto &entry : byDivisor) {
    SmallVector<arith::DivFOp> &divs = entry.second;
    // (Not the key: a division rewritten earlier may have been the divisor,
    // replaced in every use since.)
    Value divisor = divs.front().getRhs();
    // Whether `div` runs in a loop that the divisor is defined outside of.
    Operation *home = divisor.getParentRegion()->getParentOp();
    auto inLoopAboveDivisor = [&](arith::DivFOp div) {
      for (Operation *op = div->getParentOp(); op && op != home;
           op = op->getParentOp())
        if (isa<LoopLikeOpInterface>(op))
          return true;
      return false;
    };
    if (divs.size() < 2 && !inLoopAboveDivisor(divs.front()))
      continue;
    // Right before the first division (or the op holding it) in the
    // divisor's block, where every division is in that block; otherwise
    // right after the divisor's definition.
    OpBuilder b(root->getContext());
    Block *block = divisor.getParentBlock();
    Operation *first = nullptr;
    for (arith::DivFOp div : divs) {
      Operation *at = block->findAncestorOpInBlock(*div);
      if (!at) {
        first = nullptr;
        break;
      }
      if (!first || at->isBeforeInBlock(first))
        first = at;
    }
    if (first)
      b.setInsertionPoint(first);
    else if (Operation *def = divisor.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(block);
    Location loc = divisor.getLoc();
    auto f32 = [&](float v) {
      return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
    };
    auto cmp = [&](arith::CmpFPredicate p, float v) -> Value {
      return arith::CmpFOp::create(b, loc, p, divisor, f32(v));
    };
    using P = arith::CmpFPredicate;
    // (NaN compares false: it takes the middle path.)
    Value tiny = arith::AndIOp::create(b, loc, cmp(P::OGT, -0x1p-126f),
                                       cmp(P::OLT, 0x1p-126f));
    Value huge = arith::OrIOp::create(b, loc, cmp(P::OLT, -0x1p126f),
                                      cmp(P::OGT, 0x1p126f));
    Value scale = arith::SelectOp::create(
        b, loc, tiny, f32(0x1p64f),
        arith::SelectOp::create(b, loc, huge, f32(0x1p-64f), f32(1.0f)));
    Value recip = arith::DivFOp::create(
        b, loc, f32(1.0f), arith::MulFOp::create(b, loc, divisor, scale));
    for (arith::DivFOp div : divs) {
      OpBuilder at(div);
      Value q = arith::MulFOp::create(at, div.getLoc(), div.getLhs(), recip,
                                      div.getFastmathAttr());
      Value r = arith::MulFOp::create(at, div.getLoc(), q, scale,
                                      div.getFastmathAttr());
      div.replaceAllUsesWith(r);
      div.erase();
    }
  }
}

namespace {
struct MemoptLowerGpuMathPass final
    : memopt::impl::MemoptLowerGpuMathPassBase<MemoptLowerGpuMathPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    // Compound functions in terms of exp, sqrt, log and arithmetic.
    math::populateExpansionPatterns(
        patterns, {"sinh", "cosh", "asinh", "acosh", "atanh", "tan",
                   "powf", "fpowi", "rsqrt", "exp2f", "roundf", "clampf"});
    // 16-bit floats compute in f32.
    populateMathF32ExpansionPatterns(patterns, [](StringRef) { return true; });
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    patterns.add<ExpToExp2>(ctx);
    // f64 exp, exp2, log, log2, log1p and tanh (f32's come from ex2, MLIR's
    // approximations and TanhLowering).
    patterns.add<ExpF64Lowering<math::ExpOp, false>,
                 ExpF64Lowering<math::Exp2Op, true>,
                 LogF64Lowering<math::LogOp, false>,
                 LogF64Lowering<math::Log2Op, true>, TanhF64Lowering,
                 Log1pF64Lowering>(ctx, /*benefit=*/2);
    // Before the f32 expansion of 16-bit math (which would drop `afn`).
    patterns.add<TanhLowering>(ctx, /*benefit=*/2);
    patterns.add<ToIntrinsic<math::SqrtOp>>(ctx, "sqrt");
    patterns.add<ToIntrinsic<math::Exp2Op>>(ctx, "exp2", /*f64=*/false);
    patterns.add<ToIntrinsic<math::FloorOp>>(ctx, "floor");
    patterns.add<ToIntrinsic<math::CeilOp>>(ctx, "ceil");
    patterns.add<ToIntrinsic<math::RoundEvenOp>>(ctx, "roundeven");
    patterns.add<ToIntrinsic<math::RoundOp>>(ctx, "round");
    patterns.add<ToIntrinsic<math::TruncOp>>(ctx, "trunc");
    patterns.add<ToIntrinsic<math::AbsFOp>>(ctx, "fabs");
    patterns.add<ToIntrinsic<math::FmaOp>>(ctx, "fma");
    patterns.add<ToIntrinsic<math::CopySignOp>>(ctx, "copysign");
    // NVVM conversion also sends these arith ops to libdevice.
    patterns.add<ToIntrinsic<arith::MaxNumFOp>>(ctx, "maxnum");
    patterns.add<ToIntrinsic<arith::MinNumFOp>>(ctx, "minnum");
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError("math lowering did not converge");
      return signalPassFailure();
    }
    shareReciprocals(getOperation());
    WalkResult left = getOperation()->walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "math") {
        op->emitOpError("has no libdevice-free lowering for the GPU");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
