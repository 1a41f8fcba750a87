//===- ApproximateMath.cpp - fast math where 16-bit rounding hides it -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-approximate-math: a math function whose
// result is only ever observed after rounding to a 16-bit float (bias +
// GELU in bf16 computed in f32) may be computed with the GPU's approximate
// instructions, because their error is far below half an ulp of the 16-bit
// result. The decision is recorded in the IR as the op's `afn` fast-math
// flag; memopt-lower-gpu-math reads it. f32 mulf/addf/subf whose results
// are likewise only seen in 16 bits get `contract` (fused multiply-adds:
// one rounding instead of two, within an f32 ulp of each other). An f32
// exp(v - m), m the maximum of v over a reduction, whose only use is its
// sum over the same points (log-sum-exp) also gets `afn`: its results
// below 2^-126 may flush to zero (ex2.approx.ftz), far below half an ulp
// of a sum that holds a term of exactly 1.
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "KernelFormation/Grouping.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTAPPROXIMATEMATHPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Visits every op using a value computed from `roots` (their users, the
/// users of those users' results, ...) once; `visit` returns false to stop
/// the walk there (the answer is then false), or sets `follow` to false to
/// not walk on from that op's results.
static bool walkDerived(SmallVector<Value> work,
                        function_ref<bool(Operation *, Value, bool &)> visit) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    for (Operation *user : cur.getUsers()) {
      if (!seen.insert(user).second)
        continue;
      bool follow = true;
      if (!visit(user, cur, follow))
        return false;
      if (follow)
        llvm::append_range(work, user->getResults());
    }
  }
  return true;
}

/// Whether every value computed from `v` inside its block reaches the rest
/// of the program only through an arith.truncf to a float of at most 16
/// bits: pure float arithmetic and math ops carry it on; anything else (a
/// yield of a wider value, a comparison, a conversion to an integer, an op
/// in another block) observes it at its own precision. Otherwise `why` says
/// where it is observed.
static bool onlyObservedIn16Bit(Value v, std::string &why) {
  return walkDerived({v}, [&](Operation *user, Value cur, bool &follow) {
    if (auto trunc = dyn_cast<arith::TruncFOp>(user);
        trunc && trunc.getType().getIntOrFloatBitWidth() <= 16) {
      follow = false;
      return true;
    }
    bool carries =
        user->getBlock() == v.getParentBlock() && user->getNumResults() > 0 &&
        llvm::all_of(user->getResultTypes(),
                     [](Type t) { return isa<FloatType>(t); }) &&
        (isa<math::MathDialect>(user->getDialect()) ||
         isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::SelectOp,
             arith::TruncFOp, arith::ExtFOp>(user));
    if (!carries)
      why = isa<linalg::YieldOp>(user)
                ? "its result is yielded at " +
                      std::to_string(cast<FloatType>(cur.getType())
                                         .getIntOrFloatBitWidth()) +
                      "-bit precision"
                : "its result reaches " + user->getName().getStringRef().str();
    return carries;
  });
}

/// Whether the approximate tanh's error stays relative to the values
/// computed from `t` (a tanh result) up to their 16-bit rounding: they are
/// only scaled, selected, compared by min/max or converted. An addition
/// may cancel (1 - tanh(x)^2 near tanh = +-1 turns 2^-22 into several bf16
/// ulps); the one addition allowed is 1 + tanh(x) or 1 - tanh(x) as tanh's
/// only use, which the lowering computes as 2 / (1 + exp(-+2x)), exact in
/// relative terms. Otherwise `why` says where it may cancel.
static bool errorStaysRelative(Value t, std::string &why) {
  SmallVector<Value> roots{t};
  if (std::optional<OnePlusMinusTanh> m = matchOnePlusMinusTanh(t))
    roots = {m->user->getResult(0)};
  return walkDerived(roots, [&](Operation *user, Value, bool &follow) {
    if (isa<arith::AddFOp, arith::SubFOp>(user) ||
        (isa<math::MathDialect>(user->getDialect()) &&
         !isa<math::AbsFOp, math::CopySignOp>(user))) {
      why = "its result reaches " + user->getName().getStringRef().str() +
            ", where the approximation's error may not stay relative";
      return false;
    }
    follow = !isa<linalg::YieldOp>(user);
    return true;
  });
}

/// The float constant every element of tensor `t` is filled with, or none.
static std::optional<APFloat> getFillFloat(Value t) {
  if (auto c = dyn_cast_or_null<FloatAttr>(getFillConstant(t)))
    return c.getValue();
  return std::nullopt;
}

/// The maximum reduction whose result `op` reads through input `in` such
/// that, at every iteration point, the arg is the maximum of values that
/// include `v` there: a generic `yield max(w, acc)` over the same loops,
/// `w` the same function of the same inputs as `v`, from an init of -inf
/// or the lowest float, read through its output map. Then v - m <= 0 at
/// every point, and each output element of the reduction has a point where
/// it is 0. Null otherwise.
static linalg::GenericOp getMaximumOf(Value v, linalg::GenericOp op,
                                      OpOperand &in) {
  auto max = in.get().getDefiningOp<linalg::GenericOp>();
  if (!max || max.getNumDpsInits() != 1 ||
      max.getStaticLoopRanges() != op.getStaticLoopRanges() ||
      op.getMatchingIndexingMap(&in) !=
          max.getIndexingMapMatchingResult(cast<OpResult>(in.get())))
    return {};
  Value w = getMaximumValues(max);
  std::optional<APFloat> init = getFillFloat(max.getDpsInits()[0]);
  if (!w || !init || !init->isNegative() ||
      !(init->isInfinity() || init->isLargest()))
    return {};
  auto sameInput = [&](OpOperand &x, OpOperand &y) {
    return x.get() == y.get() &&
           op.getMatchingIndexingMap(&x) == max.getMatchingIndexingMap(&y);
  };
  return isSameBodyValue(v, op, w, max, sameInput) ? max
                                                   : linalg::GenericOp();
}

/// Whether `op`'s output `out`, a sum (`yield x + acc`), is over the
/// points of `max`'s reduction, from a constant init >= 0 (one below 0
/// may cancel the terms). Otherwise `why` says which fails.
static bool sumsOverMaximumPoints(linalg::GenericOp op, OpOperand &out,
                                  linalg::GenericOp max, std::string &why) {
  if (op.getStaticLoopRanges() != max.getStaticLoopRanges() ||
      op.getMatchingIndexingMap(&out) !=
          max.getMatchingIndexingMap(max.getDpsInitOperand(0))) {
    why = "its sum is not over the points of its maximum";
    return false;
  }
  std::optional<APFloat> init = getFillFloat(out.get());
  if (!init || init->isNegative() || init->isNaN()) {
    why = "its sum does not start from a constant >= 0";
    return false;
  }
  return true;
}

/// Whether the f32 exp `e` in `op`'s body may flush results below 2^-126
/// to zero (ex2.approx.ftz): `e` is exp(v - m), m the maximum of v over a
/// reduction's points (getMaximumOf), and all that is computed from it is
/// its sum over those points from a start >= 0, in the sum's body
/// (`yield exp(v - m) + acc`, log-sum-exp as torch-mlir writes it) or in
/// a generic of its own whose result only that sum reads. The sum then has
/// a term of exactly 1, so the flushed terms, each below 2^-126, stay far
/// below half its ulp. Otherwise `why` says why (empty when `e` is not of
/// that form at all).
static bool flushesHarmlessly(math::ExpOp e, linalg::GenericOp op,
                              std::string &why) {
  auto sub = e.getOperand().getDefiningOp<arith::SubFOp>();
  auto m = sub ? dyn_cast<BlockArgument>(sub.getRhs()) : BlockArgument();
  if (!m || m.getOwner() != op.getBody() ||
      m.getArgNumber() >= op.getNumDpsInputs())
    return false;
  linalg::GenericOp max = getMaximumOf(
      sub.getLhs(), op, *op.getDpsInputOperand(m.getArgNumber()));
  if (!max)
    return false;
  if (!e->hasOneUse()) {
    why = "its result has several uses";
    return false;
  }
  Operation *user = *e->getUsers().begin();
  Block *body = op.getBody();
  // exp(v - m) + acc, yielded into the sum's accumulator.
  if (auto add = dyn_cast<arith::AddFOp>(user)) {
    Value other = add.getLhs() == e.getResult() ? add.getRhs() : add.getLhs();
    auto acc = dyn_cast<BlockArgument>(other);
    if (!acc || acc.getOwner() != body || !acc.hasOneUse() ||
        acc.getArgNumber() < op.getNumDpsInputs() || !add->hasOneUse() ||
        !isa<linalg::YieldOp>(*add->getUsers().begin())) {
      why = "its result reaches an addition that is not its sum";
      return false;
    }
    unsigned r = acc.getArgNumber() - op.getNumDpsInputs();
    if (add->getUses().begin()->getOperandNumber() != r) {
      why = "its sum is yielded into another output";
      return false;
    }
    return sumsOverMaximumPoints(op, *op.getDpsInitOperand(r), max, why);
  }
  // Yielded as the result of `op`, which only a sum reads.
  if (!isa<linalg::YieldOp>(user) || op.getNumReductionLoops() != 0) {
    why = "its result reaches " + user->getName().getStringRef().str();
    return false;
  }
  unsigned r = e->getUses().begin()->getOperandNumber();
  OpResult res = op->getResult(r);
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(r)).isPermutation() ||
      !res.hasOneUse()) {
    why = "its values are read by several ops";
    return false;
  }
  OpOperand &use = *res.getUses().begin();
  auto sum = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!sum || !isPlainReduction<arith::AddFOp>(sum) ||
      &use != sum.getDpsInputOperand(0) ||
      sum.getMatchingIndexingMap(&use) !=
          op.getMatchingIndexingMap(op.getDpsInitOperand(r))) {
    why = "its values are read by an op that is not their sum";
    return false;
  }
  return sumsOverMaximumPoints(sum, *sum.getDpsInitOperand(0), max, why);
}

namespace {
struct MemoptApproximateMathPass final
    : memopt::impl::MemoptApproximateMathPassBase<MemoptApproximateMathPass> {
  void runOnOperation() override {
    getOperation().walk([&](math::TanhOp op) {
      if (!op.getType().isF32() ||
          !isa_and_nonnull<linalg::GenericOp>(op->getParentOp()))
        return;
      std::string why;
      if (!onlyObservedIn16Bit(op.getResult(), why) ||
          !errorStaysRelative(op.getResult(), why)) {
        // (Named ops generalized give their body ops unknown locations.)
        Operation *at = isa<UnknownLoc>(op.getLoc()) ? op->getParentOp()
                                                     : op.getOperation();
        at->emitRemark() << "tanh computed to f32 accuracy: " << why;
        return;
      }
      arith::FastMathFlags flags = op.getFastmath();
      op.setFastmath(flags | arith::FastMathFlags::afn);
    });
    // exp(v - max v) whose only use is its sum (log-sum-exp): results
    // below 2^-126 may flush to zero.
    getOperation().walk([&](math::ExpOp op) {
      auto generic = dyn_cast_or_null<linalg::GenericOp>(op->getParentOp());
      if (!op.getType().isF32() || !generic)
        return;
      std::string why;
      if (flushesHarmlessly(op, generic, why)) {
        op.setFastmath(op.getFastmath() | arith::FastMathFlags::afn);
        return;
      }
      if (why.empty())
        return;
      Operation *at = isa<UnknownLoc>(op.getLoc()) ? op->getParentOp()
                                                   : op.getOperation();
      at->emitRemark() << "exp(v - max) keeps results below 2^-126: " << why;
    });
    // Float arithmetic only observed in 16 bits may contract into fused
    // multiply-adds (one rounding instead of two: within an f32 ulp of
    // each other, far below the output's).
    getOperation().walk([&](Operation *op) {
      if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op) ||
          !op->getResult(0).getType().isF32() ||
          !isa_and_nonnull<linalg::GenericOp>(op->getParentOp()))
        return;
      std::string why;
      if (!onlyObservedIn16Bit(op->getResult(0), why))
        return;
      auto contract = [](auto o) {
        o.setFastmath(o.getFastmath() | arith::FastMathFlags::contract);
      };
      if (auto m = dyn_cast<arith::MulFOp>(op))
        contract(m);
      else if (auto a = dyn_cast<arith::AddFOp>(op))
        contract(a);
      else
        contract(cast<arith::SubFOp>(op));
    });
  }
};
} // namespace
