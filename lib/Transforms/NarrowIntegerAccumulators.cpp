//===- NarrowIntegerAccumulators.cpp - integer reductions in i32 -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-narrow-integer-accumulators. Kernel formation
// exchanges partial results between threads in 32 bits, so a reduction
// whose accumulator is another integer type was a naive kernel: torch's
// any/all (an i1 accumulator combined with ori/andi), counts of a mask into
// i64 (bool.sum(), the denominator of a masked mean), sums of i8 into i64.
// A single-output reduction on tensors whose combiner is addi, ori, andi,
// xori, muli, maxsi, minsi, maxui or minui and whose initial value is a
// constant fill accumulates in i32 instead, its result converted back by an
// elementwise op:
//   - narrower accumulators (i1, i8, i16): the combined values and the
//     initial value extended (sign-extended for maxsi/minsi, zero-extended
//     otherwise), the result truncated. Exact: truncation commutes with
//     addition, multiplication and the bitwise ops, and the extension keeps
//     the order the comparisons see;
//   - i64 accumulators combined by addi, maxsi, minsi, maxui or minui,
//     when every combined value is an extension of an integer of 16 bits
//     or fewer and the initial value and (for addi) the initial value plus
//     the reduced extent times the largest magnitude fit in i32: the same
//     value in 32 bits, sign- (zero- for maxui/minui) extended back.
// Anything else keeps its type (a remark says why for i64 accumulators).
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTNARROWINTEGERACCUMULATORSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// What a narrowed reduction needs to know of its combiner.
struct Combiner {
  Operation *op = nullptr;
  /// Extend signed (maxsi, minsi) rather than unsigned.
  bool isSigned = false;
  /// Exact when i64 values of 16 bits are narrowed (no bitwise ops, no
  /// products).
  bool wideOk = false;
  bool isAdd = false;
};
} // namespace

static std::optional<Combiner> getCombiner(Operation *op) {
  Combiner c;
  c.op = op;
  bool ok = llvm::TypeSwitch<Operation *, bool>(op)
                .Case([&](arith::AddIOp) { return c.wideOk = c.isAdd = true; })
                .Case<arith::MaxSIOp, arith::MinSIOp>([&](Operation *) {
                  return c.isSigned = c.wideOk = true;
                })
                .Case<arith::MaxUIOp, arith::MinUIOp>(
                    [&](Operation *) { return c.wideOk = true; })
                .Case<arith::OrIOp, arith::AndIOp, arith::XOrIOp,
                      arith::MulIOp>([](Operation *) { return true; })
                .Default([](Operation *) { return false; });
  if (!ok)
    return std::nullopt;
  return c;
}

/// The largest magnitude `v` (computed in a body) can have when it is an
/// extension of an integer of 16 bits or fewer, or nullopt.
static std::optional<int64_t> getExtendedMagnitude(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<arith::ExtSIOp, arith::ExtUIOp>(def))
    return std::nullopt;
  auto t = dyn_cast<IntegerType>(def->getOperand(0).getType());
  if (!t || t.getWidth() > 16)
    return std::nullopt;
  unsigned w = t.getWidth();
  if (isa<arith::ExtUIOp>(def) || w == 1)
    return (int64_t(1) << w) - 1;
  return int64_t(1) << (w - 1);
}

/// Narrows `g` (see the file comment); false (with `why` for i64
/// accumulators) when it does not apply.
static bool narrow(RewriterBase &rewriter, linalg::GenericOp g,
                   std::string &why) {
  if (!g.hasPureTensorSemantics() || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() == 0)
    return false;
  Block *body = g.getBody();
  BlockArgument acc = body->getArgument(g.getNumDpsInputs());
  auto accType = dyn_cast<IntegerType>(acc.getType());
  if (!accType || accType.getWidth() == 32 || accType.getWidth() > 64)
    return false;
  bool wide = accType.getWidth() > 32;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combOp = yield.getValues()[0].getDefiningOp();
  if (!combOp || combOp->getNumOperands() != 2 || !acc.hasOneUse() ||
      acc.getUses().begin()->getOwner() != combOp)
    return false;
  std::optional<Combiner> comb = getCombiner(combOp);
  if (!comb)
    return false;
  Value v = combOp->getOperand(0) == acc ? combOp->getOperand(1)
                                         : combOp->getOperand(0);
  OpOperand *out = g.getDpsInitOperand(0);
  auto init = dyn_cast_or_null<IntegerAttr>(getFillConstant(out->get()));
  if (!init) {
    if (wide)
      why = "its initial value is not a constant fill";
    return false;
  }
  APInt initValue = init.getValue();
  bool unsignedCmp = isa<arith::MaxUIOp, arith::MinUIOp>(comb->op);
  int64_t initNarrow = 0;
  if (!wide)
    initNarrow = comb->isSigned ? initValue.sext(32).getSExtValue()
                                : (int64_t)initValue.zext(32).getZExtValue();
  else if (unsignedCmp ? initValue.isIntN(31) : initValue.isSignedIntN(32))
    initNarrow = unsignedCmp ? (int64_t)initValue.getZExtValue()
                             : initValue.getSExtValue();
  else {
    why = "its initial value does not fit in 32 bits";
    return false;
  }
  if (wide) {
    std::optional<int64_t> mag = getExtendedMagnitude(v);
    if (!comb->wideOk || !mag) {
      why = "its values are not extensions of integers of 16 bits or fewer "
            "combined by a sum, a maximum or a minimum";
      return false;
    }
    int64_t extent = 1;
    for (auto [r, it] : llvm::zip(g.getStaticLoopRanges(),
                                  g.getIteratorTypesArray()))
      if (it == utils::IteratorType::reduction)
        extent = r <= 0 || extent > INT32_MAX / r ? INT64_MAX : extent * r;
    int64_t lim = std::numeric_limits<int32_t>::max();
    bool fits = (!comb->isAdd ||
                 (extent < lim && *mag < lim / std::max<int64_t>(1, extent) &&
                  std::abs(initNarrow) + extent * *mag < lim));
    if (!fits) {
      why = "its sum could overflow 32 bits";
      return false;
    }
  }
  Location loc = g.getLoc();
  Type i32 = rewriter.getI32Type();
  auto outType = cast<RankedTensorType>(out->get().getType());
  rewriter.setInsertionPoint(g);
  Value empty = tensor::EmptyOp::create(rewriter, loc, outType.getShape(), i32);
  Value fill = createFillGeneric(
      rewriter, loc,
      arith::ConstantOp::create(rewriter, loc, i32,
                                rewriter.getI32IntegerAttr(initNarrow)),
      empty);
  // (Narrow values: sign-extended for the signed comparisons.)
  auto extend = [&](OpBuilder &b, Location l, Value x) -> Value {
    if (comb->isSigned)
      return arith::ExtSIOp::create(b, l, i32, x);
    return arith::ExtUIOp::create(b, l, i32, x);
  };
  auto narrowed = linalg::GenericOp::create(
      rewriter, loc, TypeRange{fill.getType()}, g.getDpsInputs(),
      ValueRange{fill}, g.getIndexingMapsArray(), g.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping map;
        for (unsigned i = 0, e = g.getNumDpsInputs(); i < e; ++i)
          map.map(body->getArgument(i), args[i]);
        for (Operation &op : body->without_terminator()) {
          if (&op == combOp)
            continue;
          b.clone(op, map);
        }
        Value x = map.lookupOrDefault(v);
        // A wide value is an extension of a narrow one: the same extension
        // of it to i32.
        if (Operation *ext = wide ? x.getDefiningOp() : nullptr)
          x = isa<arith::ExtUIOp>(ext)
                  ? (Value)arith::ExtUIOp::create(b, l, i32, ext->getOperand(0))
                  : (Value)arith::ExtSIOp::create(b, l, i32,
                                                  ext->getOperand(0));
        else
          x = extend(b, l, x);
        OperationState st(l, combOp->getName(), ValueRange{args.back(), x},
                          TypeRange{i32}, combOp->getAttrs());
        Value r = b.create(st)->getResult(0);
        linalg::YieldOp::create(b, l, r);
      });
  Value back = createElementwiseGeneric(
      rewriter, loc, narrowed.getResult(0), accType,
      [&](OpBuilder &b, Location l, Value x) -> Value {
        if (!wide)
          return arith::TruncIOp::create(b, l, accType, x);
        if (unsignedCmp)
          return arith::ExtUIOp::create(b, l, accType, x);
        return arith::ExtSIOp::create(b, l, accType, x);
      });
  narrowed->emitRemark("reduction accumulated in i32, its ")
      << accType << " result " << (wide ? "extended" : "truncated")
      << " after it (exact): kernels exchange partials in 32 bits";
  Operation *oldInit = out->get().getDefiningOp();
  rewriter.replaceOp(g, back);
  // The old fill (and its empty tensor) would be bufferized and run.
  while (oldInit && oldInit->use_empty() && isPure(oldInit)) {
    Operation *next = oldInit->getNumOperands()
                          ? oldInit->getOperands().back().getDefiningOp()
                          : nullptr;
    rewriter.eraseOp(oldInit);
    oldInit = next;
  }
  return true;
}

namespace {
struct MemoptNarrowIntegerAccumulatorsPass
    : public memopt::impl::MemoptNarrowIntegerAccumulatorsPassBase<
          MemoptNarrowIntegerAccumulatorsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp g) { generics.push_back(g); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp g : generics) {
      std::string why;
      if (!narrow(rewriter, g, why) && !why.empty())
        g.emitRemark("i64 reduction not accumulated in i32: ") << why;
    }
  }
};
} // namespace
