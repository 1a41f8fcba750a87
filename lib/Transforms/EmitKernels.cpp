//===- EmitKernels.cpp - kernels from their strategies ------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the memopt-emit-kernels pass, a thin driver over
// emitKernelGroup.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTEMITKERNELSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptEmitKernelsPass final
    : memopt::impl::MemoptEmitKernelsPassBase<MemoptEmitKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    IRRewriter rewriter(&getContext());
    unsigned kernels = 0, fused = 0;
    if (failed(emitKernelGroups(rewriter, func, getTargetFacts(getTarget(func)),
                                kernels, fused)))
      return signalPassFailure();
    numKernels += kernels;
    numFusedOps += fused;
  }
};
} // namespace
