//===- InitAll.cpp - register memopt components -------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the registration entry points of InitAll.h.
//
//===----------------------------------------------------------------------===//

#include "memopt/InitAll.h"
#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Pipeline/Pipeline.h"
#include "memopt/Transforms/Passes.h"

namespace mlir::memopt {
void registerUpstreamDialects(DialectRegistry &registry);
void registerUpstreamPasses();

void registerMemoptDialects(DialectRegistry &registry) {
  registerUpstreamDialects(registry);
  registry.insert<MemoptDialect>();
}

void registerMemoptPasses() {
  registerUpstreamPasses();
  registerMemoptTransformsPasses();
  registerMemoptPipelines();
}
} // namespace mlir::memopt
