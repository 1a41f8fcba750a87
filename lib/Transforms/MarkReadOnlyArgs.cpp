//===- MarkReadOnlyArgs.cpp - read-only, non-aliased kernel args -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-mark-readonly-args: kernel arguments proven
// read-only and unaliased get llvm.noalias + llvm.readonly, which lets the
// NVPTX backend use the non-coherent read-only data path (ld.global.nc).
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"
#include "memopt/Analysis/Traffic.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTMARKREADONLYARGSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// Whether anything in the kernel may write through `arg`.
static bool mayWrite(BlockArgument arg) {
  SmallVector<Value> worklist = {arg};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::LoadOp, vector::LoadOp>(user))
        continue;
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp,
              memref::ReinterpretCastOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      // Stores, atomics, calls, anything unknown: assume a write.
      return true;
    }
  }
  return false;
}

namespace {
struct MemoptMarkReadOnlyArgsPass final
    : memopt::impl::MemoptMarkReadOnlyArgsPassBase<
          MemoptMarkReadOnlyArgsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Kernel -> launches.
    DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
    SymbolTableCollection symbols;
    module.walk([&](gpu::LaunchFuncOp l) {
      if (auto f = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
              l, l.getKernel()))
        launches[f].push_back(l);
    });
    MLIRContext *ctx = &getContext();
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      auto it = launches.find(func);
      if (it == launches.end())
        return;
      // (The function's arguments: the entry block's workgroup and private
      // attributions after them have no argument attributes.)
      for (BlockArgument arg :
           func.getArguments().take_front(func.getNumArguments())) {
        if (!isa<MemRefType>(arg.getType()) || mayWrite(arg))
          continue;
        unsigned i = arg.getArgNumber();
        bool unaliased = llvm::all_of(it->second, [&](gpu::LaunchFuncOp l) {
          Value mine = getViewRoot(l.getKernelOperands()[i]);
          for (auto [j, other] : llvm::enumerate(l.getKernelOperands()))
            if (j != i && isa<MemRefType>(other.getType()) &&
                getViewRoot(other) == mine)
              return false;
          return true;
        });
        if (!unaliased) {
          func.emitRemark() << "argument " << i
                            << " not marked read-only: another argument "
                               "views the same buffer";
          continue;
        }
        func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(ctx));
        func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                        UnitAttr::get(ctx));
        ++numMarked;
      }
    });
  }
};
} // namespace
