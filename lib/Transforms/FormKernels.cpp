//===- FormKernels.cpp - linalg on memrefs to gpu.launch ----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the memopt-form-kernels pass: formKernelGroups,
// selectKernelStrategy and emitKernelGroup in one pass, for RUN lines and
// embedders that want kernels in one step.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/KnobOptions.h"

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
    MEMOPT_KERNEL_TARGET_INFO(target, func);
    IRRewriter rewriter(&getContext());
    formKernelGroups(rewriter, func, target, strategy);
    unsigned kernels = 0, fused = 0;
    if (failed(selectKernelStrategies(func, target)) ||
        failed(emitKernelGroups(rewriter, func, target, kernels, fused)))
      return signalPassFailure();
    numKernels += kernels;
    numFusedOps += fused;
  }
};
} // namespace
