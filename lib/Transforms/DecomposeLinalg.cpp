//===- DecomposeLinalg.cpp - aggregate and named linalg ops -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-decompose-linalg: aggregate ops such as
// linalg.softmax are decomposed and every named structured op is generalized,
// so that later stages see linalg.generic only.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTDECOMPOSELINALGPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptDecomposeLinalgPass final
    : memopt::impl::MemoptDecomposeLinalgPassBase<MemoptDecomposeLinalgPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Decompose until no aggregate op is left (a decomposition may produce
    // further aggregates).
    for (unsigned round = 0; round < 4; ++round) {
      SmallVector<linalg::AggregatedOpInterface> aggregates;
      getOperation().walk(
          [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
      if (aggregates.empty())
        break;
      for (linalg::AggregatedOpInterface op : aggregates) {
        rewriter.setInsertionPoint(op);
        FailureOr<SmallVector<Value>> repl = op.decomposeOperation(rewriter);
        if (failed(repl)) {
          op->emitOpError("could not be decomposed into linalg.generic ops");
          return signalPassFailure();
        }
        rewriter.replaceOp(op, *repl);
        ++numDecomposed;
      }
    }
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op))) {
        op->emitOpError("cannot be generalized to linalg.generic");
        return signalPassFailure();
      }
      ++numGeneralized;
    }
  }
};
} // namespace
