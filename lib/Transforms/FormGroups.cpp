//===- FormGroups.cpp - the kernel groups of a function -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the memopt-form-groups pass, a thin driver over
// formKernelGroups.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/KnobOptions.h"

#include "memopt/Transforms/Passes.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTFORMGROUPSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptFormGroupsPass final
    : memopt::impl::MemoptFormGroupsPassBase<MemoptFormGroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    MEMOPT_KERNEL_TARGET_INFO(target, func);
    IRRewriter rewriter(&getContext());
    numGroups += formKernelGroups(rewriter, func, target, strategy);
  }
};
} // namespace
