//===- FormKernels.cpp - linalg on memrefs to gpu.launch ----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the memopt-form-kernels pass, a thin driver over
// formNaiveKernel and formFusedKernels.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTFORMKERNELSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptFormKernelsPass final
    : memopt::impl::MemoptFormKernelsPassBase<MemoptFormKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    KernelTargetInfo target;
    target.blockSize = blockSize;
    target.maxThreadsPerBlock = maxThreadsPerBlock;
    target.warpSize = warpSize;
    target.vectorBytes = vectorBytes;
    target.rowChunksPerThread = std::max(1u, unsigned(rowChunksPerThread));
    target.columnRowsPerBlock = std::max(1u, unsigned(columnRowsPerBlock));
    target.columnUnroll = std::max(1u, unsigned(columnUnroll));
    target.columnSliceBytes = std::max(1u, unsigned(columnSliceBytes));
    target.rowRegisterElements = std::max(1u, unsigned(rowRegisterElements));
    target.maxClusterSize = std::max(1u, unsigned(maxClusterSize));
    // Whole warps: block reductions and shuffles assume them.
    target.clusterBlockThreads =
        std::clamp(unsigned(clusterBlockThreads) / unsigned(warpSize) *
                       unsigned(warpSize),
                   unsigned(warpSize), unsigned(maxThreadsPerBlock));
    target.rowPrefetch = rowPrefetch;
    target.rowSharedElements = rowSharedElements;
    target.multiprocessors = std::max(1u, unsigned(multiprocessors));
    IRRewriter rewriter(&getContext());

    if (strategy == KernelStrategy::Fused) {
      unsigned fused = 0;
      for (Block &block : func.getFunctionBody()) {
        FailureOr<unsigned> n =
            formFusedKernels(rewriter, block, target, fused);
        if (failed(n))
          return signalPassFailure();
        numKernels += *n;
      }
      numFusedOps += fused;
      return;
    }

    SmallVector<linalg::GenericOp> ops;
    func.walk([&](linalg::GenericOp op) { ops.push_back(op); });
    for (linalg::GenericOp op : ops) {
      if (failed(formNaiveKernel(rewriter, op, target))) {
        op.emitOpError("cannot form a kernel: needs static shapes and "
                       "buffer semantics (run after bufferization)");
        return signalPassFailure();
      }
      ++numKernels;
    }
  }
};
} // namespace
