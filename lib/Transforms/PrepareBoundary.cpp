//===- PrepareBoundary.cpp - function boundary for bufferization -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-prepare-boundary: inputs become read-only for
// bufferization and every returned tensor gets a buffer of its own.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTPREPAREBOUNDARYPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

/// An identity linalg.generic copying `v` into a new tensor.
static Value copyTensor(OpBuilder &b, Location loc, Value v) {
  return createElementwiseGeneric(
      b, loc, v, cast<RankedTensorType>(v.getType()).getElementType(),
      [](OpBuilder &, Location, Value x) { return x; });
}

namespace {
struct MemoptPrepareBoundaryPass final
    : memopt::impl::MemoptPrepareBoundaryPassBase<MemoptPrepareBoundaryPass> {
  void runOnOperation() override {
    auto func = dyn_cast<func::FuncOp>(getOperation().getOperation());
    if (!func || func.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    for (BlockArgument arg : func.getArguments())
      if (isa<TensorType>(arg.getType()))
        func.setArgAttr(arg.getArgNumber(),
                        bufferization::BufferizationDialect::kWritableAttrName,
                        BoolAttr::get(ctx, false));
    func.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      DenseSet<Value> seen;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        if (!isa<RankedTensorType>(v.getType()))
          continue;
        bool fresh = !isa<BlockArgument>(v) && seen.insert(v).second;
        if (!fresh)
          operand.set(copyTensor(b, ret.getLoc(), v));
      }
    });
  }
};
} // namespace
