//===- StageReductions.cpp - one reduced loop per reduction -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-stage-reductions: a linalg.generic on tensors
// that reduces over several loops which no reshape makes adjacent (batch-norm
// statistics of NCHW over N, H and W; a sum over the first and last dims)
// becomes a chain of reductions over one loop each. The first reduces the
// loop of largest extent into a partial indexed by every other loop (so
// the partial is the smallest one a single loop gives), through the op's
// own body; the next combines the partial over the remaining loops into
// the original output, and is staged again while it has several. Each
// stage is then a row reduction (its loop innermost) or a reduction with
// parallel loops inside it, which kernel formation has strategies for.
// The combiner must be associative and commutative (the reassociation is
// the one any parallel reduction makes); a remark says what was staged
// and how large the partial is.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/Grouping.h"
#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTSTAGEREDUCTIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// The reduction loops of `g` when they are not one run of adjacent loops.
static SmallVector<unsigned> getScatteredReductions(linalg::GenericOp g) {
  SmallVector<unsigned> red;
  for (auto [i, it] : llvm::enumerate(g.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      red.push_back(i);
  if (red.size() < 2 || red.back() - red.front() + 1 == red.size())
    return {};
  return red;
}

/// Stages `g` once: reduces its loop `first` into a partial, then the
/// partial over the other reduced loops into `g`'s output. Returns the
/// second stage.
static linalg::GenericOp stageOnce(RewriterBase &rewriter, linalg::GenericOp g,
                                   unsigned first, arith::AtomicRMWKind kind) {
  Location loc = g.getLoc();
  MLIRContext *ctx = g.getContext();
  SmallVector<int64_t> ranges = g.getStaticLoopRanges();
  unsigned n = ranges.size();
  OpOperand &out = g.getDpsInitsMutable()[0];
  Type elt = cast<RankedTensorType>(out.get().getType()).getElementType();
  rewriter.setInsertionPoint(g);
  // Stage 1: the op's loops, only `first` reduced; the partial is indexed
  // by every other loop.
  LoopPartial partial = getLoopPartial(g, first);
  Value identity = arith::getIdentityValue(kind, elt, rewriter, loc);
  Value init = createFillGeneric(
      rewriter, loc, identity,
      tensor::EmptyOp::create(rewriter, loc, partial.shape, elt));
  SmallVector<AffineMap> maps1 = g.getIndexingMapsArray();
  maps1.back() = partial.map;
  SmallVector<utils::IteratorType> iters1(n, utils::IteratorType::parallel);
  iters1[first] = utils::IteratorType::reduction;
  auto stage1 = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, g.getDpsInputs(),
      ValueRange{init}, maps1, iters1);
  rewriter.cloneRegionBefore(g.getRegion(), stage1.getRegion(),
                             stage1.getRegion().begin());
  // Stage 2: the partial's loops (`first` dropped), combined into the
  // output through the combiner alone.
  SmallVector<AffineMap> maps2 = {
      AffineMap::getMultiDimIdentityMap(n - 1, ctx),
      partial.dropLoop(g.getMatchingIndexingMap(&out))};
  auto stage2 = linalg::GenericOp::create(
      rewriter, loc, g.getResultTypes(), ValueRange{stage1.getResult(0)},
      ValueRange{out.get()}, maps2, partial.restIterators,
      getCombinerBodyBuilder(g));
  rewriter.replaceOp(g, stage2.getResults());
  return stage2;
}

/// Moves the last stage of a staged reduction down to just before its
/// first user, so that the first stages of reductions of the same input
/// (a sum and a sum of squares) stay adjacent and kernel formation fuses
/// them into one pass over it; its init, when a fill, gets its own copy
/// just before it, so the reduction can seed its result with the fill.
static void placeLastStage(RewriterBase &rewriter, linalg::GenericOp g) {
  sinkToFirstUser(g);
  OpOperand &init = g.getDpsInitsMutable()[0];
  auto fill = init.get().getDefiningOp<linalg::GenericOp>();
  if (!fill || fill->getBlock() != g->getBlock() || !kf::getFillValue(fill))
    return;
  rewriter.setInsertionPoint(g);
  Operation *copy = rewriter.clone(*fill);
  init.set(copy->getResult(0));
  if (fill->use_empty())
    rewriter.eraseOp(fill);
}

namespace {
struct MemoptStageReductionsPass
    : public memopt::impl::MemoptStageReductionsPassBase<
          MemoptStageReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> work;
    getOperation().walk([&](linalg::GenericOp g) {
      if (g.hasPureTensorSemantics() && !getScatteredReductions(g).empty())
        work.push_back(g);
    });
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> lastStages;
    while (!work.empty()) {
      linalg::GenericOp g = work.pop_back_val();
      SmallVector<unsigned> red = getScatteredReductions(g);
      if (red.empty())
        continue;
      std::string why;
      FailureOr<arith::AtomicRMWKind> kind = kf::matchCombiner(g, why);
      SmallVector<int64_t> ranges = g.getStaticLoopRanges();
      // The output must be indexed by parallel loops alone.
      AffineMap outMap = g.getMatchingIndexingMap(g.getDpsInitOperand(0));
      bool byParallelDims = llvm::all_of(outMap.getResults(), [&](AffineExpr e) {
        auto d = dyn_cast<AffineDimExpr>(e);
        return d && !llvm::is_contained(red, d.getPosition());
      });
      if (failed(kind) || ShapedType::isDynamicShape(ranges) ||
          !byParallelDims) {
        g.emitRemark("reduction over non-adjacent loops not staged: ")
            << (failed(kind)            ? why
                : !byParallelDims       ? std::string("the output is not "
                                                      "indexed by parallel "
                                                      "loops alone")
                                        : std::string("dynamic loop ranges"));
        continue;
      }
      unsigned first = red.front();
      for (unsigned d : red)
        if (ranges[d] > ranges[first])
          first = d;
      int64_t partial = 1;
      for (auto [i, r] : llvm::enumerate(ranges))
        if (i != first)
          partial *= r;
      g.emitRemark("reduction over non-adjacent loops staged: loop ")
          << first << " (extent " << ranges[first]
          << ") first, into a partial of " << partial
          << " values, then the other reduced loops";
      linalg::GenericOp next = stageOnce(rewriter, g, first, *kind);
      llvm::erase(lastStages, g);
      lastStages.push_back(next);
      work.push_back(next);
    }
    for (linalg::GenericOp g : lastStages)
      placeLastStage(rewriter, g);
  }
};
} // namespace
