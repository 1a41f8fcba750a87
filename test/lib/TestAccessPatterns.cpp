//===- TestAccessPatterns.cpp - print the lane address model ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// -test-memopt-print-access-patterns: emits, for every memory access of
// every gpu.launch and gpu.func, the sector efficiency (global), the
// bank-conflict ways (shared) and the contiguity/divisibility facts as
// remarks, for lit tests of the analysis.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/AccessPattern.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::memopt;

namespace {
std::string formatPercent(double f) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.1f%%", 100.0 * f);
  return s;
}

struct TestPrintAccessPatternsPass final
    : PassWrapper<TestPrintAccessPatternsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAccessPatternsPass)
  StringRef getArgument() const final {
    return "test-memopt-print-access-patterns";
  }
  StringRef getDescription() const final {
    return "Print the lane address model of each GPU memory access";
  }
  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      if (!isModelledAccess(op))
        return;
      if (!op->getParentOfType<gpu::LaunchOp>() &&
          !op->getParentOfType<gpu::GPUFuncOp>())
        return;
      std::string why;
      FailureOr<WarpAccess> a = analyzeWarpAccess(op, why);
      if (failed(a)) {
        op->emitRemark() << "access pattern unknown: " << why;
        return;
      }
      InFlightDiagnostic d = op->emitRemark();
      d << (a->isShared ? "shared " : "global ")
        << (a->isWrite ? "write" : "read") << " of " << a->bytesPerLane
        << " B per lane: ";
      if (a->isShared) {
        BankUse b = getBankUse(*a);
        if (b.ways == 1)
          d << "conflict-free";
        else
          d << b.ways << "-way bank conflict";
        d << " (" << b.wavefronts << " wavefronts, ideal " << b.phases
          << ")";
      } else {
        SectorUse s = getSectorUse(*a);
        d << s.sectors << " sectors for " << s.usefulBytes
          << " useful bytes ("
          << formatPercent(s.efficiency()) << " sector efficiency)";
      }
      d << "; " << (isLaneContiguous(*a) ? "contiguous" : "not contiguous")
        << ", address divisible by " << getAddressDivisibility(*a) << " B";
    });
  }
};
} // namespace

namespace mlir::memopt::test {
void registerTestAccessPatternsPass() {
  PassRegistration<TestPrintAccessPatternsPass>();
}
} // namespace mlir::memopt::test
