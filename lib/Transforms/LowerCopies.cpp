//===- LowerCopies.cpp - memref.copy as linalg.copy for the host -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-lower-copies: memref.copy becomes linalg.copy,
// which convert-linalg-to-loops turns into loops. Upstream lowers copies
// between non-contiguous views (the subviews bufferization makes of
// tensor.extract_slice, tensor.concat and tensor.insert_slice) to calls of
// memrefCopy from the MLIR C runner library; the shared objects memopt
// builds for the host must load without it.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTLOWERCOPIESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;

namespace {
struct MemoptLowerCopiesPass final
    : memopt::impl::MemoptLowerCopiesPassBase<MemoptLowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp op : copies) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                  op.getTarget());
    }
  }
};
} // namespace
