//===- TestTrafficAnalysis.cpp - print the traffic model ----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// -test-memopt-print-traffic: emits the modelled DRAM bytes of every
// gpu.launch and gpu.func as remarks, for lit tests of the analysis.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/Traffic.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct TestPrintTrafficPass final
    : PassWrapper<TestPrintTrafficPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintTrafficPass)
  StringRef getArgument() const final { return "test-memopt-print-traffic"; }
  StringRef getDescription() const final {
    return "Print the DRAM traffic model of each kernel as remarks";
  }
  void runOnOperation() override {
    auto report = [](Operation *op, Region &body) {
      bool unknown = false;
      KernelTraffic t = analyzeKernelTraffic(body, &unknown);
      InFlightDiagnostic d = op->emitRemark();
      d << "traffic: read " << t.bytesRead << " B, written "
        << t.bytesWritten << " B";
      if (unknown)
        d << " (some buffers have dynamic shapes and are not counted)";
    };
    getOperation().walk([&](Operation *op) {
      if (auto l = dyn_cast<gpu::LaunchOp>(op))
        report(op, l.getBody());
      else if (auto f = dyn_cast<gpu::GPUFuncOp>(op))
        report(op, f.getBody());
    });
  }
};
} // namespace

namespace mlir::memopt::test {
void registerTestAccessPatternsPass();
void registerTestPasses() {
  PassRegistration<TestPrintTrafficPass>();
  registerTestAccessPatternsPass();
}
} // namespace mlir::memopt::test
