//===- CollapseReductionDims.cpp - adjacent reduced dims as one -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-collapse-reduction-dims: a linalg.generic on
// tensors that reduces over several adjacent loop dims which every operand
// indexes contiguously (a sum over the two inner dims of a 3-D tensor, the
// statistics of a group norm over (C/G, H, W), batch-norm statistics of an
// NHWC tensor over N, H, W) reduces over one collapsed dim instead, its
// operands reshaped by tensor.collapse_shape (upstream
// linalg::collapseOpIterationDims). Kernel formation then sees the row
// ([parallel..., reduction]) or column ([reduction, parallel...]) form the
// reduction has in memory.
//
// The generics around such a reduction then collapse the same dims: one
// reading the result of a reshape this pass made, producing its source,
// or (all-parallel) reading a tensor that one of its collapse_shapes also
// reads (the normalization of an instance norm over (H, W), of a LayerNorm
// over the last two dims, of a group norm over (C/G, H, W)) iterates over
// the collapsed dims, and so on through the reshapes that makes. The
// statistics and their epilogue then share one row space (they were two
// kernels, the second re-reading the input). Reshapes the frontend wrote
// are not followed.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTCOLLAPSEREDUCTIONDIMSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Maximal runs (length >= 2) of adjacent reduction loops of `g` that every
/// indexing map keeps adjacent and in order; remarks on runs that are not.
static SmallVector<ReassociationIndices> collapsibleRuns(linalg::GenericOp g) {
  SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  SmallVector<ReassociationIndices> runs;
  // Upstream's dim-sequence check and collapse read every map result as a
  // dim: maps with offsets, strides or constants (folded slices) stay.
  if (!llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); })) {
    g.emitRemark("reduction dims not collapsed: an operand is read through "
                 "offsets, strides or constant indices (a folded slice)");
    return runs;
  }
  for (int64_t d = 0, e = iters.size(); d < e;) {
    if (iters[d] != utils::IteratorType::reduction) {
      ++d;
      continue;
    }
    ReassociationIndices run;
    while (d < e && iters[d] == utils::IteratorType::reduction)
      run.push_back(d++);
    if (run.size() < 2)
      continue;
    if (linalg::areDimSequencesPreserved(maps, {run}))
      runs.push_back(run);
    else
      g.emitRemark("reduction dims ")
          << run.front() << " to " << run.back()
          << " not collapsed into one: an operand does not index them "
             "contiguously and in order";
  }
  return runs;
}

/// Whether `g` is a tensor generic whose every map is a projected
/// permutation (what upstream's collapse reads correctly).
static bool hasPermutationMaps(linalg::GenericOp g) {
  return g.hasPureTensorSemantics() &&
         llvm::all_of(g.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isProjectedPermutation(); });
}

/// Marks the reshapes this pass creates around a collapsed generic (the
/// collapse_shapes of its operands, the expand_shapes of its results): the
/// generics around them follow these, never a frontend's own reshapes.
static constexpr StringLiteral kCollapsedMark = "memopt.collapsed_dims";

static void markReshapes(linalg::LinalgOp g, RewriterBase &rewriter) {
  for (Value v : g->getOperands())
    if (auto c = v.getDefiningOp<tensor::CollapseShapeOp>())
      c->setAttr(kCollapsedMark, rewriter.getUnitAttr());
  for (Value r : g->getResults())
    for (Operation *u : r.getUsers())
      if (isa<tensor::ExpandShapeOp>(u))
        u->setAttr(kCollapsedMark, rewriter.getUnitAttr());
}

/// Collapses `runs` of `g`'s loops (upstream linalg::collapseOpIterationDims)
/// and marks the reshapes made.
static LogicalResult collapseRuns(linalg::GenericOp g,
                                  ArrayRef<ReassociationIndices> runs,
                                  RewriterBase &rewriter) {
  rewriter.setInsertionPoint(g);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(g, runs, rewriter);
  if (failed(collapsed))
    return failure();
  linalg::LinalgOp newOp = collapsed->collapsedOp;
  rewriter.replaceOp(g, collapsed->results);
  markReshapes(newOp, rewriter);
  return success();
}

/// Collapses `g`'s loops that walk each band (two or more dims) of
/// `reassoc` in an operand indexed through `m`, when they are consecutive
/// loops of one iterator type that every operand keeps adjacent and in
/// order.
static LogicalResult collapseAlong(linalg::GenericOp g, AffineMap m,
                                   ArrayRef<ReassociationIndices> reassoc,
                                   RewriterBase &rewriter) {
  auto iters = g.getIteratorTypesArray();
  SmallVector<ReassociationIndices> runs;
  for (const ReassociationIndices &band : reassoc) {
    if (band.size() < 2)
      continue;
    ReassociationIndices run;
    for (int64_t t : band)
      run.push_back(m.getDimPosition(t));
    for (size_t i = 1; i < run.size(); ++i)
      if (run[i] != run[i - 1] + 1 || iters[run[i]] != iters[run[0]])
        return failure();
    runs.push_back(run);
  }
  if (runs.empty() ||
      !linalg::areDimSequencesPreserved(g.getIndexingMapsArray(), runs))
    return failure();
  return collapseRuns(g, runs, rewriter);
}

namespace {
/// A generic next to a reshape of this pass follows it: one reading a
/// marked expand_shape's result, producing a marked collapse_shape's
/// source, or (all-parallel) reading a tensor that a marked collapse_shape
/// also reads collapses its loops along each collapsed band.
struct FollowCollapsedDims : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    if (g.getNumLoops() < 2 || !hasPermutationMaps(g))
      return failure();
    bool parallel = g.getNumReductionLoops() == 0;
    for (OpOperand *in : g.getDpsInputOperands()) {
      AffineMap m = g.getMatchingIndexingMap(in);
      if (auto e = in->get().getDefiningOp<tensor::ExpandShapeOp>();
          e && e->hasAttr(kCollapsedMark) &&
          succeeded(collapseAlong(g, m, e.getReassociationIndices(), rewriter)))
        return success();
      if (!parallel)
        continue;
      for (Operation *user : in->get().getUsers()) {
        auto c = dyn_cast<tensor::CollapseShapeOp>(user);
        if (c && c->hasAttr(kCollapsedMark) &&
            succeeded(
                collapseAlong(g, m, c.getReassociationIndices(), rewriter)))
          return success();
      }
    }
    for (OpResult r : g->getResults())
      for (Operation *user : r.getUsers()) {
        auto c = dyn_cast<tensor::CollapseShapeOp>(user);
        if (c && c->hasAttr(kCollapsedMark) &&
            succeeded(collapseAlong(g, g.getIndexingMapMatchingResult(r),
                                    c.getReassociationIndices(), rewriter)))
          return success();
      }
    return failure();
  }
};

struct MemoptCollapseReductionDimsPass
    : public memopt::impl::MemoptCollapseReductionDimsPassBase<
          MemoptCollapseReductionDimsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp g) {
      if (g.hasPureTensorSemantics() && g.getNumReductionLoops() >= 2)
        generics.push_back(g);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp g : generics) {
      SmallVector<ReassociationIndices> runs = collapsibleRuns(g);
      if (runs.empty())
        continue;
      if (failed(collapseRuns(g, runs, rewriter)))
        g.emitRemark("reduction dims not collapsed: the rewrite failed");
    }
    // The generics around them, through the reshapes made.
    RewritePatternSet patterns(&getContext());
    patterns.add<FollowCollapsedDims>(&getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns,
                                                       &getContext());
    // (Reshaped empty destinations as empty tensors of the new shape.)
    tensor::populateFoldTensorEmptyPatterns(patterns);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    getOperation().walk([](Operation *op) { op->removeAttr(kCollapsedMark); });
  }
};
} // namespace
