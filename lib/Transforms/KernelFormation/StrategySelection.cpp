//===- StrategySelection.cpp - a strategy for each kernel group -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements selectKernelStrategy: the families are tried in
// priority order (tiled transpose, row, elementwise, column reduction) and
// the first that applies writes its attribute; a group no family takes gets
// #memopt.naive with the reason, and a remark on each of its ops.
//
//===----------------------------------------------------------------------===//

#include "Grouping.h"
#include "KernelUtils.h"
#include "Strategies.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// #memopt.naive for `ops`, with `remark` on each op.
static Attribute naive(ArrayRef<linalg::GenericOp> ops,
                       const KernelTargetInfo &target, const Twine &reason,
                       const Twine &remark) {
  for (linalg::GenericOp op : ops)
    op.emitRemark() << remark;
  linalg::GenericOp first = ops.front();
  return NaiveStrategyAttr::get(first.getContext(), target.blockSize,
                                reason.str());
}

FailureOr<Attribute>
mlir::memopt::selectKernelStrategy(KernelGroupOp groupOp,
                                   const KernelTargetInfo &target) {
  SmallVector<linalg::GenericOp> ops = getGroupOps(groupOp);
  if (ops.empty())
    return groupOp.emitError("an empty kernel group"), failure();
  std::string why;
  // A tiled transpose, with the ops before it as its prologue and the ops
  // after it as its epilogue.
  std::optional<unsigned> transpose;
  for (auto [k, op] : llvm::enumerate(ops)) {
    std::string ignored;
    FailureOr<GroupOp> g = classify(op, ignored);
    if (succeeded(g) && isTransposing(op, *g)) {
      transpose = k;
      break;
    }
  }
  if (transpose) {
    FailureOr<TileFusion> fusion = buildTileFusion(ops, *transpose, why);
    if (succeeded(fusion))
      return Attribute(
          selectTileTransposeStrategy(*fusion, *transpose, target));
    if (ops.size() > 1)
      return naive(ops, target, why,
                   "fused kernel not formed: " + why +
                       "; using a naive kernel");
  }
  // A group sharing one row space: row kernels for reductions, elementwise
  // kernels otherwise.
  FailureOr<Group> group = failure();
  if (!transpose)
    group = buildGroup(ops, why);
  if (succeeded(group)) {
    FailureOr<Attribute> s =
        group->hasReduce() ? selectRowStrategy(*group, target, why)
                           : FailureOr<Attribute>(selectElementwiseStrategy(
                                 *group, target, why));
    if (succeeded(s))
      return s;
    return naive(ops, target, why,
                 "fused kernel not formed: " + why + "; using a naive kernel");
  }
  // A reduction with parallel loops inside it, with the fill that seeds it
  // and the elementwise epilogue over its outputs.
  ColumnGroupOps c = splitColumnGroup(ops);
  std::string whyEpilogue;
  if (!c.ops.empty() && isColumnEpilogue(c.ops, c.epilogue, whyEpilogue)) {
    std::string whyTranspose, whyColumn;
    (void)matchTranspose(c.ops[0], whyTranspose);
    FailureOr<ColumnReduceStrategyAttr> s =
        selectColumnReduceStrategy(c, target, whyColumn);
    if (succeeded(s))
      return Attribute(*s);
    std::string reason =
        "no fused strategy applies (transpose: " + whyTranspose +
        "; column reduction: " + whyColumn + ")";
    return naive(ops, target, reason, reason + "; using a naive kernel");
  }
  return naive(ops, target, why,
               "fused kernel not formed: " + why + "; using a naive kernel");
}

LogicalResult
mlir::memopt::selectKernelStrategies(FunctionOpInterface func,
                                     const KernelTargetInfo &target) {
  SmallVector<KernelGroupOp> groups;
  func->walk([&](KernelGroupOp g) { groups.push_back(g); });
  for (KernelGroupOp g : groups) {
    // A pinned strategy stays; memopt-emit-kernels checks it.
    if (g.getStrategyAttr())
      continue;
    FailureOr<Attribute> s = selectKernelStrategy(g, target);
    if (failed(s))
      return failure();
    g.setStrategyAttr(*s);
  }
  return success();
}
