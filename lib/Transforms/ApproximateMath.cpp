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
// one rounding instead of two, within an f32 ulp of each other).
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

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
