//===- FoldOutputCopies.cpp - results written in place -------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-fold-output-copies. Upstream's
// buffer-results-to-out-params replaces a result's allocation by its
// out-parameter only when the function returns the allocation itself; a
// result returned through reshapes of it (unit dims that reduction-dim
// collapsing removed, expanded back) is copied into the out-parameter
// instead. Here the allocation becomes the inverse reshapes of the
// out-parameter and the copy goes.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTFOLDOUTPUTCOPIESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;

/// Whether every use of `v` and of the reshapes in `chain` sits before
/// `copy` in its block (deallocations of `v` aside), so that writing `v`'s
/// data to the copy's target from the start changes nothing else.
static bool usedOnlyBefore(Value v, memref::CopyOp copy,
                           ArrayRef<Operation *> chain) {
  Block &block = *copy->getBlock();
  SmallVector<Value> values = {v};
  for (Operation *op : chain)
    values.push_back(op->getResult(0));
  for (Value value : values)
    for (Operation *user : value.getUsers()) {
      if (user == copy.getOperation() || llvm::is_contained(chain, user) ||
          (value == v && isa<memref::DeallocOp>(user)))
        continue;
      Operation *top = block.findAncestorOpInBlock(*user);
      if (!top || !top->isBeforeInBlock(copy))
        return false;
    }
  return true;
}

/// `copy`, an op of the function's entry block.
static void foldCopy(RewriterBase &rewriter, memref::CopyOp copy) {
  auto arg = dyn_cast<BlockArgument>(copy.getTarget());
  if (!arg || arg.getOwner() != copy->getBlock() || !arg.hasOneUse())
    return;
  auto argType = dyn_cast<MemRefType>(arg.getType());
  if (!argType || !argType.getLayout().isIdentity())
    return;
  // The reshapes from the allocation to the copy's source, outermost
  // first.
  SmallVector<Operation *> chain;
  Value v = copy.getSource();
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def) ||
        !def->getResult(0).hasOneUse())
      break;
    chain.push_back(def);
    v = def->getOperand(0);
  }
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (chain.empty() || !alloc || !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity() ||
      alloc.getType().getMemorySpace() != argType.getMemorySpace() ||
      !usedOnlyBefore(alloc, copy, chain))
    return;
  // The inverse reshapes, from the out-parameter down to the allocation's
  // type, where the allocation was.
  rewriter.setInsertionPoint(alloc);
  Value view = arg;
  SmallVector<Operation *> built;
  for (Operation *op : chain) {
    auto from = cast<MemRefType>(op->getOperand(0).getType());
    Operation *inverse;
    if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
      inverse = memref::CollapseShapeOp::create(
          rewriter, copy.getLoc(), view, expand.getReassociationIndices());
    else
      inverse = memref::ExpandShapeOp::create(
          rewriter, copy.getLoc(), from.getShape(), view,
          cast<memref::CollapseShapeOp>(op).getReassociationIndices());
    built.push_back(inverse);
    view = inverse->getResult(0);
  }
  if (view.getType() != alloc.getType()) {
    for (Operation *op : llvm::reverse(built))
      rewriter.eraseOp(op);
    return;
  }
  rewriter.eraseOp(copy);
  for (Operation *op : chain)
    rewriter.eraseOp(op);
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    if (isa<memref::DeallocOp>(user))
      rewriter.eraseOp(user);
  rewriter.replaceOp(alloc, view);
}

namespace {
struct MemoptFoldOutputCopiesPass final
    : memopt::impl::MemoptFoldOutputCopiesPassBase<
          MemoptFoldOutputCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    for (Operation &op : getOperation().getBody().front())
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        copies.push_back(copy);
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      foldCopy(rewriter, copy);
  }
};
} // namespace
