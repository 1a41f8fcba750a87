//===- SetTarget.cpp - attach the module's #memopt.target ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the memopt-set-target pass.
//
//===----------------------------------------------------------------------===//

#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTSETTARGETPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptSetTargetPass final
    : memopt::impl::MemoptSetTargetPassBase<MemoptSetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A target already there was pinned by a user or a test.
    if (module->hasAttr(kTargetAttrName))
      return;
    TargetAttr target = getKnownTarget(&getContext(), chip);
    if (!target) {
      module.emitError("memopt-set-target: unknown chip '")
          << chip << "' (known: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100)";
      return signalPassFailure();
    }
    module->setAttr(kTargetAttrName, target);
  }
};
} // namespace
