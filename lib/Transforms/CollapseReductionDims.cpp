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
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

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

namespace {
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
      rewriter.setInsertionPoint(g);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(g, runs, rewriter);
      if (failed(collapsed)) {
        g.emitRemark("reduction dims not collapsed: the rewrite failed");
        continue;
      }
      rewriter.replaceOp(g, collapsed->results);
    }
  }
};
} // namespace
