//===- memopt-opt.cpp - memopt optimizer driver -------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mlir-opt of memopt: upstream dialects and passes, every memopt pass and
// the memopt pipelines. No logic lives here.
//
//===----------------------------------------------------------------------===//

#include "memopt/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::memopt::test {
void registerTestPasses();
} // namespace mlir::memopt::test

int main(int argc, char **argv) {
  mlir::memopt::registerMemoptPasses();
  mlir::memopt::test::registerTestPasses();
  mlir::DialectRegistry registry;
  mlir::memopt::registerMemoptDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "memopt optimizer driver\n", registry));
}
