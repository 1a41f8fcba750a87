//===- PrepareBoundary.cpp - function boundary for bufferization -*- C++
//-*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-prepare-boundary: inputs become read-only for
// bufferization, every returned tensor gets a buffer of its own, and so
// does every linalg op's destination that another op shares.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

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

/// Whether `op` only creates its result: a tensor.empty, or a fill-like
/// linalg op (no tensor inputs) of a tensor.empty.
static bool isFreshDestination(Operation *op) {
  if (isa<tensor::EmptyOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumResults() != 1 || linalgOp.getNumDpsInits() != 1 ||
      llvm::any_of(linalgOp.getDpsInputs(),
                   [](Value v) { return isa<TensorType>(v.getType()); }))
    return false;
  Operation *init = linalgOp.getDpsInits()[0].getDefiningOp();
  return init && isa<tensor::EmptyOp>(init);
}

/// Gives every use but the first of a shared destination (an empty tensor
/// or a fill of one used as the init of several linalg ops, as frontends
/// write a zero accumulator or an output shape once) its own copy of the
/// producer. Bufferization then gives each op a
/// buffer of its own: without this it copies a shared fill (a memref.copy
/// that splits kernel groups) or writes one op's result over a value
/// another op still reads (an in-place update no kernel may fuse).
static void unshare(func::FuncOp func) {
  SmallVector<OpOperand *> shared;
  DenseSet<Operation *> seen;
  func.walk([&](linalg::LinalgOp op) {
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Operation *def = init.get().getDefiningOp();
      if (!def || !isFreshDestination(def))
        continue;
      if (!seen.insert(def).second)
        shared.push_back(&init);
    }
  });
  for (OpOperand *use : shared) {
    Operation *def = use->get().getDefiningOp();
    // Next to the original, which dominates every use (a use inside a loop
    // must not get a fill per iteration).
    OpBuilder b(def->getContext());
    b.setInsertionPointAfter(def);
    IRMapping map;
    if (!isa<tensor::EmptyOp>(def)) {
      Operation *empty =
          cast<linalg::LinalgOp>(def).getDpsInits()[0].getDefiningOp();
      map.map(empty->getResult(0), b.clone(*empty)->getResult(0));
    }
    use->set(b.clone(*def, map)->getResult(0));
  }
}

/// A result returned through reshapes of a linalg op's result (unit dims
/// folded away and put back: a decode row of 1x8192 computed as 8192; a
/// normalization's collapsed dims expanded, then the frontend's own
/// collapse) is written through the inverse reshapes of an empty tensor of
/// the returned shape instead of a fresh one of its own: after
/// bufferization that is a view of the out-parameter, not a buffer copied
/// into it.
static void writeThroughReshapes(func::ReturnOp ret) {
  for (Value v : ret.getOperands()) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      continue;
    // The reshapes from the returned value back to the linalg op's result,
    // each the only use of its source.
    SmallVector<Operation *> chain;
    Value src = v;
    while (Operation *def = src.getDefiningOp()) {
      if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def) ||
          (!chain.empty() && !src.hasOneUse()))
        break;
      chain.push_back(def);
      src = def->getOperand(0);
    }
    auto result = dyn_cast<OpResult>(src);
    auto dps = result ? dyn_cast<DestinationStyleOpInterface>(
                            result.getOwner())
                      : DestinationStyleOpInterface();
    if (chain.empty() || !dps || !src.hasOneUse())
      continue;
    OpOperand *init = dps.getTiedOpOperand(result);
    auto empty = init ? init->get().getDefiningOp<tensor::EmptyOp>()
                      : tensor::EmptyOp();
    if (!empty || !empty->hasOneUse())
      continue;
    OpBuilder b(empty);
    Location loc = empty.getLoc();
    Value view =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    for (Operation *op : chain) {
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
        view = tensor::CollapseShapeOp::create(
            b, loc, view, expand.getReassociationIndices());
      else
        view = tensor::ExpandShapeOp::create(
            b, loc, cast<RankedTensorType>(op->getOperand(0).getType()), view,
            cast<tensor::CollapseShapeOp>(op).getReassociationIndices());
    }
    init->set(view);
    empty->erase();
  }
}

namespace {
struct MemoptPrepareBoundaryPass final
    : memopt::impl::MemoptPrepareBoundaryPassBase<MemoptPrepareBoundaryPass> {
  using Base::Base;

  void runOnOperation() override {
    auto func = dyn_cast<func::FuncOp>(getOperation().getOperation());
    if (!func || func.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    if (unshareDestinations)
      unshare(func);
    for (BlockArgument arg : func.getArguments())
      if (isa<TensorType>(arg.getType()))
        func.setArgAttr(arg.getArgNumber(),
                        bufferization::BufferizationDialect::kWritableAttrName,
                        BoolAttr::get(ctx, false));
    if (unshareDestinations)
      func.walk([&](func::ReturnOp ret) { writeThroughReshapes(ret); });
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
