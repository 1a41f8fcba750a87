//===- RecomputeProducers.cpp - producers recomputed in reductions -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-recompute-producers: a reduction whose reduced
// loop is not the innermost (a column reduction, a softmax over dim 0's sum
// of exponentials) is a kernel of its own, so an elementwise producer of one
// of its inputs would be written to memory and read back. When the producer
// is cheap to recompute and reads no more full-size data than its result
// (exp(x - max[j]) reads x and a row of maxima), or the reduction is its
// only user (dy * xhat for dgamma), its body is inlined into the reduction
// instead: the reduction reads the producer's inputs. The
// producer stays for its other users (where kernel formation fuses it into
// their kernels) and goes when it has none. Values are the same: the same
// ops in the same types.
//
// Any other consumer does the same with a broadcast producer: an
// elementwise op over fewer loops than the consumer, its innermost among
// them, read through a projected permutation (Gemma's (1 + w) over the
// hidden dim, a bias widened to f32), whose body is arithmetic only. Kernel formation cannot
// put an op of another iteration space into the consumer's group, so the
// producer would be a kernel of its own and its result a buffer; recomputed,
// it costs a few arithmetic ops per element and the consumer reads the
// producer's (as small) inputs.
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTRECOMPUTEPRODUCERSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Ops of a body worth recomputing rather than storing and loading.
static constexpr unsigned kMaxRecomputedOps = 16;

/// Whether `g` is a reduction that kernel formation cannot fuse with its
/// producers: a reduced loop with a parallel loop inside it.
static bool isColumnLike(linalg::GenericOp g) {
  auto iters = g.getIteratorTypesArray();
  return g.getNumReductionLoops() > 0 &&
         iters.back() == utils::IteratorType::parallel;
}

/// Why `p` (producing operand `use` of `g`) is not recomputed, or empty.
static std::string whyNotRecomputed(linalg::GenericOp p, OpOperand &use,
                                    linalg::GenericOp g) {
  if (!p || p->getBlock() != g->getBlock())
    return "not a linalg.generic before it";
  if (p.getNumDpsInits() != 1 || p.getNumReductionLoops() != 0 ||
      !p.getMatchingIndexingMap(p.getDpsInitOperand(0)).isIdentity())
    return "not a single-result elementwise op";
  Block *body = p.getBody();
  unsigned ops = 0;
  for (Operation &op : body->without_terminator()) {
    if (isa<linalg::IndexOp>(op) || op.getNumRegions() != 0)
      return "its body has loop indices or regions";
    ++ops;
  }
  if (ops > kMaxRecomputedOps)
    return "its body has more than " + std::to_string(kMaxRecomputedOps) +
           " ops";
  if (body->getArgument(p.getNumDpsInputs()).use_empty() == false)
    return "its body reads its output";
  AffineMap useMap = g.getMatchingIndexingMap(&use);
  if (!useMap.isProjectedPermutation() ||
      useMap.getNumResults() != p.getNumLoops())
    return "the reduction does not read it through a permutation";
  // Full-size inputs (indexed by every loop) are what recomputation reads
  // in place of the result: at most one, no wider than the result.
  auto resultType = cast<ShapedType>(p.getResult(0).getType());
  unsigned full = 0;
  for (OpOperand *in : p.getDpsInputOperands()) {
    auto t = dyn_cast<ShapedType>(in->get().getType());
    if (!t)
      continue;
    AffineMap m = p.getMatchingIndexingMap(in);
    if (!m.isProjectedPermutation())
      return "an input is not read through a projected permutation";
    if (m.getNumResults() == p.getNumLoops()) {
      ++full;
      if (t.getElementTypeBitWidth() > resultType.getElementTypeBitWidth())
        return "a full-size input is wider than the result";
    }
  }
  // Every loop of the reduction must stay determined by an operand's shape
  // (the sum over rows of a row broadcast along them would read none).
  SmallVector<AffineMap> maps;
  for (OpOperand *in : g.getDpsInputOperands())
    if (in != &use)
      maps.push_back(g.getMatchingIndexingMap(in));
  for (OpOperand *in : p.getDpsInputOperands())
    maps.push_back(p.getMatchingIndexingMap(in).compose(useMap));
  for (OpOperand &out : g.getDpsInitsMutable())
    maps.push_back(g.getMatchingIndexingMap(&out));
  if (!inversePermutation(concatAffineMaps(maps, g.getContext())))
    return "no operand of the recomputed reduction would span every loop "
           "(a broadcast along the reduced dim)";
  // Several full-size inputs read more than the result: still fewer bytes
  // when the reduction is the producer's only user (its write and the
  // reduction's read of the result go, its reads move into the reduction).
  if (full > 1 && !p->hasOneUse())
    return "it reads more full-size data than it writes and has other users";
  return "";
}

/// Whether `use` of `g` reads the result of an all-parallel op over fewer
/// loops than `g`, including its innermost one (a table along the rows,
/// broadcast over outer dims). Per-row values (not indexed by the innermost
/// loop) are left alone: kernel formation computes them in the row kernel.
static bool isBroadcastUse(linalg::GenericOp p, OpOperand &use,
                           linalg::GenericOp g) {
  AffineMap map = g.getMatchingIndexingMap(&use);
  return p && p.getNumReductionLoops() == 0 &&
         p.getNumLoops() < g.getNumLoops() &&
         map.getNumResults() == p.getNumLoops() &&
         map.isFunctionOfDim(g.getNumLoops() - 1);
}

/// Why broadcast producer `p` is not recomputed in its consumer (beyond
/// whyNotRecomputed), or empty: its body must be arithmetic, cheap to
/// repeat at every point of the consumer.
static std::string whyNotRecomputedBroadcast(linalg::GenericOp p) {
  for (Operation &op : p.getBody()->without_terminator())
    if (op.getDialect() != p->getContext()->getLoadedDialect("arith"))
      return "its body computes more than arithmetic (repeated at every "
             "point of the consumer)";
  return "";
}

namespace {
struct MemoptRecomputeProducersPass
    : public memopt::impl::MemoptRecomputeProducersPassBase<
          MemoptRecomputeProducersPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> consumers;
    getOperation().walk([&](linalg::GenericOp g) {
      if (g.hasPureTensorSemantics())
        consumers.push_back(g);
    });
    IRRewriter rewriter(&getContext());
    DenseSet<Operation *> erased;
    for (linalg::GenericOp g : consumers) {
      if (erased.contains(g))
        continue;
      bool columnLike = isColumnLike(g);
      const char *what = columnLike ? "reduction" : "op";
      bool changed = true;
      while (changed) {
        changed = false;
        for (OpOperand *use : g.getDpsInputOperands()) {
          auto p = use->get().getDefiningOp<linalg::GenericOp>();
          // Reductions and values from outside are what they are; other
          // consumers take broadcast producers only (kernel formation fuses
          // producers of their own iteration space).
          if (!p || !isa<ShapedType>(use->get().getType()) ||
              p.getNumReductionLoops() != 0 ||
              (!columnLike && !isBroadcastUse(p, *use, g)))
            continue;
          std::string why = whyNotRecomputed(p, *use, g);
          if (why.empty() && !columnLike)
            why = whyNotRecomputedBroadcast(p);
          if (!why.empty()) {
            g.emitRemark("input ")
                << use->getOperandNumber() << " materialized, not recomputed "
                << "in this " << what << ": " << why;
            continue;
          }
          g.emitRemark("input ")
              << use->getOperandNumber() << " recomputed in this " << what
              << (columnLike ? " from its producer's inputs (fewer bytes "
                               "than writing and reading it)"
                             : " from its broadcast producer's inputs (no "
                               "kernel and buffer of its own)");
          linalg::GenericOp old = g;
          g = inlineProducer(rewriter, g, *use, p);
          if (g != old)
            erased.insert(old);
          if (p->use_empty()) {
            erased.insert(p);
            rewriter.eraseOp(p);
          } else
            sinkToFirstUser(p);
          changed = true;
          break;
        }
      }
    }
  }
};
} // namespace
