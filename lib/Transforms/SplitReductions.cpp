//===- SplitReductions.cpp - one generic per independent output -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-split-reductions: a linalg.generic on tensors
// with reduction loops and several outputs whose yields are independent
// (output k's value does not read another output's accumulator: a sum and a
// sum of squares, a max and a sum, LayerNorm backward's two row sums)
// becomes one generic per output, each with the part of the body that
// output needs and the inputs that part reads. Kernel formation groups such
// reductions of one row space into one kernel (the row held once, one
// exchange per reduction), where a multi-result reduction was a naive
// kernel. Outputs that read each other's accumulators (Welford's mean and
// M2) stay together, with a remark.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTSPLITREDUCTIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Whether every loop dim of `maps` appears as a plain dim result of one.
static bool coversLoops(ArrayRef<AffineMap> maps, unsigned numLoops) {
  llvm::SmallBitVector seen(numLoops);
  for (AffineMap m : maps)
    for (AffineExpr e : m.getResults())
      if (auto d = dyn_cast<AffineDimExpr>(e))
        seen.set(d.getPosition());
  return seen.all();
}

namespace {
struct MemoptSplitReductionsPass
    : public memopt::impl::MemoptSplitReductionsPassBase<
          MemoptSplitReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp g) {
      if (g.hasPureTensorSemantics() && g.getNumReductionLoops() > 0 &&
          g.getNumDpsInits() > 1)
        generics.push_back(g);
    });
    OpBuilder b(&getContext());
    for (linalg::GenericOp g : generics)
      split(b, g);
  }

  void split(OpBuilder &b, linalg::GenericOp g) {
    Block *body = g.getBody();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    unsigned numIn = g.getNumDpsInputs(), numOut = g.getNumDpsInits();
    SmallVector<llvm::SetVector<Operation *>> sliceOps(numOut);
    SmallVector<llvm::SetVector<BlockArgument>> sliceArgs(numOut);
    for (unsigned k = 0; k < numOut; ++k) {
      collectBodySlice(yield.getOperand(k), body, sliceOps[k], sliceArgs[k]);
      for (BlockArgument a : sliceArgs[k])
        if (a.getArgNumber() >= numIn && a.getArgNumber() != numIn + k) {
          g.emitRemark("reduction outputs not split: output ")
              << k << " reads the accumulator of output "
              << a.getArgNumber() - numIn;
          return;
        }
    }
    SmallVector<AffineMap> maps = g.getIndexingMapsArray();
    SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
    b.setInsertionPoint(g);
    SmallVector<Value> results;
    for (unsigned k = 0; k < numOut; ++k) {
      // The inputs this output reads (all of them if those alone would not
      // determine the loop ranges).
      SmallVector<unsigned> inputs;
      for (unsigned i = 0; i < numIn; ++i)
        if (sliceArgs[k].contains(body->getArgument(i)))
          inputs.push_back(i);
      SmallVector<AffineMap> newMaps;
      for (unsigned i : inputs)
        newMaps.push_back(maps[i]);
      newMaps.push_back(maps[numIn + k]);
      if (!coversLoops(newMaps, g.getNumLoops())) {
        inputs = llvm::to_vector(llvm::seq<unsigned>(0, numIn));
        newMaps.assign(maps.begin(), maps.begin() + numIn);
        newMaps.push_back(maps[numIn + k]);
      }
      SmallVector<Value> ins;
      for (unsigned i : inputs)
        ins.push_back(g.getDpsInputs()[i]);
      Value init = g.getDpsInits()[k];
      auto one = linalg::GenericOp::create(
          b, g.getLoc(), TypeRange{init.getType()}, ins, ValueRange{init},
          newMaps, iters, [&](OpBuilder &nb, Location loc, ValueRange args) {
            IRMapping mapping;
            for (auto [j, i] : llvm::enumerate(inputs))
              mapping.map(body->getArgument(i), args[j]);
            mapping.map(body->getArgument(numIn + k), args.back());
            for (Operation &op : body->without_terminator())
              if (sliceOps[k].contains(&op))
                nb.clone(op, mapping);
            linalg::YieldOp::create(
                nb, loc, mapping.lookupOrDefault(yield.getOperand(k)));
          });
      results.push_back(one.getResult(0));
    }
    g->replaceAllUsesWith(results);
    g->erase();
  }
};
} // namespace
