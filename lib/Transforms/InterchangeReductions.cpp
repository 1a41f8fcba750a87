//===- InterchangeReductions.cpp - reductions in their input's order -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-interchange-reductions. Frontends write a
// contraction's reduced loop innermost whatever the layout: p . V in decode
// attention (batch_matmul [b, m, n, k] with V indexed (b, k, n), or
// generics over [h, d, t] reading V[h, t, d]) reduces over the tokens t
// while V is contiguous along the head dim d, a parallel loop. Kernel
// formation takes an op's loop order as its walk order, so such a reduction
// became a row kernel walking V across its rows (rows side by side, one
// element per load). Reordered to its largest input's layout ([h, t, d]:
// outer parallel, reduced, inner parallel) it is a column reduction: threads
// along d with 16-byte loads, blocks splitting t.
//
// A linalg.generic on tensors with a reduced loop whose largest input is
// read through a projected permutation iterates in that input's order
// (loops the input does not index outermost, in their order), provided
// every output is then still written in its own layout order (upstream
// linalg::interchangeGenericOp). That makes the contraction above a column
// reduction, and a reduction written with its loops out of layout order
// (IREE dispatches' [reduction, parallel] row max reading x as (d1, d0), a
// sum over dims 0 and 2 iterated as [d1, d0, d2]) the row or column form
// its input has in memory. A parallel loop moving past a reduced one
// reassociates nothing; reduced loops exchanged with each other sum in
// another order (the optimizing pipeline only runs this pass). An
// interchange into a column form whose largest input has other readers (a
// normalization's read-back, which memopt-interchange-normalizations
// handles as a run) keeps the program's order, with a remark.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTINTERCHANGEREDUCTIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Bytes of a statically shaped tensor, or 0.
static int64_t getStaticBytes(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt || !rt.hasStaticShape() || !rt.getElementType().isIntOrFloat())
    return 0;
  return rt.getNumElements() *
         std::max<int64_t>(1, rt.getElementTypeBitWidth() / 8);
}

/// The loop order that walks `g`'s largest input in its layout, or empty
/// when `g` already does or should not be reordered (`why` says why when
/// the reorder was wanted but is not legal or not worth it).
static SmallVector<unsigned> getLayoutOrder(linalg::GenericOp g,
                                            std::string &why) {
  unsigned n = g.getNumLoops();
  if (!g.hasPureTensorSemantics() || n < 2 || g.getNumReductionLoops() == 0)
    return {};
  SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
  OpOperand *largest = nullptr;
  int64_t bytes = 0;
  for (OpOperand *in : g.getDpsInputOperands()) {
    int64_t b = getStaticBytes(in->get().getType());
    if (b > bytes) {
      bytes = b;
      largest = in;
    }
  }
  if (!largest)
    return {};
  AffineMap m = g.getMatchingIndexingMap(largest);
  if (!m.isProjectedPermutation() || m.getNumResults() == 0)
    return {};
  unsigned last = m.getDimPosition(m.getNumResults() - 1);
  SmallVector<unsigned> order;
  llvm::SmallBitVector indexed(n);
  for (unsigned r = 0; r < m.getNumResults(); ++r)
    indexed.set(m.getDimPosition(r));
  for (unsigned d = 0; d < n; ++d)
    if (!indexed.test(d))
      order.push_back(d);
  for (unsigned r = 0; r < m.getNumResults(); ++r)
    order.push_back(m.getDimPosition(r));
  bool toColumn = iters[last] == utils::IteratorType::parallel;
  // A row form (the reduced loops a trailing run of that order) reads each
  // row contiguously whatever order its rows come in: the parallel loops
  // then follow the output's layout (a row sum written transposed, out[c,
  // n] = sum_k x[n, c, k], is a row kernel storing in order). Parallel
  // loops only: nothing reassociates.
  unsigned numReduced = g.getNumReductionLoops();
  bool trailing = llvm::all_of(
      ArrayRef<unsigned>(order).take_back(numReduced),
      [&](unsigned d) { return iters[d] == utils::IteratorType::reduction; });
  if (!toColumn && trailing && g.getNumDpsInits() >= 1) {
    AffineMap om = g.getMatchingIndexingMap(g.getDpsInitOperand(0));
    if (om.isProjectedPermutation() && om.getNumResults() == n - numReduced &&
        llvm::all_of(om.getResults(), [&](AffineExpr e) {
          return iters[cast<AffineDimExpr>(e).getPosition()] ==
                 utils::IteratorType::parallel;
        })) {
      SmallVector<unsigned> byOutput;
      for (unsigned r = 0; r < om.getNumResults(); ++r)
        byOutput.push_back(om.getDimPosition(r));
      llvm::append_range(byOutput,
                         ArrayRef<unsigned>(order).take_back(numReduced));
      order = byOutput;
    }
  }
  if (llvm::equal(order, llvm::seq<unsigned>(0, n)))
    return {};
  // From here the program walks its largest input across its contiguous
  // dim: say why when that stays. A row reduction turned into a column one
  // needs the input to itself (a run that reads it back keeps one order);
  // one turned into a row reduction (IREE's [reduction, parallel] row max
  // reading x as (d1, d0)) then walks it as its readers do.
  if (toColumn &&
      !llvm::all_of(largest->get().getUsers(),
                    [&](Operation *u) { return u == g.getOperation(); })) {
    why = "its largest input is read by other ops too (a run that reads "
          "it back keeps one order)";
    return {};
  }
  SmallVector<unsigned> newPos(n);
  for (auto [p, d] : llvm::enumerate(order))
    newPos[d] = p;
  for (OpOperand &out : g.getDpsInitsMutable()) {
    AffineMap om = g.getMatchingIndexingMap(&out);
    if (!om.isProjectedPermutation()) {
      why = "an output is not written through a projected permutation";
      return {};
    }
    for (unsigned r = 1; r < om.getNumResults(); ++r)
      if (newPos[om.getDimPosition(r - 1)] > newPos[om.getDimPosition(r)]) {
        why = "an output would then be written across its layout";
        return {};
      }
  }
  return order;
}

/// Whether `m` reads its dims in loop order (a projected permutation whose
/// results' dims increase).
static bool isInLoopOrder(AffineMap m) {
  return m.isProjectedPermutation() &&
         llvm::is_sorted(llvm::map_range(m.getResults(), [](AffineExpr e) {
           return cast<AffineDimExpr>(e).getPosition();
         }));
}

namespace {
struct MemoptInterchangeReductionsPass
    : public memopt::impl::MemoptInterchangeReductionsPassBase<
          MemoptInterchangeReductionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp g) { ops.push_back(g); });
    for (linalg::GenericOp g : ops) {
      std::string why;
      SmallVector<unsigned> order = getLayoutOrder(g, why);
      if (order.empty()) {
        if (!why.empty())
          g.emitRemark("reduction keeps its loop order, walking its largest "
                       "input across its contiguous dim: ")
              << why;
        continue;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleaveComma(order, os, [&](unsigned d) { os << "d" << d; });
      rewriter.setInsertionPoint(g);
      FailureOr<linalg::GenericOp> done =
          linalg::interchangeGenericOp(rewriter, g, order);
      if (failed(done)) {
        g.emitRemark("reduction keeps its loop order: the interchange "
                     "failed");
        continue;
      }
      bool row = done->getIteratorTypesArray().back() ==
                 utils::IteratorType::reduction;
      done->emitRemark("loops interchanged to (")
          << text << "), its largest input's layout order"
          << (llvm::all_of(done->getIndexingMapsArray(), isInLoopOrder)
                  ? ""
                  : " along its rows, its output's across them")
          << (row ? ": the reduced loop now innermost (a row reduction)"
                  : ": the reduced loop now outside the contiguous parallel "
                    "loop (a column reduction)");
    }
  }
};
} // namespace
