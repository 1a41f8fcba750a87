//===- SelectKernelStrategy.cpp - a strategy per kernel group -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the memopt-select-kernel-strategy pass, a thin
// driver over selectKernelStrategy.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/KnobOptions.h"

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTSELECTKERNELSTRATEGYPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptSelectKernelStrategyPass final
    : memopt::impl::MemoptSelectKernelStrategyPassBase<
          MemoptSelectKernelStrategyPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    MEMOPT_KERNEL_TARGET_INFO(target, func);
    if (failed(selectKernelStrategies(func, target)))
      signalPassFailure();
  }
};
} // namespace
