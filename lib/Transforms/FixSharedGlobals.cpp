//===- FixSharedGlobals.cpp - NVVM shared-memory globals ----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTFIXSHAREDGLOBALSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;

namespace {
/// NVVM's shared address space.
constexpr unsigned kSharedAddressSpace = 3;

struct MemoptFixSharedGlobalsPass
    : public memopt::impl::MemoptFixSharedGlobalsPassBase<
          MemoptFixSharedGlobalsPass> {
  void runOnOperation() override {
    getOperation()->walk([](LLVM::GlobalOp global) {
      if (global.getAddrSpace() != kSharedAddressSpace)
        return;
      // The start of dynamic shared memory: `.extern .shared ... name[]`.
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (array && array.getNumElements() == 0)
        global.setLinkage(LLVM::Linkage::External);
      if (global.getAlignment().value_or(0) < 16)
        global.setAlignment(16);
    });
  }
};
} // namespace
