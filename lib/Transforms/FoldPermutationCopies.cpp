//===- FoldPermutationCopies.cpp - transposed copies read in place -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-fold-permutation-copies. Frontends write a
// transposed operand as a copy: torch-mlir's q @ k.transpose(-1, -2) is a
// linalg.transpose of K into a new tensor, then a batch_matmul that reads
// the copy with its reduced loop along the copy's second dim. Materialized,
// the copy costs a write and a read of K, and its reader walks it across
// its rows. Read in place, the reader indexes K through the composed map,
// and its innermost loop runs along K's contiguous dim. So a copy through a
// permutation (a generic yielding its input, identity output map) is
// folded into each linalg.generic that reads it as an input when, after
// the fold, that reader's innermost loop walks the source's contiguous dim
// or does not index the source at all; a reader that would walk the source
// across its contiguous dim keeps the copy (the tile-transpose family
// stages it through shared memory), with a remark. Exact: the same values,
// read from where the copy took them.
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTFOLDPERMUTATIONCOPIESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Whether `g` copies its one tensor input through a permutation: all loops
/// parallel, the output written through the identity, the body yielding
/// the input's element unchanged.
static bool isPermutationCopy(linalg::GenericOp g) {
  if (!g.hasPureTensorSemantics() || g.getNumDpsInputs() != 1 ||
      g.getNumDpsInits() != 1 || g.getNumReductionLoops() != 0)
    return false;
  OpOperand *in = g.getDpsInputOperand(0);
  auto inType = dyn_cast<RankedTensorType>(in->get().getType());
  auto outType = dyn_cast<RankedTensorType>(g.getResult(0).getType());
  if (!inType || !outType ||
      inType.getElementType() != outType.getElementType())
    return false;
  if (!g.getMatchingIndexingMap(in).isPermutation() ||
      !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
    return false;
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  return g.getBody()->getOperations().size() == 1 &&
         yield.getValues()[0] == g.getBody()->getArgument(0);
}

/// Why `use` (an operand of `reader` that `copy` produces) keeps the copy,
/// or empty when the copy's source can be read in its place.
static std::string whyKept(linalg::GenericOp copy, OpOperand &use,
                           linalg::GenericOp reader) {
  if (!reader.hasPureTensorSemantics() || !reader.isDpsInput(&use))
    return "a reader writes into it";
  AffineMap useMap = reader.getMatchingIndexingMap(&use);
  if (!useMap.isProjectedPermutation() ||
      useMap.getNumResults() != copy.getNumLoops())
    return "a reader does not read it through a projected permutation";
  AffineMap composed =
      copy.getMatchingIndexingMap(copy.getDpsInputOperand(0)).compose(useMap);
  unsigned innermost = reader.getNumLoops() - 1;
  if (!composed.isFunctionOfDim(innermost))
    return "";
  auto last = dyn_cast<AffineDimExpr>(composed.getResults().back());
  if (last && last.getPosition() == innermost)
    return "";
  return "a reader's innermost loop would walk the source across its "
         "contiguous dim";
}

namespace {
struct MemoptFoldPermutationCopiesPass
    : public memopt::impl::MemoptFoldPermutationCopiesPassBase<
          MemoptFoldPermutationCopiesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // A copy viewed through a collapse_shape (attention's
    // o.transpose(1, 2).reshape(B, T, H * D)) is read by the collapse, not
    // by a generic: the generics reading the collapse iterate over the
    // uncollapsed dims instead (upstream's fusion of a reshape by
    // expansion), so that they read the copy itself and the fold below
    // applies to them.
    RewritePatternSet patterns(&getContext());
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *operand) {
          auto c = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
          auto copy = c ? c.getSrc().getDefiningOp<linalg::GenericOp>()
                        : linalg::GenericOp();
          return copy && isPermutationCopy(copy) &&
                 isa<linalg::GenericOp>(operand->getOwner());
        });
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    // One fold at a time: a fold replaces its reader, which may read the
    // copy twice or be a copy itself.
    while (foldOne(rewriter)) {
    }
    getOperation().walk([&](linalg::GenericOp copy) {
      if (!isPermutationCopy(copy))
        return;
      for (OpOperand &use : copy.getResult(0).getUses()) {
        auto reader = dyn_cast<linalg::GenericOp>(use.getOwner());
        std::string why = reader ? whyKept(copy, use, reader)
                                 : "it is not read by a linalg.generic";
        if (!why.empty()) {
          copy.emitRemark("permuted copy materialized: ") << why;
          return;
        }
      }
    });
  }

  /// Folds one copy into one reader; false when none is left to fold.
  bool foldOne(IRRewriter &rewriter) {
    linalg::GenericOp copy, reader;
    OpOperand *operand = nullptr;
    getOperation().walk([&](linalg::GenericOp g) {
      if (!isPermutationCopy(g))
        return WalkResult::advance();
      for (OpOperand &use : g.getResult(0).getUses()) {
        auto r = dyn_cast<linalg::GenericOp>(use.getOwner());
        if (r && whyKept(g, use, r).empty()) {
          copy = g;
          reader = r;
          operand = &use;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (!copy)
      return false;
    reader.emitRemark("input ")
        << operand->getOperandNumber()
        << " read in place of its permuted copy (the copy's source "
           "through the composed map: no copy written)";
    inlineProducer(rewriter, reader, *operand, copy);
    if (copy->use_empty())
      rewriter.eraseOp(copy);
    return true;
  }
};
} // namespace
