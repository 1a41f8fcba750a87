//===- MergeKernelModules.cpp - one gpu.module per program --*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-merge-kernel-modules: all outlined kernels move
// into the first gpu.module so that one PTX module holds the whole program.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTMERGEKERNELMODULESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
struct MemoptMergeKernelModulesPass final
    : memopt::impl::MemoptMergeKernelModulesPassBase<MemoptMergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(
        module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.size() < 2)
      return;
    gpu::GPUModuleOp target = gpuModules.front();
    SymbolTable targetSymbols(target);
    // Old (module, kernel) -> new kernel name.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp src : llvm::drop_begin(gpuModules)) {
      if (src.getTargetsAttr() != target.getTargetsAttr()) {
        src.emitRemark("not merged: its targets differ from the first "
                       "kernel module's");
        continue;
      }
      // Rename clashing symbols while still inside `src`, so that uses
      // among the moved ops (calls between kernels and helpers) follow.
      for (Operation &op : src.getBody()->getOperations()) {
        auto sym = dyn_cast<SymbolOpInterface>(op);
        if (!sym)
          continue;
        StringAttr oldName = sym.getNameAttr();
        StringAttr newName = oldName;
        for (unsigned i = 0; targetSymbols.lookup(newName); ++i)
          newName = StringAttr::get(&getContext(),
                                    oldName.getValue() + "_" + Twine(i));
        if (newName != oldName) {
          if (failed(SymbolTable::replaceAllSymbolUses(&op, newName, src)))
            return signalPassFailure();
          SymbolTable::setSymbolName(&op, newName);
        }
        renamed[{src.getSymNameAttr(), oldName}] = newName;
      }
      for (Operation &op :
           llvm::make_early_inc_range(src.getBody()->getOperations())) {
        if (!isa<SymbolOpInterface>(op))
          continue;
        op.remove();
        targetSymbols.insert(&op);
      }
      src.erase();
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr ref = launch.getKernel();
      auto it = renamed.find(
          {ref.getRootReference(), ref.getLeafReference()});
      if (it == renamed.end())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          target.getSymNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
    });
  }
};
} // namespace
