//===- RegisterUpstream.cpp - upstream dialect registration -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file registers upstream dialects, extensions and passes. It includes no
// project header besides InitAll.h: registering every upstream dialect by name
// makes a file slow to compile, so it stays apart from memopt's own code.
//
//===----------------------------------------------------------------------===//

#include "memopt/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir::memopt {
void registerUpstreamDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}
void registerUpstreamPasses() { registerAllPasses(); }
} // namespace mlir::memopt
